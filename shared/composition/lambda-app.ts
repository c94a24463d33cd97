import { awsPorts } from '../adapters/aws/index';
import type { AwsPortEnv } from '../adapters/aws/env';
import type { App } from './assemble';
import type { CorePortFactories, FunctionComposition } from './aws-deps';
import { apiFunction, consumerFunction, externalConsumerFunction, jobsFunction, jobsRouterFunction, lambdaDeps, queueFunction, streamFunction } from './lambda';

/**
 * The generic entries (functions/*.ts): the whole app, every port, the group picked by
 * `APP_FUNCTION` at run time. Deployed functions use their generated entries instead; these stay
 * for tools and for a quick look at everything in one bundle.
 */
function wholeApp(app: App): FunctionComposition {
  const core: Record<string, (env: AwsPortEnv) => unknown> = {};
  for (const name of ['secrets', 'bus', 'queue', 'scheduler', 'blob', 'email', 'encryption'] as const) core[name] = (env) => awsPorts(env)[name];
  return { core: core as CorePortFactories, ports: app.ports, queues: app.queues.map((q) => q.name), jobGroupOf: app.jobGroupOf };
}

function named<T extends { name: string }>(items: T[], name: string | undefined, what: string): T {
  const found = items.find((item) => item.name === name);
  if (!found) throw new Error(`No ${what} named ${name ?? '(APP_FUNCTION is not set)'} in this app`);
  return found;
}

export const apiEntry = (app: App, name = process.env.APP_FUNCTION) => apiFunction(named(app.groups, name, 'API group').operations, lambdaDeps(wholeApp(app)));
export const consumerEntry = (app: App, name = process.env.APP_FUNCTION) =>
  consumerFunction(named(app.consumers, name, 'bus consumer'), lambdaDeps(wholeApp(app)));
export const externalConsumerEntry = (app: App, name = process.env.APP_FUNCTION) =>
  externalConsumerFunction(named(app.externalConsumers, name, 'external event consumer'), lambdaDeps(wholeApp(app)));
export const queueEntry = (app: App, name = process.env.APP_FUNCTION) => queueFunction(named(app.queues, name, 'queue'), lambdaDeps(wholeApp(app)));
/** A job group's function (by APP_FUNCTION), or without one the legacy jobs queue's router. */
export const jobsEntry = (app: App, name = process.env.APP_FUNCTION) =>
  name ? jobsFunction(named(app.jobGroups, name, 'job group').jobs, lambdaDeps(wholeApp(app))) : jobsRouterFunction(lambdaDeps(wholeApp(app)));
export const streamEntry = (app: App) => streamFunction(lambdaDeps(wholeApp(app)));
