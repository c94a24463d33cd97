import { getAccount } from '../platform/accounts';
import type { Deps, OperationContext } from '../platform/context';
import { badRequest, conflict, tooManyRequests } from '../platform/errors';
import type { DomainEvent } from '../platform/events';
import { randomBase62 } from '../platform/ids';
import { planAtLeast } from '../platform/plans';
import type { Scope } from '../store/keys';
import { syncNowWaitSeconds } from './backoff';
import { armBatch } from './timer';
import { BACKFILL_JOB, BATCH_JOB, REQUEUE_JOB, backfillTimer, batchTimer, requeueTimer } from './jobs-names';
import { TABS, customersRow, factsFromOrderEvent, fullName, rowStatus, salesRow, STATUS_INDEX } from './layout';
import type { ProviderSession, ProviderTokens } from './port';
import type { ConnectionRecord, PauseReason } from './records';
import {
  getConnection,
  getCreatedSheet,
  getQueuedRow,
  putConnection,
  putConsentState,
  queueRow,
  queueStatus,
  recordCreatedSheet,
  rewriteQueuedRow,
  rowSk,
  takeConsentState,
  updateConnection,
} from './repository';

export const REQUIRED_PLAN = 'tier3' as const;
const CONSENT_TTL_SECONDS = 15 * 60;
const DAY_MS = 86_400_000;

// ---- tokens: encrypted at rest with the encryption port, bound to their tenant ----

const tokenContext = (scope: Scope) => ({ accountId: scope.accountId, mode: scope.mode, purpose: 'sheets-sync' });

export const sealTokens = (deps: Deps, scope: Scope, tokens: ProviderTokens) => deps.ports.encryption.encrypt(JSON.stringify(tokens), tokenContext(scope));

export async function openSession(deps: Deps, scope: Scope, connection: ConnectionRecord): Promise<ProviderSession> {
  if (!connection.tokens) throw conflict('Spreadsheet sync is not connected', 'NOT_CONNECTED');
  return { tokens: JSON.parse(await deps.ports.encryption.decrypt(connection.tokens, tokenContext(scope))) as ProviderTokens };
}

/** Stores tokens an adapter refreshed during a call. */
export async function keepRefreshedTokens(deps: Deps, scope: Scope, before: ProviderTokens, session: ProviderSession): Promise<void> {
  if (session.tokens === before) return;
  await updateConnection(deps.store, scope, { set: { tokens: await sealTokens(deps, scope, session.tokens) } });
}

// ---- the view (tokens never leave the service) ----

export async function connectionView(deps: Deps, scope: Scope, plan: string, connection?: ConnectionRecord) {
  const allowed = planAtLeast(plan as never, REQUIRED_PLAN);
  const connected = connection?.status === 'connected';
  const pausedReason: PauseReason | 'plan' | null = !connected ? null : (connection!.pausedReason ?? (allowed ? null : 'plan'));
  const status: 'not_connected' | 'disconnected' | 'paused' | 'active' = !connection
    ? 'not_connected'
    : !connected
      ? 'disconnected'
      : pausedReason
        ? 'paused'
        : 'active';
  return {
    connected,
    status,
    pausedReason,
    permission: deps.ports.spreadsheet.permission,
    spreadsheet: connection?.spreadsheetId
      ? { id: connection.spreadsheetId, title: connection.spreadsheetTitle ?? '', url: connection.spreadsheetUrl ?? '' }
      : null,
    settings: { tabs: connection?.tabs ?? { sales: true, customers: true } },
    counts: { synced: connection?.syncedCount ?? 0, pending: connection?.pendingCount ?? 0, failed: connection?.failedCount ?? 0 },
    attempts: connection?.attempts ?? 0,
    nextAttemptAt: connection?.nextAttemptAt ?? null,
    lastSyncedAt: connection?.lastSyncedAt ?? null,
    lastError: connection?.lastError ?? null,
    entitlement: { allowed, requiredPlan: REQUIRED_PLAN },
  };
}

