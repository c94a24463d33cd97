import { Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnSchedule } from 'aws-cdk-lib/aws-scheduler';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_SOURCE } from '../shared/adapters/aws/bus';
import { OUTBOX_ENTITY } from '../shared/platform/events';
import type { App } from '../shared/composition/assemble';
import { queueUrlVariable } from '../shared/composition/aws-deps';
import { scheduleExpression } from '../shared/composition/schedules';
import { ServiceFunction } from './constructs/service-function';
import { importStateful } from './constructs/shared-resources';
import { ALL_NEEDS, grantNeeds, type ServiceResources } from './constructs/access';

export interface WorkersStackProps extends StackProps {
  stage: string;
  app: App;
}

/**
 * The asynchronous half, derived from the capability manifests (shared/app.ts): the outbox
 * dispatcher on the table stream, the event bus and one rule per consumer, one queue with a worker
 * per declared queue (per-message delay), the jobs queue fed by EventBridge Scheduler and its
 * recurring schedules, dead-letter queues and their alarms.
 */
export class WorkersStack extends Stack {
  readonly bus: EventBus;
  readonly jobsQueue: Queue;
  /** Each capability queue by its name. */
  readonly queues = new Map<string, Queue>();
  readonly scheduleGroupName: string;
  readonly schedulerRole: Role;
  /** Environment every function of the service gets. */
  readonly serviceEnvironment: Record<string, string>;
  readonly resources: ServiceResources;

  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, props);
    const stateful = importStateful(this, props.stage);
    const { table } = stateful;

    this.bus = new EventBus(this, 'Bus', { eventBusName: `creator-commerce-${props.stage}` });

    const queue = (name: string, visibility: Duration) => {
      const dlq = new Queue(this, `${name}Dlq`, { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
      new Alarm(this, `${name}DlqAlarm`, {
        metric: dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: `Messages of ${name} could not be processed; they wait in the dead-letter queue`,
      });
      return {
        dlq,
        queue: new Queue(this, name, {
          encryption: QueueEncryption.SQS_MANAGED,
          enforceSSL: true,
          visibilityTimeout: visibility,
          deadLetterQueue: { queue: dlq, maxReceiveCount: 5 },
        }),
      };
    };
    const { app } = props;
    for (const declared of app.queues) {
      const timeout = declared.timeoutSeconds ?? 30;
      // SQS hides a message for longer than its worker may take, with room for the batch.
      this.queues.set(declared.name, queue(declared.cdkIds?.queue ?? `Queue-${declared.name}`, Duration.seconds(Math.max(60, Math.ceil(timeout * 1.5)))).queue);
    }
    this.jobsQueue = queue('JobsQueue', Duration.seconds(120)).queue;
    const streamDlq = new Queue(this, 'StreamDispatchFailures', { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
    Validations.of(streamDlq).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is the stream event source\'s on-failure destination: a dead-letter queue in all but name, so it needs none of its own.',
    });

    const group = new CfnScheduleGroup(this, 'Schedules', { name: `creator-commerce-${props.stage}` });
    this.scheduleGroupName = group.name!;
    this.schedulerRole = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': this.account } } }),
      description: 'Lets EventBridge Scheduler put fired timers on the jobs queue',
    });
    this.jobsQueue.grantSendMessages(this.schedulerRole);

    this.resources = {
      table,
      bucket: stateful.bucket,
      secretsKey: stateful.secretsKey,
      queues: [...this.queues.values(), this.jobsQueue],
      scheduleGroupName: this.scheduleGroupName,
      schedulerRole: this.schedulerRole,
    };
    this.serviceEnvironment = {
      TABLE_NAME: table.tableName,
      EVENT_BUS_NAME: this.bus.eventBusName,
      ...Object.fromEntries([...this.queues].map(([name, q]) => [queueUrlVariable(name), q.queueUrl])),
      JOBS_QUEUE_URL: this.jobsQueue.queueUrl,
      JOBS_QUEUE_ARN: this.jobsQueue.queueArn,
      SCHEDULER_GROUP: this.scheduleGroupName,
      SCHEDULER_ROLE_ARN: this.schedulerRole.roleArn,
      BLOB_BUCKET: stateful.bucket.bucketName,
      KMS_KEY_ID: stateful.secretsKey.keyArn,
      STAGE: props.stage,
    };

    // Outbox dispatcher: only inserts of outbox items reach the function.
    const dispatcher = new ServiceFunction(this, 'StreamDispatcher', { entryName: 'stream-dispatcher', app, environment: this.serviceEnvironment });
    dispatcher.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: 10,
        onFailure: new SqsDlq(streamDlq),
        filters: [FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT'), dynamodb: { NewImage: { entity: { S: FilterRule.isEqual(OUTBOX_ENTITY) } } } })],
      }),
    );
    this.bus.grantPutEventsTo(dispatcher);

    // Bus consumers: a function and a rule each, matching on the event type (detail-type).
    for (const consumer of app.consumers) {
      const fn = new ServiceFunction(this, `Consumer-${consumer.name}`, { entryName: 'consumer', appFunction: consumer.name, app, environment: this.serviceEnvironment });
      grantNeeds(fn, consumer.needs ?? ['table'], this.resources);
      const consumerDlq = new Queue(this, `Consumer-${consumer.name}-Dlq`, { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
      Validations.of(consumerDlq).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'This queue is the dead-letter queue of the bus rule target; it needs none of its own.' });
      new Rule(this, `Rule-${consumer.name}`, {
        eventBus: this.bus,
        eventPattern: { source: [EVENT_SOURCE], ...(consumer.eventTypes === '*' ? {} : { detailType: consumer.eventTypes }) },
        targets: [new LambdaFunction(fn, { retryAttempts: 8, maxEventAge: Duration.hours(24), deadLetterQueue: consumerDlq })],
      });
    }

    for (const declared of app.queues) {
      const worker = new ServiceFunction(this, declared.cdkIds?.worker ?? `QueueWorker-${declared.name}`, {
        entryName: 'queue',
        appFunction: declared.name,
        app,
        environment: this.serviceEnvironment,
        timeout: Duration.seconds(declared.timeoutSeconds ?? 30),
      });
      grantNeeds(worker, declared.needs ?? ['table'], this.resources);
      worker.addEventSource(new SqsEventSource(this.queues.get(declared.name)!, { batchSize: declared.batchSize ?? 10, reportBatchItemFailures: true }));
    }

    const jobs = new ServiceFunction(this, 'JobsWorker', { entryName: 'jobs', app, environment: this.serviceEnvironment, timeout: Duration.seconds(60) });
    // Timers can do anything a request can (charge, email, reschedule).
    grantNeeds(jobs, ALL_NEEDS, this.resources);
    jobs.addEventSource(new SqsEventSource(this.jobsQueue, { batchSize: 10, reportBatchItemFailures: true }));

    for (const schedule of app.schedules) {
      new CfnSchedule(this, `Schedule-${schedule.name}`, {
        groupName: this.scheduleGroupName,
        scheduleExpression: scheduleExpression(schedule.every),
        scheduleExpressionTimezone: 'UTC',
        flexibleTimeWindow: { mode: 'OFF' },
        target: { arn: this.jobsQueue.queueArn, roleArn: this.schedulerRole.roleArn, input: JSON.stringify({ ...schedule.job, recurring: schedule.name }) },
      });
    }
  }
}
