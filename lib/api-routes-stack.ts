import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import type { ApiGroup, App } from '../shared/composition/assemble';
import { preflightRoutes } from '../shared/platform/cors';
import { grantNeeds, type ServiceResources } from './constructs/access';
import { watchFunction } from './constructs/monitoring';
import { ServiceFunction } from './constructs/service-function';
import type { DeploySettings } from './constructs/settings';

export interface ApiRoutesStackProps extends StackProps {
  app: App;
  /** The groups this stack serves (lib/layout.ts). */
  groups: ApiGroup[];
  /** The HTTP API of the Api stack, which its routes join. */
  api: HttpApi;
  resources: ServiceResources;
  serviceEnvironment: Record<string, string>;
  alarmTopic: Topic;
  /** The deploy settings and secrets of the workers stack (each function gets what it declares). */
  settings: DeploySettings;
}

/**
 * Functions and routes of some API groups (lib/layout.ts says which): one function per group and
 * one route per operation, on the Api stack's HTTP API. Splitting them over several stacks keeps
 * each far from CloudFormation's 500 resources; the HTTP API itself (its address) never moves.
 */
export class ApiRoutesStack extends Stack {
  readonly functions: { name: string; fn: ServiceFunction }[] = [];

  constructor(scope: Construct, id: string, props: ApiRoutesStackProps) {
    super(scope, id, props);
    const serviceEnvironment = props.serviceEnvironment;
    for (const group of props.groups) {
      const fn = new ServiceFunction(this, `Fn-${group.name}`, {
        entryName: 'api',
        appFunction: group.name,
        app: props.app,
        settings: props.settings,
        timeout: Duration.seconds(29),
        // Each MCP tool call is a request to this API (shared/mcp/server.ts).
        environment: group.name === 'mcp' ? { ...serviceEnvironment, API_URL: props.api.apiEndpoint } : serviceEnvironment,
        ...(group.name === 'docs'
          ? {
              environment: { ...serviceEnvironment, DOCS_ASSET_DIR: '/var/task/docs-assets' },
              // The explorer is served by the API itself, with no CDN: ship its two files.
              packagedFiles: ['swagger-ui-bundle.js', 'swagger-ui.css'].map((file) => ({
                from: `node_modules/swagger-ui-dist/${file}`,
                to: `docs-assets/${file}`,
              })),
            }
          : {}),
      });
      grantNeeds(fn, group.needs, props.resources);
      this.functions.push({ name: group.name, fn });
      watchFunction(fn, props.alarmTopic);
      // One invoke permission per function (any route of this API), not one per route.
      const integration = new HttpLambdaIntegration(`Integration-${group.name}`, fn, { scopePermissionToRoute: false });
      for (const operation of group.operations) {
        new HttpRoute(this, `Route-${operation.method}${operation.path}`, {
          httpApi: props.api,
          routeKey: HttpRouteKey.with(operation.path, HttpMethod[operation.method]),
          integration,
        });
      }
      // Paths declared for other origins (operation `cors`) get an OPTIONS route to the same
      // function, which answers the preflight; no API-wide CORS, so key routes stay closed.
      for (const route of preflightRoutes(group.operations)) {
        new HttpRoute(this, `Route-OPTIONS${route.path}`, { httpApi: props.api, routeKey: HttpRouteKey.with(route.path, HttpMethod.OPTIONS), integration });
      }
    }
  }
}