export async function readSync(ctx: OperationContext) {
  return connectionView(ctx, ctx.scope, ctx.account.plan, await getConnection(ctx.store, ctx.scope));
}

// ---- consent ----

const redirectUri = (deps: Deps, baseUrl: string) => `${deps.config.PUBLIC_BASE_URL ?? baseUrl}/sheets-sync/callback`;

export async function startConnect(ctx: OperationContext) {
  const state = randomBase62(32);
  await putConsentState(ctx.store, state, ctx.scope, Math.floor(ctx.clock.nowMs() / 1000) + CONSENT_TTL_SECONDS);
  return { url: ctx.ports.spreadsheet.consentUrl({ state, redirectUri: redirectUri(ctx, ctx.request.baseUrl) }) };
}

async function createSheet(deps: Deps, scope: Scope, session: ProviderSession, title: string) {
  const created = await deps.ports.spreadsheet.createSpreadsheet(session, { title, tabs: TABS });
  await recordCreatedSheet(deps.store, scope, { ...created, createdAt: deps.clock.now().toISOString() });
  return created;
}

async function defaultTitle(deps: Deps, scope: Scope) {
  const account = await getAccount(deps.store, scope.accountId);
  return `${account?.name ?? 'Store'} sales`;
}

/**
 * The provider's redirect after consent: the state is taken once, the code exchanged, the tokens
 * stored encrypted, and a spreadsheet created when the connection has none (or its was deleted).
 */
export async function completeConsent(
  deps: Deps,
  input: { code?: string; state?: string; error?: string },
  baseUrl: string,
): Promise<{ ok: boolean; message: string }> {
  if (!input.state) return { ok: false, message: 'The consent link is incomplete.' };
  const scope = await takeConsentState(deps.store, input.state, deps.clock.nowMs());
  if (!scope) return { ok: false, message: 'This consent link has expired or was already used. Start again from your dashboard.' };
  if (input.error || !input.code) return { ok: false, message: 'Access was not granted; spreadsheet sync stays off.' };
  const port = deps.ports.spreadsheet;
  const tokens = await port.exchangeCode({ code: input.code, redirectUri: redirectUri(deps, baseUrl) });
  if (tokens.scope && !tokens.scope.split(' ').includes(port.permission))
    return { ok: false, message: 'The permission to create and edit its own spreadsheets was not granted.' };
  const session: ProviderSession = { tokens };
  const existing = await getConnection(deps.store, scope);
  const now = deps.clock.now().toISOString();
  const needsSheet = !existing?.spreadsheetId || existing.pausedReason === 'spreadsheet_deleted';
  const sheet = needsSheet ? await createSheet(deps, scope, session, await defaultTitle(deps, scope)) : undefined;
  const sealed = await sealTokens(deps, scope, session.tokens);
  const fields: Partial<ConnectionRecord> = {
    status: 'connected',
    tokens: sealed,
    pausedReason: null,
    attempts: 0,
    nextAttemptAt: null,
    lastError: null,
    connectedAt: now,
    updatedAt: now,
    ...(sheet ? { spreadsheetId: sheet.spreadsheetId, spreadsheetTitle: sheet.title, spreadsheetUrl: sheet.url } : {}),
  };
  const connection = existing
    ? await updateConnection(deps.store, scope, { set: fields })
    : await (async () => {
        const record = { ...fields, tabs: { sales: true, customers: true }, syncedCount: 0, pendingCount: 0, failedCount: 0 } as ConnectionRecord;
        await putConnection(deps.store, scope, record);
        return record;
      })();
  // Rows that waited while access was removed are written after reconnect.
  if (connection.pendingCount > 0) await armBatch(deps, scope, connection);
  return { ok: true, message: `Connected. New sales will appear in "${connection.spreadsheetTitle}".` };
}

async function connected(ctx: OperationContext): Promise<ConnectionRecord> {
  const connection = await getConnection(ctx.store, ctx.scope);
  if (!connection || connection.status !== 'connected' || !connection.tokens)
    throw conflict('Connect a spreadsheet account first (POST /sheets-sync/connect)', 'NOT_CONNECTED');
  return connection;
}

