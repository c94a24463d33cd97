import type { App as CdkApp, Environment } from 'aws-cdk-lib';
import { APP } from '../shared/app';
import type { App } from '../shared/composition/assemble';
import { ApiRoutesStack } from './api-routes-stack';
import { ApiStack } from './api-stack';
import { ConsumersStack } from './consumers-stack';
import { API_ROUTE_STACKS, apiRouteStackOf, type ApiRouteStackName } from './layout';
import { MonitoringStack } from './monitoring-stack';
import { DataStack } from './data-stack';
import { JobsStack } from './jobs-stack';
import { applyNagSuppressions } from './nag-suppressions';
import { requireDeployValues } from './constructs/settings';
import { WorkersStack, type GoogleClientSettings } from './workers-stack';

export interface BuildOptions {
  stage: string;
  env?: Environment;
  capabilities?: App;
  alarmEmail?: string;
  google?: GoogleClientSettings;
  dashboardDist?: string;
  /** Deploy settings by context name (`senderEmail`): each value setting of the app needs its own. */
  settings: Record<string, string | undefined>;
}

/** Builds the stacks of one stage (lib/layout.ts: what grows where); shared by bin/app.ts and the infrastructure tests. */
export function buildStacks(app: CdkApp, options: BuildOptions) {
  const application = options.capabilities ?? APP;
  // Refused before any stack exists: a deploy without its required settings never starts.
  const settingValues = requireDeployValues(application, options.settings);
  const prefix = `CreatorCommerce-${options.stage}`;
  const data = new DataStack(app, `${prefix}-Data`, { stage: options.stage, env: options.env, terminationProtection: options.stage === 'prod' });
  const workers = new WorkersStack(app, `${prefix}-Workers`, {
    stage: options.stage,
    env: options.env,
    app: application,
    alarmEmail: options.alarmEmail,
    google: options.google,
    settingValues,
  });
  workers.addStackDependency(data, 'imports the table, bucket and key by export name');
  const jobs = new JobsStack(app, `${prefix}-Jobs`, { stage: options.stage, env: options.env, app: application, workers });
  jobs.addStackDependency(workers, 'uses the alarm topic, the schedule group and the scheduler role of the workers stack');
  const consumers = new ConsumersStack(app, `${prefix}-Consumers`, { stage: options.stage, env: options.env, app: application, workers });
  consumers.addStackDependency(workers, 'uses the alarm topic, the environment and the resources of the workers stack');
  const api = new ApiStack(app, `${prefix}-Api`, {
    stage: options.stage,
    env: options.env,
    serviceEnvironment: workers.serviceEnvironment,
    workers,
    dashboardDist: options.dashboardDist,
  });
  api.addStackDependency(workers, 'uses the queues, bus and scheduler of the workers stack');
  // The API's functions and routes, split by lib/layout.ts so each stack keeps room to grow.
  const routes = Object.fromEntries(
    (Object.keys(API_ROUTE_STACKS) as ApiRouteStackName[]).map((name) => {
      const stack = new ApiRoutesStack(app, `${prefix}-Api${name}`, {
        env: options.env,
        app: application,
        groups: application.groups.filter((group) => apiRouteStackOf(group.name) === name),
        api: api.api,
        resources: workers.resources,
        serviceEnvironment: api.serviceEnvironment,
        alarmTopic: workers.alarmTopic,
        settings: workers.settings,
      });
      stack.addStackDependency(api, 'its routes join the HTTP API');
      stack.addStackDependency(jobs, "its functions send timers to the job groups' queues");
      return [`api${name}`, stack] as const;
    }),
  ) as Record<`api${ApiRouteStackName}`, ApiRoutesStack>;
  const monitoring = new MonitoringStack(app, `${prefix}-Monitoring`, {
    stage: options.stage,
    env: options.env,
    api: api.api,
    apiFunctions: Object.values(routes).flatMap((stack) => stack.functions),
    consumerFunctions: consumers.functions,
    workers,
    jobs,
  });
  for (const stack of [api, consumers, jobs, ...Object.values(routes)]) monitoring.addStackDependency(stack, 'graphs its functions and queues');
  const stacks = { data, workers, consumers, jobs, api, ...routes, monitoring };
  for (const stack of Object.values(stacks)) applyNagSuppressions(stack);
  return stacks;
}
