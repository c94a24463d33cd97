import { join } from 'node:path';
import type { Clock } from '../../platform/clock';
import type { Config } from '../../platform/config';
import type { Deps } from '../../platform/context';
import type { Store } from '../../store/store';
import { runJob, BUS_CONSUMERS, QUEUE_HANDLERS } from '../../workers/registry';
import { PORT_EXTENSIONS, type LocalHost } from '../extensions';
import type { CorePorts, Ports } from '../../platform/ports';
import { blobDir, LocalBlob } from './blob';
import { LocalBus } from './bus';
import { LocalEmail } from './email';
import { LocalEncryption } from './encryption';
import { LocalQueue } from './queue';
import { LocalScheduler } from './scheduler';
import { WorkTracker } from './work-tracker';

export interface LocalAdapters {
  deps: Deps;
  bus: LocalBus;
  queue: LocalQueue;
  scheduler: LocalScheduler;
  email: LocalEmail;
  work: WorkTracker;
}

/** Every port's local implementation, wired to the same consumers the AWS stacks route to. */
export function localAdapters(options: { store: Store; clock: Clock; config: Config; dataDir?: string; baseUrl: () => string }): LocalAdapters {
  const work = new WorkTracker();
  const deps: Deps = { store: options.store, clock: options.clock, config: options.config, ports: undefined as unknown as Ports };
  const bus = new LocalBus(() => BUS_CONSUMERS, () => deps, work);
  const queue = new LocalQueue(
    () => ({
      jobs: (message) => runJob(message as never, deps),
      webhooks: QUEUE_HANDLERS.webhooks ? (message) => QUEUE_HANDLERS.webhooks!(message, deps) : undefined,
    }),
    work,
  );
  const scheduler = new LocalScheduler(options.store, options.clock);
  const email = new LocalEmail(options.clock, options.config.EMAIL_FROM, options.dataDir ? join(options.dataDir, 'emails.jsonl') : undefined);
  const core: CorePorts = {
    bus,
    queue,
    scheduler,
    blob: new LocalBlob(options.dataDir ? blobDir(options.dataDir) : undefined),
    email,
    encryption: new LocalEncryption(options.dataDir ? join(options.dataDir, 'master.key') : undefined),
  };
  const host: LocalHost = { baseUrl: options.baseUrl, work, dataDir: options.dataDir };
  deps.ports = { ...core } as Ports;
  for (const [name, extension] of Object.entries(PORT_EXTENSIONS)) (deps.ports as unknown as Record<string, unknown>)[name] = extension.local(deps, host);
  return { deps, bus, queue, scheduler, email, work };
}
