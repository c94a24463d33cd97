import { ArnFormat, CfnOutput, Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import { EventBus, Rule, type IEventBus } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { EVENT_SOURCE } from '../shared/adapters/aws/bus';
import { consumerFunctionName } from './layout';
import { ConfigurationSet, EmailSendingEvent, EventDestination } from 'aws-cdk-lib/aws-ses';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, Function as LambdaFn, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { CARRIES_EVENT, OUTBOX_ENTITY } from '../shared/platform/events';
import type { App } from '../shared/composition/assemble';
import { queueUrlVariable } from '../shared/composition/aws-deps';
import { ServiceFunction } from './constructs/service-function';
import { DeploySettings } from './constructs/settings';
import { importStateful } from './constructs/shared-resources';
import { grantNeeds, sendToJobsQueues, type ServiceResources } from './constructs/access';
import { jobsQueueName, jobsQueueNamePrefix } from '../shared/composition/jobs';
import {
  createAlarmTopic,
  deadLetterAlarm,
  notifyingAlarm,
  overdueTimers,
  platformMailRefused,
  queueAgeAlarm,
  tableThrottles,
  watchFunction,
  WEBHOOK_METRICS_NAMESPACE,
} from './constructs/monitoring';

/**
 * The seller's Google OAuth client for spreadsheet sync (context `googleClientId` and
 * `googleClientSecretEncrypted`). The secret is given encrypted with the stack's KMS key, so the
 * functions' configuration never holds it in the clear; they decrypt it at first use.
 */
export interface GoogleClientSettings {
  clientId?: string;
  clientSecretEncrypted?: string;
}

export interface WorkersStackProps extends StackProps {
  google?: GoogleClientSettings;
  stage: string;
  app: App;
  /** Address the alarm topic mails (context value `alarmEmail`); no subscription without it. */
  alarmEmail?: string;
  /** The value settings' deploy values by setting name (lib/constructs/settings.ts requireDeployValues). */
  settingValues: Record<string, string>;
}

/** A queue whose messages can be redriven, and where they go back to. */
export interface DeadLetterQueue {
  /** What `npm run admin -- redrive --queue <name>` calls it. */
  name: string;
  /**
   * `sqs`: a real dead-letter queue of a source queue (SQS moves the messages back);
   * `rule`: a bus rule's target DLQ (the event is replayed to that consumer);
   * `stream`: the stream's on-failure destination (the batch's records are re-read and dispatched).
   */
  kind: 'sqs' | 'rule' | 'stream';
  dlq: Queue;
  source?: Queue;
  consumer?: string;
}

/**
 * The asynchronous half, derived from the capability manifests (shared/app.ts): the outbox
 * dispatcher on the table stream, the event bus and one rule per consumer, one queue with a worker
 * per declared queue (per-message delay), the schedule group and the role EventBridge Scheduler
 * fires timers with, dead-letter queues and their alarms. The job groups' queues and functions are
 * the jobs stack's (lib/jobs-stack.ts); the jobs queue here is the one every timer went to before,
 * kept so the one-time schedules made then still arrive: its worker forwards each to its group.
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
  readonly alarmTopic: Topic;
  readonly deadLetterQueues: DeadLetterQueue[] = [];
  /** ARNs of the job groups' queues (the jobs stack creates them under these names). */
  readonly jobsQueueArns: string[];
  /** Every function of this stack (the dashboard graphs them). */
  readonly functions: ServiceFunction[] = [];
  readonly streamDispatcher: ServiceFunction;
  readonly tableName: string;
  /** SES configuration set every mail goes through; its events reach the default bus. */
  readonly emailConfigurationSet: ConfigurationSet;
  /** The deployment's secrets and values; every function is given those it declares. */
  readonly settings: DeploySettings;

  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, props);
    const stateful = importStateful(this, props.stage);
    const { table } = stateful;

    this.tableName = table.tableName;
    this.bus = new EventBus(this, 'Bus', { eventBusName: `creator-commerce-${props.stage}` });
    this.alarmTopic = createAlarmTopic(this, props.alarmEmail);
    const topic = this.alarmTopic;
    this.settings = new DeploySettings(this, 'Settings', { app: props.app, values: props.settingValues, key: stateful.secretsKey, stage: props.stage });
    const settings = this.settings;

    const queue = (name: string, visibility: Duration, redriveName: string) => {
      const dlq = new Queue(this, `${name}Dlq`, { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
      deadLetterAlarm(this, `${name}DlqAlarm`, topic, dlq, `Messages of ${name}`);
      const source = new Queue(this, name, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: visibility,
        deadLetterQueue: { queue: dlq, maxReceiveCount: 5 },
      });
      this.deadLetterQueues.push({ name: redriveName, kind: 'sqs', dlq, source });
      return { dlq, queue: source };
    };
    const { app } = props;
    for (const declared of app.queues) {
      const timeout = declared.timeoutSeconds ?? 30;
      const id = declared.cdkIds?.queue ?? `Queue-${declared.name}`;
      // SQS hides a message for longer than its worker may take, with room for the batch.
      const created = queue(id, Duration.seconds(Math.max(60, Math.ceil(timeout * 1.5))), declared.name).queue;
      this.queues.set(declared.name, created);
      // Deliveries are due within seconds (retries at 1 s and 4 s); ten minutes means a backlog.
      queueAgeAlarm(this, `${id}AgeAlarm`, topic, created, 600, `the ${declared.name} queue`);
    }
    this.jobsQueue = queue('JobsQueue', Duration.seconds(120), 'jobs').queue;
    // Timers made before the job groups fire into this queue at their due time: an old message is an overdue timer.
    queueAgeAlarm(this, 'JobsQueueAgeAlarm', topic, this.jobsQueue, 600, 'the jobs queue (timers are overdue)');
    const sqsArn = (name: string) => this.formatArn({ service: 'sqs', resource: name, arnFormat: ArnFormat.NO_RESOURCE_NAME });
    this.jobsQueueArns = app.jobGroups.map((group) => sqsArn(jobsQueueName(props.stage, group.name)));
    const streamDlq = new Queue(this, 'StreamDispatchFailures', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    deadLetterAlarm(this, 'StreamDispatchFailuresAlarm', topic, streamDlq, 'Outbox batches of the table stream');
    this.deadLetterQueues.push({ name: 'stream', kind: 'stream', dlq: streamDlq });
    Validations.of(streamDlq).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "This queue is the stream event source's on-failure destination: a dead-letter queue in all but name, so it needs none of its own.",
    });

    const group = new CfnScheduleGroup(this, 'Schedules', { name: `creator-commerce-${props.stage}` });
    this.scheduleGroupName = group.name!;
    this.schedulerRole = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': this.account } } }),
      description: 'Lets EventBridge Scheduler put fired timers on the jobs queues',
    });
    // The old queue too: one-time schedules made before the job groups still name it.
    this.jobsQueue.grantSendMessages(this.schedulerRole);
    if (this.jobsQueueArns.length) this.schedulerRole.addToPolicy(sendToJobsQueues(this.jobsQueueArns));

    // SES publishes configuration-set events only to the account's default bus (source aws.ses).
    const defaultBus = EventBus.fromEventBusName(this, 'DefaultBus', 'default');
    // Named, not referenced: the API stack's grants and environment then need no cross-stack export.
    const configurationSetName = `creator-commerce-${props.stage}`;
    this.emailConfigurationSet = new ConfigurationSet(this, 'EmailConfigurationSet', { configurationSetName });
    this.emailConfigurationSet.addEventDestination('EmailEvents', {
      destination: EventDestination.eventBus(defaultBus),
      events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT, EmailSendingEvent.DELIVERY],
    });

    // Renders mail and sanitises HTML for the functions whose needs include `render`, which invoke
    // it and wait (shared/adapters/aws/render.ts). It is granted nothing: it parses untrusted HTML
    // where no data can be reached. Named, like the configuration set, so the other stacks' grants
    // and environment need no cross-stack export. CPU-bound (CSS inlining), so more memory than
    // the I/O-bound functions: Lambda gives CPU in proportion.
    const renderFunctionName = `creator-commerce-${props.stage}-render`;
    const render = new ServiceFunction(this, 'RenderFunction', { entryName: 'render', app, functionName: renderFunctionName, memorySize: 1024 });
    this.functions.push(render);

    this.resources = {
      table,
      bucket: stateful.bucket,
      secretsKey: stateful.secretsKey,
      queues: [...this.queues.values(), this.jobsQueue],
      jobsQueueArns: this.jobsQueueArns,
      scheduleGroupName: this.scheduleGroupName,
      schedulerRole: this.schedulerRole,
      emailConfigurationSetName: configurationSetName,
      renderFunctionArn: this.formatArn({
        service: 'lambda',
        resource: 'function',
        resourceName: renderFunctionName,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      }),
    };
    this.serviceEnvironment = {
      TABLE_NAME: table.tableName,
      EVENT_BUS_NAME: this.bus.eventBusName,
      ...Object.fromEntries([...this.queues].map(([name, q]) => [queueUrlVariable(name), q.queueUrl])),
      JOBS_QUEUE_URL_PREFIX: `https://sqs.${this.region}.${this.urlSuffix}/${this.account}/${jobsQueueNamePrefix(props.stage)}`,
      JOBS_QUEUE_ARN_PREFIX: sqsArn(jobsQueueNamePrefix(props.stage)),
      SCHEDULER_GROUP: this.scheduleGroupName,
      SCHEDULER_ROLE_ARN: this.schedulerRole.roleArn,
      BLOB_BUCKET: stateful.bucket.bucketName,
      KMS_KEY_ID: stateful.secretsKey.keyArn,
      EMAIL_CONFIGURATION_SET: configurationSetName,
      RENDER_FUNCTION_NAME: renderFunctionName,
      STAGE: props.stage,
      ...(props.google?.clientId ? { GOOGLE_CLIENT_ID: props.google.clientId } : {}),
      ...(props.google?.clientSecretEncrypted ? { GOOGLE_CLIENT_SECRET_ENCRYPTED: props.google.clientSecretEncrypted } : {}),
    };

    // Outbox dispatcher: only inserts of outbox items reach the function.
    const dispatcher = new ServiceFunction(this, 'StreamDispatcher', { entryName: 'stream-dispatcher', app, environment: this.serviceEnvironment, settings });
    this.streamDispatcher = dispatcher;
    this.functions.push(dispatcher);
    // Events reach the bus late when the dispatcher falls behind the stream.
    notifyingAlarm(this, 'StreamIteratorAgeAlarm', topic, {
      metric: dispatcher.metric('IteratorAge', { statistic: 'Maximum', period: Duration.minutes(5) }),
      threshold: 60_000,
      description: 'The outbox dispatcher is more than a minute behind the table stream',
    });
    dispatcher.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: 10,
        onFailure: new SqsDlq(streamDlq),
        filters: [
          FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT'), dynamodb: { NewImage: { entity: { S: FilterRule.isEqual(OUTBOX_ENTITY) } } } }),
          // Entity items that are their own outbox record (shared/platform/events.ts carriedEvent).
          FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT'), dynamodb: { NewImage: { [CARRIES_EVENT]: { BOOL: [true] } } } }),
        ],
      }),
    );
    this.bus.grantPutEventsTo(dispatcher);

    // Consumers: a rule each, targeting the consumer's function with retries and a dead-letter
    // queue. Bus consumers match our events on our bus by type (detail-type); external consumers
    // match another service's events (source and detail-type) on the default bus. The rules and
    // queues stay here (the queues hold events; a rule that moved would leave a gap in a deploy);
    // the functions are the consumers stack's, named so that no reference runs back to it.
    const consume = (name: string, eventBus: IEventBus, eventPattern: { source: string[]; detailType?: string[] }) => {
      const consumerDlq = new Queue(this, `Consumer-${name}-Dlq`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
      });
      deadLetterAlarm(this, `Consumer-${name}-DlqAlarm`, topic, consumerDlq, `Events for ${name}`);
      this.deadLetterQueues.push({ name: `consumer:${name}`, kind: 'rule', dlq: consumerDlq, consumer: name });
      Validations.of(consumerDlq).acknowledge({
        id: 'AwsSolutions-SQS3',
        reason: 'This queue is the dead-letter queue of the bus rule target; it needs none of its own.',
      });
      const fn = LambdaFn.fromFunctionAttributes(this, `Consumer-${name}-Ref`, {
        functionArn: this.formatArn({
          service: 'lambda',
          resource: 'function',
          resourceName: consumerFunctionName(props.stage, name),
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
        sameEnvironment: true,
        // Its invoke permission for rules is the consumers stack's, beside the function.
        skipPermissions: true,
      });
      new Rule(this, `Rule-${name}`, {
        eventBus,
        eventPattern,
        targets: [new LambdaFunction(fn, { retryAttempts: 8, maxEventAge: Duration.hours(24), deadLetterQueue: consumerDlq })],
      });
    };
    for (const consumer of app.consumers) {
      consume(consumer.name, this.bus, { source: [EVENT_SOURCE], ...(consumer.eventTypes === '*' ? {} : { detailType: consumer.eventTypes }) });
    }
    for (const consumer of app.externalConsumers) {
      consume(consumer.name, defaultBus, { source: [consumer.source], detailType: consumer.detailTypes });
    }

    for (const declared of app.queues) {
      const worker = new ServiceFunction(this, declared.cdkIds?.worker ?? `QueueWorker-${declared.name}`, {
        entryName: 'queue',
        appFunction: declared.name,
        app,
        environment: this.serviceEnvironment,
        settings,
        timeout: Duration.seconds(declared.timeoutSeconds ?? 30),
      });
      grantNeeds(worker, declared.needs ?? ['table'], this.resources);
      this.functions.push(worker);
      if (declared.name === 'webhooks') this.countWebhookAttempts(worker);
      worker.addEventSource(new SqsEventSource(this.queues.get(declared.name)!, { batchSize: declared.batchSize ?? 10, reportBatchItemFailures: true }));
    }

    // The old jobs queue's worker only forwards each job to its group's queue (no capability code).
    const router = new ServiceFunction(this, 'JobsWorker', {
      entryName: 'jobs',
      app,
      environment: this.serviceEnvironment,
      settings,
      timeout: Duration.seconds(60),
    });
    grantNeeds(router, ['queue'], this.resources);
    router.addEventSource(new SqsEventSource(this.jobsQueue, { batchSize: 10, reportBatchItemFailures: true }));
    this.functions.push(router);

    for (const fn of this.functions) watchFunction(fn, topic);
    notifyingAlarm(this, 'TableThrottlesAlarm', topic, {
      metric: tableThrottles(table.tableName),
      threshold: 0,
      description: 'DynamoDB throttled requests on the table',
    });
    notifyingAlarm(this, 'PlatformMailRefusedAlarm', topic, {
      metric: platformMailRefused(),
      threshold: 0,
      description: 'The mail service refused a platform mail (sign-in link, invite or account notice): check the sender (-c senderEmail) is verified in SES',
    });
    notifyingAlarm(this, 'OverdueTimersAlarm', topic, {
      metric: overdueTimers(this.scheduleGroupName),
      threshold: 0,
      description: 'EventBridge Scheduler could not put timers on the jobs queue: they are overdue',
    });

    new CfnOutput(this, 'AlarmTopicArn', { value: topic.topicArn, description: 'SNS topic every alarm notifies (subscribe more addresses here)' });
    new CfnOutput(this, 'EventBusName', { value: this.bus.eventBusName, description: 'Bus the outbox dispatcher puts domain events on' });
    new CfnOutput(this, 'DeadLetterQueues', {
      value: Stack.of(this).toJsonString(
        Object.fromEntries(
          this.deadLetterQueues.map((q) => [
            q.name,
            { kind: q.kind, dlq: q.dlq.queueUrl, dlqArn: q.dlq.queueArn, source: q.source?.queueArn, consumer: q.consumer },
          ]),
        ),
      ),
      description: 'Dead-letter queues by redrive name (read by npm run admin -- redrive)',
    });
  }

  /** Webhook attempts by outcome, from the delivery worker's `webhook attempt` log lines. */
  private countWebhookAttempts(worker: ServiceFunction): void {
    for (const [outcome, metricName] of [
      ['success', 'WebhookAttemptSucceeded'],
      ['failed', 'WebhookAttemptFailed'],
    ] as const) {
      new MetricFilter(this, `${metricName}Filter`, {
        logGroup: worker.logGroup,
        metricNamespace: WEBHOOK_METRICS_NAMESPACE,
        metricName,
        filterPattern: FilterPattern.all(FilterPattern.stringValue('$.message', '=', 'webhook attempt'), FilterPattern.stringValue('$.outcome', '=', outcome)),
        metricValue: '1',
        defaultValue: 0,
      });
    }
  }
}
