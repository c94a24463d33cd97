import type { AwsPortEnv } from '../adapters/aws/env';
import type { PortFactory } from '../platform/capability';
import { systemClock } from '../platform/clock';
import type { Config } from '../platform/config';
import type { Deps } from '../platform/context';
import type { CorePorts, Ports } from '../platform/ports';
import { documentClient } from '../store/client';
import { Store } from '../store/store';

/** Environment variable that carries a capability queue's URL to every function. */
export const queueUrlVariable = (queue: string) => `QUEUE_URL_${queue.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

/** The AWS core ports one function builds: only those its needs name (see function-entries.ts). */
export type CorePortFactories = Partial<{ [K in keyof CorePorts]: (env: AwsPortEnv) => CorePorts[K] }>;

/** What one Lambda function is composed of, beyond its handler. */
export interface FunctionComposition {
  core: CorePortFactories;
  /** Ports that capabilities provide (the processor), by their field on `Ports`. */
  ports: Record<string, PortFactory>;
  /** Names of the capability queues whose URLs the environment carries. */
  queues: string[];
  /** The job group of each job type, for a function that schedules jobs or sends them to a jobs queue. */
  jobGroupOf?: Record<string, string>;
}

/** A port this function was not composed with: calling it is a wiring mistake, said plainly. */
function absent(name: string): never {
  return new Proxy(
    {},
    {
      get: (_target, property) =>
        property === 'then'
          ? undefined
          : () =>
              Promise.reject(
                new Error(
                  name === 'secrets'
                    ? 'This function was given no secret setting (capability manifest `settings`)'
                    : `The ${name} port is not among this function's needs (capability manifest \`needs\`)`,
                ),
              ),
    },
  ) as never;
}

/** The dependencies of a Lambda function: DynamoDB, the AWS ports it needs, and capability ports. */
export function composeDeps(composition: FunctionComposition, config: Config, env: NodeJS.ProcessEnv = process.env): Deps {
  const store = new Store(documentClient({ region: config.AWS_REGION, endpoint: config.DYNAMODB_ENDPOINT }), config.TABLE_NAME);
  const queueUrls = Object.fromEntries(composition.queues.map((queue) => [queue, env[queueUrlVariable(queue)]]));
  const portEnv: AwsPortEnv = { config, queueUrls, jobGroupOf: composition.jobGroupOf, environment: env };
  const core = Object.fromEntries(
    (['secrets', 'bus', 'queue', 'scheduler', 'blob', 'email', 'encryption', 'render'] as const).map((name) => {
      const factory = composition.core[name] as ((env: AwsPortEnv) => unknown) | undefined;
      return [name, factory ? factory(portEnv) : absent(name)];
    }),
  );
  const deps: Deps = { store, clock: systemClock, config, ports: core as unknown as Ports };
  for (const [name, factory] of Object.entries(composition.ports)) (deps.ports as unknown as Record<string, unknown>)[name] = factory.aws(deps);
  return deps;
}