/** Switches to a spreadsheet this service created earlier, or creates a new one. */
export async function chooseSpreadsheet(ctx: OperationContext, input: { spreadsheetId?: string; title?: string }) {
  const connection = await connected(ctx);
  let sheet: { spreadsheetId: string; title: string; url: string };
  if (input.spreadsheetId) {
    const created = await getCreatedSheet(ctx.store, ctx.scope, input.spreadsheetId);
    if (!created)
      throw badRequest('Only a spreadsheet this service created for this account can be used', {
        field: 'spreadsheetId',
        code: 'SPREADSHEET_NOT_CREATED_BY_SERVICE',
      });
    sheet = created;
  } else {
    const session = await openSession(ctx, ctx.scope, connection);
    const before = session.tokens;
    sheet = await createSheet(ctx, ctx.scope, session, input.title ?? (await defaultTitle(ctx, ctx.scope)));
    await keepRefreshedTokens(ctx, ctx.scope, before, session);
  }
  const after = await updateConnection(ctx.store, ctx.scope, {
    set: {
      spreadsheetId: sheet.spreadsheetId,
      spreadsheetTitle: sheet.title,
      spreadsheetUrl: sheet.url,
      ...(connection.pausedReason === 'spreadsheet_deleted' ? { pausedReason: null } : {}),
      updatedAt: ctx.clock.now().toISOString(),
    },
  });
  if (after.pendingCount > 0) await armBatch(ctx, ctx.scope, after);
  return connectionView(ctx, ctx.scope, ctx.account.plan, after);
}

export async function updateSettings(ctx: OperationContext, input: { tabs?: { sales?: boolean; customers?: boolean } }) {
  const connection = await getConnection(ctx.store, ctx.scope);
  if (!connection) throw conflict('Connect a spreadsheet account first (POST /sheets-sync/connect)', 'NOT_CONNECTED');
  const tabs = { ...connection.tabs, ...Object.fromEntries(Object.entries(input.tabs ?? {}).filter(([, v]) => v !== undefined)) };
  const after = await updateConnection(ctx.store, ctx.scope, { set: { tabs, updatedAt: ctx.clock.now().toISOString() } });
  return connectionView(ctx, ctx.scope, ctx.account.plan, after);
}

export async function disconnect(ctx: OperationContext) {
  const connection = await getConnection(ctx.store, ctx.scope);
  if (!connection || connection.status !== 'connected') return { ...(await connectionView(ctx, ctx.scope, ctx.account.plan, connection)), revoked: false };
  let revoked = false;
  if (connection.tokens) {
    try {
      await ctx.ports.spreadsheet.revoke((await openSession(ctx, ctx.scope, connection)).tokens);
      revoked = true;
    } catch {
      // The stored tokens are deleted whatever the provider answered: they can no longer be used.
    }
  }
  await ctx.ports.scheduler.cancel(batchTimer(ctx.scope));
  const after = await updateConnection(ctx.store, ctx.scope, {
    set: { status: 'disconnected', nextAttemptAt: null, updatedAt: ctx.clock.now().toISOString() },
    remove: ['tokens'],
  });
  return { ...(await connectionView(ctx, ctx.scope, ctx.account.plan, after)), revoked };
}

// ---- sync now, retry, backfill ----

export async function syncNow(ctx: OperationContext) {
  const connection = await connected(ctx);
  if (connection.pausedReason)
    throw conflict(`Syncing is paused (${connection.pausedReason}); reconnect or choose a spreadsheet`, 'SYNC_PAUSED', { reason: connection.pausedReason });
  const wait = syncNowWaitSeconds(connection.lastSyncNowAt ? Date.parse(connection.lastSyncNowAt) : undefined, ctx.clock.nowMs());
  if (wait > 0) throw tooManyRequests(wait, 'Sync now is allowed once a minute', 'SYNC_RATE_LIMITED');
  await updateConnection(ctx.store, ctx.scope, { set: { lastSyncNowAt: ctx.clock.now().toISOString(), nextAttemptAt: null } });
  await ctx.ports.scheduler.schedule(batchTimer(ctx.scope), ctx.clock.now(), { type: BATCH_JOB, scope: ctx.scope, payload: {} });
  return { queued: connection.pendingCount };
}

