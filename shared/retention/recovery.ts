import { lookupOffer } from '../catalog/service';
import type { Deps, OperationContext } from '../platform/context';
import { newEvent, outboxPut, type DomainEvent } from '../platform/events';
import { objectId } from '../platform/ids';
import { logger } from '../platform/logger';
import { toCents, toMajor } from '../platform/money';
import { ProcessorError } from '../processor/port';
import { isConditionFailed } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { TransactOp } from '../store/store';
import { applyTrigger, lookupSubscriber } from '../subscriptions/service';
import type { CaseStatus, FinalAction, RecoveryCase, RecoverySettings } from './records';
import * as repo from './repository';
import { RECOVERY_RETRY_DAYS, recoverySchedule, recoverySummary } from './rules';

export const JOB_FINAL_ACTION = 'retention.recovery_final_action';
const CONSUMER = 'retention-recovery';
const finalTimer = (caseId: string) => `retention-final-${caseId}`;

export const DEFAULT_RECOVERY: RecoverySettings = { enabled: false, finalAction: 'cancel', emailBuyer: true, updatedAt: null };

export const readRecoverySettings = async (deps: Pick<Deps, 'store'>, scope: Scope): Promise<RecoverySettings> =>
  (await repo.getRecoverySettings(deps.store, scope)) ?? DEFAULT_RECOVERY;

const presentSettings = (s: RecoverySettings) => ({
  enabled: s.enabled,
  finalAction: s.finalAction,
  emailBuyer: s.emailBuyer,
  retryDays: [...RECOVERY_RETRY_DAYS],
  updatedAt: s.updatedAt,
});

export async function getRecoverySettingsView(ctx: OperationContext) {
  return presentSettings(await readRecoverySettings(ctx, ctx.scope));
}

/**
 * Saves the settings and tells the processor the retry schedule: days 1, 3 and 6 with the
 * membership left past due after the last (the final action is ours), or its own schedule when off.
 * The processor is told first, so a refusal changes nothing here.
 */
export async function updateRecoverySettings(ctx: OperationContext, change: Partial<Pick<RecoverySettings, 'enabled' | 'finalAction' | 'emailBuyer'>>) {
  const current = await readRecoverySettings(ctx, ctx.scope);
  const next: RecoverySettings = { ...current, ...change, updatedAt: ctx.clock.now().toISOString() };
  await ctx.ports.processor.setRecoveryPolicy?.(ctx.scope, next.enabled ? { retryDays: [...RECOVERY_RETRY_DAYS] } : null);
  await ctx.store.transact([repo.recoverySettingsPut(ctx.scope, next)]);
  return presentSettings(next);
}

const presentCase = (c: RecoveryCase) => ({
  id: c._id,
  subscriptionCustomerId: c.subscriberId,
  subscriptionId: c.offerId,
  subscriptionName: c.offerName,
  buyerEmail: c.buyerEmail,
  amount: toMajor(c.amountCents),
  currency: c.currency,
  status: c.status,
  attempts: c.attempts,
  startedAt: c.startedAt,
  lastFailedAt: c.lastFailedAt,
  nextRetryAt: c.nextRetryAt,
  finalActionAt: c.finalActionAt,
  finalAction: c.finalAction,
  recoveredAt: c.recoveredAt,
  closedAt: c.closedAt,
  outcome: c.outcome,
});

/** The time-ordered id floor of an instant: ids made at or after it sort at or above it. */
export const idFloor = (ms: number) =>
  Math.floor(ms / 1000)
    .toString(16)
    .padStart(8, '0') + '0'.repeat(16);

export async function getRecoverySummary(ctx: OperationContext, days: number) {
  const since = ctx.clock.nowMs() - days * 86_400_000;
  const cases = await repo.casesSince(ctx.store, ctx.scope, idFloor(since));
  return recoverySummary(cases, days, ctx.account.plan);
}

export async function listAtRisk(ctx: OperationContext, query: { status: CaseStatus; limit: number; after?: string }) {
  const page = await repo.casesByStatus(ctx.store, ctx.scope, query.status, query.limit, query.after);
  return { data: page.items.map(presentCase), nextCursor: page.cursor ?? null };
}

