import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { CfnStage, HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { App } from '../shared/composition/assemble';
import { grantNeeds, type ServiceResources } from './constructs/access';
import { ServiceFunction } from './constructs/service-function';
import { OperationsDashboard } from './constructs/dashboard';
import { DashboardHosting } from './constructs/dashboard-hosting';
import { notifyingAlarm, watchFunction } from './constructs/monitoring';
import type { WorkersStack } from './workers-stack';
import type { JobsStack } from './jobs-stack';
import { MathExpression } from 'aws-cdk-lib/aws-cloudwatch';

export interface ApiStackProps extends StackProps {
  stage: string;
  resources: ServiceResources;
  serviceEnvironment: Record<string, string>;
  app: App;
  /** The alarm topic, queues and worker functions to watch and graph. */
  workers: WorkersStack;
  /** The job groups' queues and functions, graphed beside the workers'. */
  jobs: JobsStack;
  /** The built dashboard to deploy (default dashboard/dist); tests point it at a fixture or nowhere. */
  dashboardDist?: string;
}

/**
 * The HTTP API: one function per resource group and one route per operation, both taken from the
 * capability manifests (shared/app.ts), so a route cannot exist without its operation or the
 * reverse. Authentication happens in each function (see shared/platform/auth.ts for why).
 */
export class ApiStack extends Stack {
  readonly api: HttpApi;
  readonly dashboard: DashboardHosting;

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
    const serviceEnvironment = { ...props.serviceEnvironment, DASHBOARD_URL: this.dashboard.url };

    const apiFunctions: { name: string; fn: ServiceFunction }[] = [];
    for (const group of props.app.groups) {
      const fn = new ServiceFunction(this, `Fn-${group.name}`, {
        entryName: 'api',
        appFunction: group.name,
        app: props.app,
        settings: props.workers.settings,
        timeout: Duration.seconds(29),
        // Each MCP tool call is a request to this API (shared/mcp/server.ts).
        environment: group.name === 'mcp' ? { ...serviceEnvironment, API_URL: this.api.apiEndpoint } : serviceEnvironment,
        ...(group.name === 'docs'
          ? {
              environment: { ...serviceEnvironment, DOCS_ASSET_DIR: '/var/task/docs-assets' },
              // The explorer is served by the API itself, with no CDN: ship its two files.
              packagedFiles: ['swagger-ui-bundle.js', 'swagger-ui.css'].map((file) => ({ from: `node_modules/swagger-ui-dist/${file}`, to: `docs-assets/${file}` })),
            }
          : {}),
      });
      grantNeeds(fn, group.needs, props.resources);
      apiFunctions.push({ name: group.name, fn });
      watchFunction(fn, props.workers.alarmTopic);
      // One invoke permission per function (any route of this API), not one per route: with a
      // permission per route the stack passes CloudFormation's 500-resource limit.
      const integration = new HttpLambdaIntegration(`Integration-${group.name}`, fn, { scopePermissionToRoute: false });
      for (const operation of group.operations) {
        this.api.addRoutes({ path: operation.path, methods: [HttpMethod[operation.method]], integration });
      }
    }

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

    const workers = props.workers;
    new OperationsDashboard(this, 'Operations', {
      stage: props.stage,
      api: this.api,
      apiFunctions,
      workerFunctions: [...workers.functions, ...props.jobs.functions].map((fn) => ({ name: fn.node.id, fn })),
      streamDispatcher: workers.streamDispatcher,
      queues: [
        ...[...workers.queues].map(([name, queue]) => ({ name, queue })),
        { name: 'jobs', queue: workers.jobsQueue },
        ...[...props.jobs.queues].map(([name, queue]) => ({ name: `jobs:${name}`, queue })),
      ],
      deadLetterQueues: [...workers.deadLetterQueues, ...props.jobs.deadLetterQueues],
      tableName: workers.tableName,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.apiEndpoint, description: 'Base address of the API' });
  }
}
