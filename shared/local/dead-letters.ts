import * as z from '../platform/zod';
import { badRequest } from '../platform/errors';
import { parseOrThrow } from '../platform/http/validation';
import type { ControlRoute, LocalRuntimeHandle } from '../platform/capability';
import type { LocalAdapters } from '../composition/local-deps';

/** What these routes reach of the runtime (control.ts's internals, named here so neither imports the other). */
type LocalRuntimeInternals = LocalRuntimeHandle & { adapters: Pick<LocalAdapters, 'queue' | 'bus'> };

/**
 * The local runtime's dead letters under the names `npm run admin -- redrive` uses for a deployed
 * stack's `DeadLetterQueues`: a queue's own name (`webhooks`, `jobs`, ...) for the local queue's
 * dead-letter list, `consumer:<name>` for a bus consumer's refused deliveries. (The local stream
 * reader retries a failed pass until it succeeds, so it has no failure queue to redrive.)
 */
export interface LocalDeadLetterView {
  queue: string;
  kind: 'sqs' | 'rule';
  id: string;
  error: string;
  eventId?: string;
  type?: string;
  message?: Record<string, unknown>;
}

const CONSUMER_PREFIX = 'consumer:';

export function listLocalDeadLetters(adapters: Pick<LocalAdapters, 'queue' | 'bus'>, queue?: string): LocalDeadLetterView[] {
  const fromQueue: LocalDeadLetterView[] = adapters.queue.deadLetters.map((d) => ({
    queue: d.queue,
    kind: 'sqs',
    id: d.id,
    error: d.error,
    message: d.message,
  }));
  const fromBus: LocalDeadLetterView[] = adapters.bus.deadLetters.map((d) => ({
    queue: `${CONSUMER_PREFIX}${d.consumer}`,
    kind: 'rule',
    id: d.id,
    error: d.error,
    eventId: d.event.id,
    type: d.event.type,
  }));
  return [...fromQueue, ...fromBus].filter((d) => !queue || d.queue === queue);
}

/** Redrives one named queue, or every dead letter when no name is given; answers what moved. */
export async function redriveLocalDeadLetters(
  adapters: Pick<LocalAdapters, 'queue' | 'bus'>,
  options: { queue?: string; dryRun?: boolean },
): Promise<LocalDeadLetterView[]> {
  const { queue, dryRun } = options;
  if (dryRun) return listLocalDeadLetters(adapters, queue);
  const moved: LocalDeadLetterView[] = [];
  if (!queue || !queue.startsWith(CONSUMER_PREFIX)) {
    const done = await adapters.queue.redrive({ queue });
    moved.push(...done.map((d): LocalDeadLetterView => ({ queue: d.queue, kind: 'sqs', id: d.id, error: d.error, message: d.message })));
  }
  if (!queue || queue.startsWith(CONSUMER_PREFIX)) {
    const done = await adapters.bus.redrive({ consumer: queue?.slice(CONSUMER_PREFIX.length) });
    moved.push(
      ...done.map(
        (d): LocalDeadLetterView => ({
          queue: `${CONSUMER_PREFIX}${d.consumer}`,
          kind: 'rule',
          id: d.id,
          error: d.error,
          eventId: d.event.id,
          type: d.event.type,
        }),
      ),
    );
  }
  return moved;
}

const redriveBody = z.strictObject({ queue: z.optional(z.string().check(z.minLength(1), z.maxLength(200))), dryRun: z.optional(z.boolean()) });

export const DEAD_LETTER_ROUTES: ControlRoute<LocalRuntimeInternals>[] = [
  {
    // Local only: the local counterpart of the deployed dead-letter queues.
    method: 'GET',
    path: '/_local/dead-letters',
    async handle(runtime, { query }) {
      return { status: 200, body: { deadLetters: listLocalDeadLetters(runtime.adapters, query.queue || undefined) } };
    },
  },
  {
    method: 'POST',
    path: '/_local/dead-letters/redrive',
    async handle(runtime, { body }) {
      const input = parseOrThrow(redriveBody, body, 'body')!;
      if (input.queue && !knownQueue(runtime, input.queue))
        throw badRequest(`Unknown dead-letter queue ${input.queue}; known: ${knownQueues(runtime).join(', ')}`);
      const deadLetters = await redriveLocalDeadLetters(runtime.adapters, input);
      return { status: 200, body: { dryRun: input.dryRun ?? false, redriven: input.dryRun ? 0 : deadLetters.length, deadLetters } };
    },
  },
];

function knownQueues(runtime: LocalRuntimeInternals): string[] {
  return [...runtime.adapters.queue.names(), ...runtime.adapters.bus.consumerNames().map((name) => `${CONSUMER_PREFIX}${name}`)];
}
const knownQueue = (runtime: LocalRuntimeInternals, name: string) => knownQueues(runtime).includes(name);
