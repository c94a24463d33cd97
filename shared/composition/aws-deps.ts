import { awsPorts } from '../adapters/aws/index';
import { systemClock } from '../platform/clock';
import type { Config } from '../platform/config';
import type { Deps } from '../platform/context';
import type { Ports } from '../platform/ports';
import { documentClient } from '../store/client';
import { Store } from '../store/store';
import { JOBS_QUEUE, type App } from './assemble';

/** Environment variable that carries a capability queue's URL to every function. */
export const queueUrlVariable = (queue: string) => `QUEUE_URL_${queue.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

/** The dependencies of a Lambda function: DynamoDB, the AWS ports, and the ports capabilities provide. */
export function awsDeps(app: App, config: Config, env: NodeJS.ProcessEnv = process.env): Deps {
  const store = new Store(documentClient({ region: config.AWS_REGION, endpoint: config.DYNAMODB_ENDPOINT }), config.TABLE_NAME);
  const queueUrls = Object.fromEntries([[JOBS_QUEUE, config.JOBS_QUEUE_URL], ...app.queues.map((queue) => [queue.name, env[queueUrlVariable(queue.name)]])]);
  const deps: Deps = { store, clock: systemClock, config, ports: undefined as unknown as Ports };
  deps.ports = { ...awsPorts(config, queueUrls), ...Object.fromEntries(Object.entries(app.ports).map(([name, factory]) => [name, factory.aws(deps)])) } as Ports;
  return deps;
}
