import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Dashboard, GraphWidget, type MathExpression, Metric, SingleValueWidget, TextWidget, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { DeadLetterQueue } from '../workers-stack';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { tableThrottles, webhookSuccessRate } from './monitoring';

const PERIOD = Duration.minutes(5);

export interface OperationsDashboardProps {
  stage: string;
  api: HttpApi;
  apiFunctions: { name: string; fn: IFunction }[];
  workerFunctions: { name: string; fn: IFunction }[];
  streamDispatcher: IFunction;
  queues: { name: string; queue: Queue }[];
  deadLetterQueues: DeadLetterQueue[];
  tableName: string;
}

/**
 * One dashboard for the stage: the API, its functions, the workers, the queues and dead letters,
 * the table and the webhook delivery success rate. Every graph follows the capability list, as the
 * functions and queues it shows do.
 */
export class OperationsDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsDashboardProps) {
    super(scope, id);
    const perFunction = (fns: { name: string; fn: IFunction }[], metric: (fn: IFunction) => IMetric, label: string) =>
      fns.map(({ name, fn }) => (metric(fn) as Metric).with({ label: `${label} ${name}`.trim(), period: PERIOD }));
    const dbMetric = (metricName: string) =>
      new Metric({ namespace: 'AWS/DynamoDB', metricName, dimensionsMap: { TableName: props.tableName }, statistic: 'Sum', period: PERIOD });

    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `creator-commerce-${props.stage}`, defaultInterval: Duration.hours(6) });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown: `# Creator Commerce (${props.stage})\nAlarms notify the stage's alarm topic; dead letters are redriven with \`npm run admin -- redrive --queue <name>\`.`,
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'API requests and errors',
        left: [
          props.api.metricCount({ period: PERIOD, label: 'Requests' }),
          props.api.metricClientError({ period: PERIOD, label: '4xx' }),
          props.api.metricServerError({ period: PERIOD, label: '5xx' }),
        ],
        width: 8,
      }),
      new GraphWidget({
        title: 'API latency',
        left: [
          props.api.metricLatency({ period: PERIOD, statistic: 'p50', label: 'p50' }),
          props.api.metricLatency({ period: PERIOD, statistic: 'p99', label: 'p99' }),
        ],
        width: 8,
      }),
      new SingleValueWidget({ title: 'Webhook delivery success rate (%)', metrics: [webhookSuccessRate()], width: 8 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'API functions: errors',
        left: perFunction(props.apiFunctions, (fn) => fn.metricErrors({ statistic: 'Sum' }), 'errors'),
        width: 8,
      }),
      new GraphWidget({
        title: 'API functions: throttles',
        left: perFunction(props.apiFunctions, (fn) => fn.metricThrottles({ statistic: 'Sum' }), 'throttles'),
        width: 8,
      }),
      new GraphWidget({
        title: 'API functions: duration p99',
        left: perFunction(props.apiFunctions, (fn) => fn.metricDuration({ statistic: 'p99' }), 'p99'),
        width: 8,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Workers: invocations',
        left: perFunction(props.workerFunctions, (fn) => fn.metricInvocations({ statistic: 'Sum' }), ''),
        width: 8,
      }),
      new GraphWidget({
        title: 'Workers: errors and throttles',
        left: [
          ...perFunction(props.workerFunctions, (fn) => fn.metricErrors({ statistic: 'Sum' }), 'errors'),
          ...perFunction(props.workerFunctions, (fn) => fn.metricThrottles({ statistic: 'Sum' }), 'throttles'),
        ],
        width: 8,
      }),
      new GraphWidget({
        title: 'Outbox dispatcher: stream iterator age (ms)',
        left: [props.streamDispatcher.metric('IteratorAge', { statistic: 'Maximum', period: PERIOD })],
        width: 8,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Queues: messages waiting',
        left: props.queues.map(({ name, queue }) => queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, label: name })),
        width: 8,
      }),
      new GraphWidget({
        title: 'Queues: age of oldest message (s)',
        left: props.queues.map(({ name, queue }) => queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, label: name })),
        width: 8,
      }),
      new GraphWidget({
        title: 'Dead letters',
        left: props.deadLetterQueues.map((q) => q.dlq.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum', label: q.name })),
        width: 8,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Table: consumed capacity',
        left: [dbMetric('ConsumedReadCapacityUnits').with({ label: 'read units' }), dbMetric('ConsumedWriteCapacityUnits').with({ label: 'write units' })],
        width: 12,
      }),
      new GraphWidget({ title: 'Table: throttled requests', left: [tableThrottles(props.tableName) as MathExpression], width: 12 }),
    );
  }
}
