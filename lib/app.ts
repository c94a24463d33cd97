import type { App as CdkApp, Environment } from 'aws-cdk-lib';
import { APP } from '../shared/app';
import type { App } from '../shared/composition/assemble';
import { ApiStack } from './api-stack';
import { DataStack } from './data-stack';
import { applyNagSuppressions } from './nag-suppressions';
import { WorkersStack, type GoogleClientSettings } from './workers-stack';

/** Builds the three stacks of one stage; shared by bin/app.ts and the infrastructure tests. */
export function buildStacks(app: CdkApp, options: { stage: string; env?: Environment; capabilities?: App; alarmEmail?: string; google?: GoogleClientSettings; dashboardDist?: string }) {
  const application = options.capabilities ?? APP;
  const prefix = `CreatorCommerce-${options.stage}`;
  const data = new DataStack(app, `${prefix}-Data`, { stage: options.stage, env: options.env, terminationProtection: options.stage === 'prod' });
  const workers = new WorkersStack(app, `${prefix}-Workers`, { stage: options.stage, env: options.env, app: application, alarmEmail: options.alarmEmail, google: options.google });
  workers.addStackDependency(data, "imports the table, bucket and key by export name");
  const api = new ApiStack(app, `${prefix}-Api`, {
    stage: options.stage,
    env: options.env,
    resources: workers.resources,
    serviceEnvironment: workers.serviceEnvironment,
    app: application,
    workers,
    dashboardDist: options.dashboardDist,
  });
  api.addStackDependency(workers, 'uses the queues, bus and scheduler of the workers stack');
  for (const stack of [data, workers, api]) applyNagSuppressions(stack);
  return { data, workers, api };
}
