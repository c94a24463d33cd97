import * as z from '../platform/zod';
import { createAccount, createApiKey, getAccount, updateAccount } from '../platform/accounts';
import { clearAuthCache } from '../platform/auth';
import { badRequest, notFound, notImplemented } from '../platform/errors';
import { planSchema } from '../platform/plans';
import { parseOrThrow } from '../platform/http/validation';
import type { DomainEvent } from '../platform/events';
import { allEvents } from '../events/repository';
import { provisionLocalSender } from '../email/settings';
import type { App } from '../composition/assemble';
import type { LocalAdapters } from '../composition/local-deps';
import type { ControlRoute, LocalRuntimeHandle } from '../platform/capability';
import type { OffsetClock } from '../platform/clock';
import { DEAD_LETTER_ROUTES } from './dead-letters';
import { LocalBlob } from '../adapters/local/blob';
import { PART_ROUTE } from '../adapters/local/blob-multipart';

/** What the runtime's own control routes reach; capabilities' routes see only LocalRuntimeHandle. */
export interface LocalRuntimeInternals extends LocalRuntimeHandle {
  adapters: LocalAdapters;
  clock: OffsetClock;
  /** Events carried by entity inserts the stream dispatched (they are not in the outbox partition). */
  carriedEvents: Map<string, DomainEvent>;
}

const accountBody = z.object({ email: z.optional(z.string().check(z.email())), plan: z.optional(planSchema), name: z.optional(z.string()) });
const patchBody = z.object({ plan: z.optional(planSchema), senderVerified: z.optional(z.boolean()) });
const advanceBody = z.object({ seconds: z.number().check(z.nonnegative(), z.maximum(10 * 365 * 24 * 3600)) });

/** Control routes (docs/architecture.md) that later capabilities take over; until then they say so. */
const PENDING: [ControlRoute['method'], string, string][] = [
  ['POST', '/_local/checkout/{sessionId}/pay', 'checkout'],
  ['POST', '/_local/subscribers/{subscriberId}/renew', 'subscriptions'],
  ['POST', '/_local/sales/{saleId}/refund', 'sales'],
  ['POST', '/_local/sales/{saleId}/dispute', 'sales'],
  ['POST', '/_local/processor/refuse-next', 'the processor'],
  ['GET', '/_local/sheets', 'spreadsheet sync'],
  ['POST', '/_local/sheets/fail-next', 'spreadsheet sync'],
];

export const CORE_CONTROL_ROUTES: ControlRoute<LocalRuntimeInternals>[] = [
  {
    // The local blob's presigned part URL (S3's UploadPart): a browser or client PUTs a part's bytes.
    method: 'PUT',
    path: PART_ROUTE,
    rawBody: true,
    async handle(runtime, { params, query, raw }) {
      const blob = runtime.deps.ports.blob;
      if (!(blob instanceof LocalBlob)) throw notImplemented('Local part uploads need the local blob store');
      const etag = await blob.multipart.receivePart(params.uploadId!, params.partNumber!, query, raw ?? Buffer.alloc(0));
      return {
        status: 200,
        body: '',
        headers: { 'content-type': 'text/plain', etag, 'access-control-allow-origin': '*', 'access-control-expose-headers': 'etag' },
      };
    },
  },
  {
    // A page on another origin (a dashboard dev server) asks first, as the bucket's CORS rule answers in AWS.
    method: 'OPTIONS',
    path: PART_ROUTE,
    async handle() {
      return {
        status: 204,
        body: '',
        headers: {
          'content-type': 'text/plain',
          'access-control-allow-origin': '*',
          'access-control-allow-methods': 'PUT',
          'access-control-allow-headers': '*',
          'access-control-expose-headers': 'etag',
          'access-control-max-age': '3000',
        },
      };
    },
  },
  {
    method: 'POST',
    path: '/_local/accounts',
    async handle(runtime, { body }) {
      const input = parseOrThrow(accountBody, body, 'body')!;
      const { store, clock } = runtime.deps;
      const account = await createAccount(store, clock, { email: input.email ?? `creator+${clock.nowMs()}@example.com`, plan: input.plan, name: input.name });
      await provisionLocalSender(runtime.deps, account.accountId);
      const live = await createApiKey(store, clock, account.accountId, 'live');
      const test = await createApiKey(store, clock, account.accountId, 'test');
      return { status: 201, body: { accountId: account.accountId, liveKey: live.key, testKey: test.key } };
    },
  },
  {
    method: 'PATCH',
    path: '/_local/accounts/{accountId}',
    async handle(runtime, { params, body }) {
      const input = parseOrThrow(patchBody, body, 'body')!;
      if (!(await getAccount(runtime.deps.store, params.accountId!))) throw notFound('Account');
      const account = await updateAccount(runtime.deps.store, params.accountId!, { plan: input.plan, senderVerified: input.senderVerified });
      clearAuthCache();
      return { status: 200, body: { accountId: account.accountId, plan: account.plan, senderVerified: account.senderVerified !== false } };
    },
  },
  {
    method: 'POST',
    path: '/_local/clock/advance',
    async handle(runtime, { body }) {
      const input = parseOrThrow(advanceBody, body, 'body')!;
      const now = await runtime.advance(input.seconds);
      return { status: 200, body: { now: now.toISOString() } };
    },
  },
  {
    method: 'GET',
    path: '/_local/emails',
    async handle(runtime, { query }) {
      const emails = await runtime.adapters.email.list(query.to);
      return {
        status: 200,
        body: {
          emails: emails.map(({ to, from, fromName, replyTo, subject, html, text, headers, sentAt }) => ({
            to,
            from,
            fromName,
            replyTo,
            subject,
            html,
            text,
            headers,
            sentAt,
          })),
        },
      };
    },
  },
  {
    method: 'POST',
    path: '/_local/settle',
    async handle(runtime) {
      await runtime.settle();
      return { status: 200, body: {} };
    },
  },
  {
    // Local only: DynamoDB capacity units consumed so far by everything this runtime
    // did (requests, stream consumers, queues, jobs; not the local scheduler's own timer items,
    // which EventBridge Scheduler holds in AWS), for per-step cost figures in the bench.
    method: 'GET',
    path: '/_local/capacity',
    async handle(runtime) {
      return { status: 200, body: { ...runtime.deps.store.totals } };
    },
  },
  {
    // Local only: lets black-box tests read the outbox, oldest first.
    method: 'GET',
    path: '/_local/events',
    async handle(runtime, { query }) {
      if (!query.accountId || (query.mode !== 'live' && query.mode !== 'test')) throw badRequest('accountId and mode (live or test) are required');
      const stored = await allEvents(runtime.deps.store, { accountId: query.accountId, mode: query.mode });
      const scoped = [...runtime.carriedEvents.values()].filter((e) => e.accountId === query.accountId && e.mode === query.mode);
      const events = [...stored, ...scoped]
        .filter((e): e is DomainEvent => !!e && (!query.type || e.type === query.type))
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      return { status: 200, body: { events } };
    },
  },
];

/** The runtime's own routes, then each capability's; a capability's route replaces a pending one. */
export function controlRoutes(app: App): ControlRoute<LocalRuntimeInternals>[] {
  const routes: ControlRoute<LocalRuntimeInternals>[] = [...CORE_CONTROL_ROUTES, ...DEAD_LETTER_ROUTES, ...app.controlRoutes];
  for (const [method, path, capability] of PENDING) {
    if (!routes.some((r) => r.method === method && r.path === path)) {
      routes.push({
        method,
        path,
        handle: async () => {
          throw notImplemented(`${path} arrives with ${capability}`);
        },
      });
    }
  }
  return routes;
}