export async function retryFailed(ctx: OperationContext) {
  const connection = await connected(ctx);
  await ctx.ports.scheduler.schedule(requeueTimer(ctx.scope), ctx.clock.now(), { type: REQUEUE_JOB, scope: ctx.scope, payload: {} });
  return { requeued: connection.failedCount };
}

/** First possible object id of a second: sales are found from `days` ago by id order alone. */
const idFloor = (ms: number) =>
  Math.floor(ms / 1000)
    .toString(16)
    .padStart(8, '0') + '0'.repeat(16);

export async function startBackfill(ctx: OperationContext, days: number) {
  await connected(ctx);
  if (days === 0) return { days, since: null };
  const since = new Date(ctx.clock.nowMs() - days * DAY_MS);
  await ctx.ports.scheduler.schedule(backfillTimer(ctx.scope), ctx.clock.now(), {
    type: BACKFILL_JOB,
    scope: ctx.scope,
    payload: { afterId: idFloor(since.getTime()) },
  });
  return { days, since: since.toISOString() };
}

// The batch timer (timer.ts), re-exported for batch.ts.
export { armBatch };

// ---- rows from committed events ----

/**
 * Bus consumer body. Idempotent on the sale: a row is queued once per order id (or email), and a
 * status change rewrites the queued row or queues a status update. Test mode never syncs.
 */
export async function onCommittedEvent(deps: Deps, event: DomainEvent): Promise<void> {
  if (event.mode !== 'live') return;
  const scope: Scope = { accountId: event.accountId, mode: event.mode };
  const connection = await getConnection(deps.store, scope);
  if (!connection || connection.status !== 'connected') return;
  const queuedAt = deps.clock.now().toISOString();
  let queued = false;
  if (event.type === 'order.completed' && connection.tabs.sales) {
    const facts = factsFromOrderEvent(event.data);
    if (facts) queued = await queueRow(deps.store, scope, { sk: rowSk('S', facts.orderId), tab: 'S', key: facts.orderId, cells: salesRow(facts), queuedAt });
  } else if (event.type === 'customer.created' && connection.tabs.customers) {
    const customer = (event.data.customer ?? {}) as Record<string, string | null>;
    const order = event.data.order as { id?: string } | undefined;
    const product = (event.data.product ?? {}) as { name?: string };
    // Customers made by hand (no order) are not buyers yet: the tab lists first purchases.
    if (order?.id && customer.email) {
      const email = customer.email.toLowerCase();
      const cells = customersRow({
        createdAt: new Date(event.created * 1000).toISOString(),
        email,
        name: fullName(customer.firstName, customer.lastName),
        country: customer.country ?? '',
        orderId: order.id,
        product: product.name ?? '',
      });
      queued = await queueRow(deps.store, scope, { sk: rowSk('C', email), tab: 'C', key: email, cells, queuedAt });
    }
  } else if ((event.type === 'order.refunded' || event.type === 'order.disputed') && connection.tabs.sales) {
    const order = (event.data.order ?? {}) as { id?: string; status?: string };
    if (!order.id) return;
    const status = rowStatus(order.status ?? '');
    if (event.type === 'order.refunded' && status === 'paid') return;
    const row = await getQueuedRow(deps.store, scope, rowSk('S', order.id));
    if (row) {
      const cells = [...row.cells];
      cells[STATUS_INDEX] = status;
      if (await rewriteQueuedRow(deps.store, scope, { ...row, cells })) return;
    }
    await queueStatus(deps.store, scope, { saleId: order.id, status });
    queued = true;
  }
  if (queued) await armBatch(deps, scope, connection);
}
