import { join } from 'node:path';
import { blobDir, LocalBlob } from '../adapters/local/blob';
import { LocalBus } from '../adapters/local/bus';
import { LocalEmail } from '../adapters/local/email';
import { LocalEncryption } from '../adapters/local/encryption';
import { LocalQueue, type LocalQueueHandler } from '../adapters/local/queue';
import { LocalScheduler } from '../adapters/local/scheduler';
import { LocalSecrets, SECRETS_FILE } from '../adapters/local/secrets';
import { WorkTracker } from '../adapters/local/work-tracker';
import type { LocalHost } from '../platform/capability';
import type { Clock } from '../platform/clock';
import type { Config } from '../platform/config';
import type { Deps } from '../platform/context';
import type { CorePorts, Job, Ports } from '../platform/ports';
import { PLATFORM_SENDER } from '../platform/settings';
import { Store } from '../store/store';
import { JOBS_QUEUE, type App } from './assemble';
import { runJob } from './jobs';
import { inProcessRender } from './render';
import { nextOccurrence, recurringTimerName } from './schedules';

export interface LocalAdapters {
  deps: Deps;
  bus: LocalBus;
  queue: LocalQueue;
  scheduler: LocalScheduler;
  email: LocalEmail;
  work: WorkTracker;
  /** Arms the timer of each recurring schedule that has none yet. */
  armRecurringSchedules(): Promise<void>;
  /** Runs the queue messages and bus deliveries a previous run of the data folder left pending. */
  resume(): Promise<{ messages: number; deliveries: number }>;
}

/** Every port's local implementation, wired to the consumers, queues and jobs of the app. */
export function localAdapters(
  app: App,
  options: {
    store: Store;
    clock: Clock;
    config: Config;
    dataDir?: string;
    baseUrl: () => string;
    /** The environment secrets' overrides are read from (shared/adapters/local/secrets.ts); none by default. */
    environment?: Record<string, string | undefined>;
  },
): LocalAdapters {
  const work = new WorkTracker();
  const deps: Deps = { store: options.store, clock: options.clock, config: options.config, ports: undefined as unknown as Ports };
  // The timer items stand in for EventBridge Scheduler, which costs the table nothing in AWS: they go
  // through a store of their own, so the capacity the runtime reports (`/_local/capacity`, the
  // bench's per-step figures) is the application's alone. Same client and table.
  const scheduler = new LocalScheduler(new Store(options.store.client, options.store.tableName), options.clock);
  const armNext = async (name: string, after: Date) => {
    const schedule = app.schedules.find((s) => s.name === name);
    if (schedule) await scheduler.schedule(recurringTimerName(schedule), nextOccurrence(schedule.every, after), { ...schedule.job, recurring: schedule.name });
  };
  const runLocalJob = async (job: Job) => {
    // The next occurrence is armed first, so a failing run does not end the schedule.
    if (job.recurring) await armNext(job.recurring, options.clock.now());
    await runJob(app, job, deps);
  };
  const queueHandlers: Record<string, LocalQueueHandler> = {
    [JOBS_QUEUE]: (message) => runLocalJob(message as unknown as Job),
    ...Object.fromEntries(app.queues.map((queue) => [queue.name, (message: Record<string, unknown>) => queue.handle(message, deps)])),
  };
  const bus = new LocalBus(
    () => app.consumers,
    () => deps,
    work,
    options.dataDir,
  );
  const queue = new LocalQueue(() => queueHandlers, work, options.dataDir);
  const email = new LocalEmail(
    options.clock,
    options.config.EMAIL_FROM ?? PLATFORM_SENDER.localValue,
    options.dataDir ? join(options.dataDir, 'emails.jsonl') : undefined,
  );
  const core: CorePorts = {
    secrets: new LocalSecrets(options.environment ?? {}, options.dataDir ? join(options.dataDir, SECRETS_FILE) : undefined),
    bus,
    queue,
    scheduler,
    blob: new LocalBlob(options.dataDir ? blobDir(options.dataDir) : undefined, { baseUrl: options.baseUrl, clock: options.clock }),
    email,
    encryption: new LocalEncryption(options.dataDir ? join(options.dataDir, 'master.key') : undefined),
    render: inProcessRender,
  };
  const host: LocalHost = { baseUrl: options.baseUrl, work, dataDir: options.dataDir };
  deps.ports = { ...core } as Ports;
  for (const [name, factory] of Object.entries(app.ports)) (deps.ports as unknown as Record<string, unknown>)[name] = factory.local(deps, host);
  const armRecurringSchedules = async () => {
    for (const schedule of app.schedules) {
      if (!(await scheduler.has(recurringTimerName(schedule)))) await armNext(schedule.name, options.clock.now());
    }
  };
  const resume = async () => ({ messages: await queue.resume(), deliveries: await bus.resume() });
  return { deps, bus, queue, scheduler, email, work, armRecurringSchedules, resume };
}