// ---- the lifecycle, from committed invoice events ----

interface InvoiceEventData {
  subscriptionCustomerId?: string | null;
  billingReason?: string;
  invoice?: { amount?: number; currency?: string; attempt?: number; nextRetryAt?: string | null };
  customer?: { email?: string };
}

const caseEventData = (c: RecoveryCase, extra: Record<string, unknown>) => ({
  subscriptionCustomerId: c.subscriberId,
  subscription: { id: c.offerId, name: c.offerName },
  customer: { email: c.buyerEmail },
  recovery: {
    id: c._id,
    attempts: c.attempts,
    amount: toMajor(c.amountCents),
    currency: c.currency,
    startedAt: c.startedAt,
    finalAction: c.finalAction,
    finalActionAt: c.finalActionAt,
    ...extra,
  },
});

/** Commits the case change with its event and the consumer's marker; a redelivery is a no-op. */
async function commit(deps: Deps, scope: Scope, eventId: string, ops: TransactOp[]): Promise<boolean> {
  try {
    await deps.store.transact([...ops, repo.eventMarkerPut(scope, CONSUMER, eventId, Math.floor(deps.clock.nowMs() / 1000))]);
    return true;
  } catch (error) {
    if (isConditionFailed(error) && (await repo.hasEventMarker(deps.store, scope, CONSUMER, eventId))) return false;
    throw error;
  }
}

/**
 * A failed renewal: opens the subscriber's recovery case when recovery is on (and none is open),
 * or counts one more failed attempt on the open one; each fires `subscription.payment_failed`.
 */
export async function onRenewalFailed(deps: Deps, event: DomainEvent): Promise<void> {
  const scope: Scope = { accountId: event.accountId, mode: event.mode };
  const data = event.data as InvoiceEventData;
  const subscriberId = data.subscriptionCustomerId;
  if (!subscriberId || data.billingReason !== 'renewal') return;
  if (await repo.hasEventMarker(deps.store, scope, CONSUMER, event.id)) return;
  const now = deps.clock.now();
  const openId = await repo.getOpenCaseId(deps.store, scope, subscriberId);
  const open = openId ? await repo.getCase(deps.store, scope, openId) : undefined;
  const nextRetryAt = data.invoice?.nextRetryAt ?? null;
  if (open && open.status === 'open') {
    const after: RecoveryCase = { ...open, attempts: open.attempts + 1, lastFailedAt: now.toISOString(), nextRetryAt };
    const evt = newEvent(scope, deps.clock, 'subscription.payment_failed', caseEventData(after, { attempt: after.attempts, nextRetryAt }));
    await commit(deps, scope, event.id, [...repo.caseUpdateWrites(scope, open, after), outboxPut(evt)]);
    return;
  }
  const settings = await readRecoverySettings(deps, scope);
  if (!settings.enabled) return;
  const sub = await lookupSubscriber(deps, scope, subscriberId);
  if (!sub) return;
  const offer = await lookupOffer(deps, scope, sub.subscriptionId);
  const schedule = recoverySchedule(now);
  const c: RecoveryCase = {
    _id: objectId(deps.clock),
    subscriberId,
    offerId: sub.subscriptionId,
    offerName: offer?.name ?? '',
    buyerEmail: sub.buyerEmail,
    currency: (data.invoice?.currency ?? offer?.currency ?? 'USD').toUpperCase(),
    amountCents: toCents(Number(data.invoice?.amount ?? 0)),
    status: 'open',
    attempts: 1,
    startedAt: now.toISOString(),
    lastFailedAt: now.toISOString(),
    nextRetryAt,
    finalActionAt: schedule.finalActionAt.toISOString(),
    finalAction: settings.finalAction,
    recoveredAt: null,
    closedAt: null,
    outcome: null,
  };
  const evt = newEvent(
    scope,
    deps.clock,
    'subscription.payment_failed',
    caseEventData(c, { attempt: 1, nextRetryAt, emailBuyer: settings.emailBuyer, portalUrl: sub.portalUrl }),
  );
  if (!(await commit(deps, scope, event.id, [...repo.caseOpenWrites(scope, c), outboxPut(evt)]))) return;
  await deps.ports.scheduler.schedule(finalTimer(c._id), schedule.finalActionAt, { type: JOB_FINAL_ACTION, scope, payload: { caseId: c._id } });
}

