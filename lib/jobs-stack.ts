import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { CfnSchedule } from 'aws-cdk-lib/aws-scheduler';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { App } from '../shared/composition/assemble';
import { jobGroupNeeds } from '../shared/composition/function-entries';
import { jobsQueueName } from '../shared/composition/jobs';
import { scheduleExpression } from '../shared/composition/schedules';
import { grantNeeds } from './constructs/access';
import { deadLetterAlarm, queueAgeAlarm, watchFunction } from './constructs/monitoring';
import { ServiceFunction } from './constructs/service-function';
import type { DeadLetterQueue, WorkersStack } from './workers-stack';

export interface JobsStackProps extends StackProps {
  stage: string;
  app: App;
  workers: WorkersStack;
}

/**
 * The timers, one queue and one function per job group (shared/composition/assemble.ts
 * `jobGroups`: the capabilities with job handlers, grouped as their API functions are), so each
 * function carries only its own capability's handlers and the AWS clients its code can reach.
 * EventBridge Scheduler puts a one-time timer on the queue of the group handling its job type
 * (shared/adapters/aws/scheduler.ts), and each recurring schedule on its job type's queue.
 * A stack of its own: with a queue, a dead-letter queue, a function and their alarms per group,
 * they would take the workers stack past CloudFormation's 500 resources.
 */
export class JobsStack extends Stack {
  /** Each group's jobs queue by the group's name. */
  readonly queues = new Map<string, Queue>();
  readonly functions: ServiceFunction[] = [];
  readonly deadLetterQueues: DeadLetterQueue[] = [];

  constructor(scope: Construct, id: string, props: JobsStackProps) {
    super(scope, id, props);
    const { app, workers } = props;
    const topic = workers.alarmTopic;

    for (const group of app.jobGroups) {
      const dlq = new Queue(this, `JobsQueue-${group.name}-Dlq`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
      });
      deadLetterAlarm(this, `JobsQueue-${group.name}-DlqAlarm`, topic, dlq, `Jobs of ${group.name}`);
      // Named: every function derives the queue's address from the group (JOBS_QUEUE_*_PREFIX).
      const queue = new Queue(this, `JobsQueue-${group.name}`, {
        queueName: jobsQueueName(props.stage, group.name),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: Duration.seconds(120),
        deadLetterQueue: { queue: dlq, maxReceiveCount: 5 },
      });
      this.queues.set(group.name, queue);
      this.deadLetterQueues.push({ name: `jobs:${group.name}`, kind: 'sqs', dlq, source: queue });
      // Timers fire into the queue at their due time: an old message is an overdue timer.
      queueAgeAlarm(this, `JobsQueue-${group.name}-AgeAlarm`, topic, queue, 600, `the ${group.name} jobs queue (timers are overdue)`);

      const worker = new ServiceFunction(this, `JobsWorker-${group.name}`, {
        entryName: 'jobs',
        appFunction: group.name,
        app,
        environment: workers.serviceEnvironment,
        settings: workers.settings,
        timeout: Duration.seconds(60),
      });
      grantNeeds(worker, jobGroupNeeds(app, group), workers.resources);
      worker.addEventSource(new SqsEventSource(queue, { batchSize: 10, reportBatchItemFailures: true }));
      watchFunction(worker, topic);
      this.functions.push(worker);

      for (const schedule of group.schedules) {
        new CfnSchedule(this, `Schedule-${schedule.name}`, {
          groupName: workers.scheduleGroupName,
          scheduleExpression: scheduleExpression(schedule.every),
          scheduleExpressionTimezone: 'UTC',
          flexibleTimeWindow: { mode: 'OFF' },
          target: { arn: queue.queueArn, roleArn: workers.schedulerRole.roleArn, input: JSON.stringify({ ...schedule.job, recurring: schedule.name }) },
        });
      }
    }

    new CfnOutput(this, 'DeadLetterQueues', {
      value: Stack.of(this).toJsonString(
        Object.fromEntries(
          this.deadLetterQueues.map((q) => [q.name, { kind: q.kind, dlq: q.dlq.queueUrl, dlqArn: q.dlq.queueArn, source: q.source?.queueArn }]),
        ),
      ),
      description: 'Dead-letter queues of the jobs queues by redrive name (read by npm run admin -- redrive)',
    });
  }
}
