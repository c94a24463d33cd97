import type { App as CdkApp, Environment } from 'aws-cdk-lib';
import { APP } from '../shared/app';
import type { App } from '../shared/composition/assemble';
import { ApiStack } from './api-stack';
import { DataStack } from './data-stack';
import { JobsStack } from './jobs-stack';
import { applyNagSuppressions } from './nag-suppressions';
import { requireDeployValues } from './constructs/settings';
import { WorkersStack, type GoogleClientSettings } from './workers-stack';

/** Builds the four stacks of one stage; shared by bin/app.ts and the infrastructure tests. */
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

export function buildStacks(app: CdkApp, options: BuildOptions) {
  const application = options.capabilities ?? APP;
  // Refused before any stack exists: a deploy without its required settings never starts.
  const settingValues = requireDeployValues(application, options.settings);
  const prefix = `CreatorCommerce-${options.stage}`;
  const data = new DataStack(app, `${prefix}-Data`, { stage: options.stage, env: options.env, terminationProtection: options.stage === 'prod' });
  const workers = new WorkersStack(app, `${prefix}-Workers`, { stage: options.stage, env: options.env, app: application, alarmEmail: options.alarmEmail, google: options.google, settingValues });
  workers.addStackDependency(data, "imports the table, bucket and key by export name");
  const jobs = new JobsStack(app, `${prefix}-Jobs`, { stage: options.stage, env: options.env, app: application, workers });
  jobs.addStackDependency(workers, 'uses the alarm topic, the schedule group and the scheduler role of the workers stack');
  const api = new ApiStack(app, `${prefix}-Api`, {
    stage: options.stage,
    env: options.env,
    resources: workers.resources,
    serviceEnvironment: workers.serviceEnvironment,
    app: application,
    workers,
    jobs,
    dashboardDist: options.dashboardDist,
  });
  api.addStackDependency(workers, 'uses the queues, bus and scheduler of the workers stack');
  api.addStackDependency(jobs, 'its dashboard graphs the jobs queues and functions');
  for (const stack of [data, workers, jobs, api]) applyNagSuppressions(stack);
  return { data, workers, jobs, api };
}