/** A paid renewal of a subscriber with an open case: recovered, `subscription.recovered`. */
export async function onRenewalPaid(deps: Deps, event: DomainEvent): Promise<void> {
  const scope: Scope = { accountId: event.accountId, mode: event.mode };
  const subscriberId = (event.data as InvoiceEventData).subscriptionCustomerId;
  if (!subscriberId) return;
  const openId = await repo.getOpenCaseId(deps.store, scope, subscriberId);
  const open = openId ? await repo.getCase(deps.store, scope, openId) : undefined;
  if (!open || open.status !== 'open') return;
  const now = deps.clock.now().toISOString();
  const after: RecoveryCase = { ...open, status: 'recovered', recoveredAt: now, nextRetryAt: null };
  const evt = newEvent(scope, deps.clock, 'subscription.recovered', caseEventData(after, { recoveredAt: now }));
  if (await commit(deps, scope, event.id, [...repo.caseUpdateWrites(scope, open, after), outboxPut(evt)])) {
    await deps.ports.scheduler.cancel(finalTimer(open._id));
  }
}

/**
 * Day 7: a case still open gets the final action. `cancel` ends the subscription now; `pause`
 * voids the unpaid renewal and pauses it (access kept); `keep` leaves it past due. The processor
 * acts first, then the subscriber (its own events), then the case closes; a retry after a crash
 * in between finds the subscriber moved already and only closes the case.
 */
export async function runFinalAction(deps: Deps, scope: Scope, caseId: string): Promise<void> {
  const c = await repo.getCase(deps.store, scope, caseId);
  if (!c || c.status !== 'open') return;
  const sub = await lookupSubscriber(deps, scope, c.subscriberId);
  const action: FinalAction = (await readRecoverySettings(deps, scope)).finalAction ?? c.finalAction;
  let outcome: RecoveryCase['outcome'] = 'kept';
  if (sub && sub.status === 'past_due' && sub.membershipId) {
    try {
      if (action === 'cancel') {
        await deps.ports.processor.cancelMembership(scope, sub.membershipId, { atPeriodEnd: false });
        await applyTrigger(deps, scope, sub, { type: 'canceled' }, { openInvoiceId: null });
        outcome = 'canceled';
      } else if (action === 'pause') {
        await deps.ports.processor.adjustMembership!(scope, sub.membershipId, { voidAndPause: true });
        await applyTrigger(deps, scope, sub, { type: 'paused' }, { openInvoiceId: null, failureMessage: null });
        outcome = 'paused';
      }
    } catch (error) {
      if (error instanceof ProcessorError && error.code === 'invalid') logger.warn('recovery final action refused by the processor', { caseId, error });
      else throw error;
    }
  } else if (sub && (sub.status === 'active' || sub.status === 'trialing')) {
    // Paid before its event reached us: the renewal was recovered.
    const done: RecoveryCase = { ...c, status: 'recovered', recoveredAt: deps.clock.now().toISOString(), nextRetryAt: null };
    await deps.store.transact(repo.caseUpdateWrites(scope, c, done)).catch((error) => {
      if (!isConditionFailed(error)) throw error;
    });
    return;
  } else if (sub?.status === 'canceled') outcome = 'canceled';
  else if (sub?.status === 'paused') outcome = 'paused';
  const after: RecoveryCase = { ...c, status: 'closed', closedAt: deps.clock.now().toISOString(), nextRetryAt: null, finalAction: action, outcome };
  await deps.store.transact(repo.caseUpdateWrites(scope, c, after)).catch((error) => {
    if (!isConditionFailed(error)) throw error;
  });
}
