import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, MathExpression, Metric, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic, type ITopic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

const FIVE_MINUTES = Duration.minutes(5);

/**
 * The one topic every alarm notifies. Encrypted with its own key because CloudWatch cannot publish
 * to a topic under the AWS-managed SNS key; the key lets only CloudWatch use it for that.
 */
export function createAlarmTopic(scope: Construct, alarmEmail?: string): Topic {
  const key = new Key(scope, 'AlarmTopicKey', { description: 'Creator Commerce: alarm notifications', enableKeyRotation: true });
  key.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
  const topic = new Topic(scope, 'AlarmTopic', { displayName: 'Creator Commerce alarms', masterKey: key, enforceSSL: true });
  if (alarmEmail) topic.addSubscription(new EmailSubscription(alarmEmail));
  return topic;
}

/** Creates an alarm that notifies the topic when it fires and when it clears. */
export function notifyingAlarm(
  scope: Construct,
  id: string,
  topic: ITopic,
  props: { metric: IMetric; threshold: number; description: string; evaluationPeriods?: number; comparison?: ComparisonOperator },
): Alarm {
  const alarm = new Alarm(scope, id, {
    metric: props.metric,
    threshold: props.threshold,
    comparisonOperator: props.comparison ?? ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: props.evaluationPeriods ?? 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
    alarmDescription: props.description,
  });
  const action = new SnsAction(topic);
  alarm.addAlarmAction(action);
  alarm.addOkAction(action);
  return alarm;
}

/** Any message in a dead-letter (or failure) queue is work the service gave up on. */
export function deadLetterAlarm(scope: Construct, id: string, topic: ITopic, dlq: IQueue, what: string): Alarm {
  return notifyingAlarm(scope, id, topic, {
    metric: dlq.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
    threshold: 0,
    description: `${what} could not be processed; they wait in the dead-letter queue (redrive: npm run admin -- redrive)`,
  });
}

/** Errors and throttles of one function; alarms live under the function's own construct. */
export function watchFunction(fn: IFunction & Construct, topic: ITopic): void {
  notifyingAlarm(fn, 'ErrorsAlarm', topic, {
    metric: fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
    threshold: 0,
    description: `${fn.node.id} failed (uncaught errors or timeouts)`,
  });
  notifyingAlarm(fn, 'ThrottlesAlarm', topic, {
    metric: fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
    threshold: 0,
    description: `${fn.node.id} was throttled (account or reserved concurrency exhausted)`,
  });
}

/** Oldest message older than `seconds`: the queue's workers are not keeping up. */
export function queueAgeAlarm(scope: Construct, id: string, topic: ITopic, queue: IQueue, seconds: number, what: string): Alarm {
  return notifyingAlarm(scope, id, topic, {
    metric: queue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum' }),
    threshold: seconds,
    description: `The oldest message of ${what} is older than ${seconds} s`,
  });
}

/** Read and write throttle events of the table, summed. */
export function tableThrottles(tableName: string): MathExpression {
  const metric = (metricName: string) =>
    new Metric({ namespace: 'AWS/DynamoDB', metricName, dimensionsMap: { TableName: tableName }, statistic: 'Sum', period: FIVE_MINUTES });
  return new MathExpression({
    expression: 'reads + writes',
    usingMetrics: { reads: metric('ReadThrottleEvents'), writes: metric('WriteThrottleEvents') },
    label: 'Throttled requests',
    period: FIVE_MINUTES,
  });
}

/** EventBridge Scheduler timers that never reached the jobs queue (dropped or refused by it). */
export function overdueTimers(scheduleGroup: string): MathExpression {
  const metric = (metricName: string) =>
    new Metric({ namespace: 'AWS/Scheduler', metricName, dimensionsMap: { ScheduleGroup: scheduleGroup }, statistic: 'Sum', period: FIVE_MINUTES });
  return new MathExpression({
    expression: 'dropped + targetErrors',
    usingMetrics: { dropped: metric('InvocationDroppedCount'), targetErrors: metric('TargetErrorCount') },
    label: 'Timers not delivered',
    period: FIVE_MINUTES,
  });
}

/**
 * Platform mails (sign-in links, invites, account notices) the provider refused, as the functions
 * count them (shared/platform-mail/send.ts, Powertools metrics with the service dimension).
 */
export const platformMailRefused = () =>
  new Metric({
    namespace: WEBHOOK_METRICS_NAMESPACE,
    metricName: 'PlatformMailRefused',
    dimensionsMap: { service: 'creator-commerce' },
    statistic: 'Sum',
    period: FIVE_MINUTES,
  });

/** Webhook attempts by outcome, counted from the delivery worker's `webhook attempt` log lines. */
export const WEBHOOK_METRICS_NAMESPACE = 'CreatorCommerce';
export const webhookAttempts = (outcome: 'success' | 'failed') =>
  new Metric({
    namespace: WEBHOOK_METRICS_NAMESPACE,
    metricName: outcome === 'success' ? 'WebhookAttemptSucceeded' : 'WebhookAttemptFailed',
    statistic: 'Sum',
    period: FIVE_MINUTES,
  });

export const webhookSuccessRate = () =>
  new MathExpression({
    expression: 'IF(ok + failed > 0, 100 * ok / (ok + failed), 100)',
    usingMetrics: { ok: webhookAttempts('success'), failed: webhookAttempts('failed') },
    label: 'Webhook delivery success rate (%)',
    period: FIVE_MINUTES,
  });
