import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { type CfnStage, HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { DashboardHosting } from './constructs/dashboard-hosting';
import { notifyingAlarm } from './constructs/monitoring';
import type { WorkersStack } from './workers-stack';
import { MathExpression } from 'aws-cdk-lib/aws-cloudwatch';

export interface ApiStackProps extends StackProps {
  stage: string;
  serviceEnvironment: Record<string, string>;
  /** The alarm topic. */
  workers: WorkersStack;
  /** The built dashboard to deploy (default dashboard/dist); tests point it at a fixture or nowhere. */
  dashboardDist?: string;
}

/**
 * The HTTP API (its address, stage and access logs) and the seller dashboard's hosting. Its
 * functions and routes, one per resource group and operation from the capability manifests, are
 * in the API route stacks (lib/api-routes-stack.ts, lib/layout.ts). Authentication happens in
 * each function (see shared/platform/auth.ts for why).
 */
export class ApiStack extends Stack {
  readonly api: HttpApi;
  readonly dashboard: DashboardHosting;
  /** What every API function gets: the workers' environment and the dashboard's address. */
  readonly serviceEnvironment: Record<string, string>;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    this.api = new HttpApi(this, 'Api', {
      apiName: `creator-commerce-${props.stage}`,
      description: 'Creator Commerce API',
      createDefaultStage: true,
    });

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.THREE_MONTHS });
    const stage = this.api.defaultStage!.node.defaultChild as CfnStage;
    stage.accessLogSettings = {
      destinationArn: accessLogs.logGroupArn,
      format: JSON.stringify({
        requestId: '$context.requestId',
        ip: '$context.identity.sourceIp',
        routeKey: '$context.routeKey',
        status: '$context.status',
        latencyMs: '$context.responseLatency',
        integrationError: '$context.integrationErrorMessage',
      }),
    };
    // The per-account limit (600/min) is enforced in the functions; this caps the whole API.
    stage.defaultRouteSettings = { throttlingBurstLimit: 500, throttlingRateLimit: 1000 };

    // The seller dashboard (static, S3 behind CloudFront): its config.json names this API, and the
    // API's sign-in links point at it.
    this.dashboard = new DashboardHosting(this, 'SellerDashboard', { apiUrl: this.api.apiEndpoint, distDir: props.dashboardDist });

    // The functions and routes live in the API route stacks (lib/layout.ts), which join this API.
    this.serviceEnvironment = { ...props.serviceEnvironment, DASHBOARD_URL: this.dashboard.url };

    // The share of requests answered 5xx, once there are enough requests for a share to mean something.
    notifyingAlarm(this, 'Api5xxRateAlarm', props.workers.alarmTopic, {
      metric: new MathExpression({
        expression: 'IF(requests >= 20, 100 * errors / requests, 0)',
        usingMetrics: { requests: this.api.metricCount({ period: Duration.minutes(5) }), errors: this.api.metricServerError({ period: Duration.minutes(5) }) },
        label: '5xx rate (%)',
        period: Duration.minutes(5),
      }),
      threshold: 2,
      description: 'More than 2% of API requests answered 5xx over five minutes',
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.apiEndpoint, description: 'Base address of the API' });
  }
}
