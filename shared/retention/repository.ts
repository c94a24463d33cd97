import { keys, type Scope } from '../store/keys';
import { toItem } from '../store/items';
import { toRecord, type Store, type TransactOp } from '../store/store';
import type { CaseStatus, OfferRetention, RecoveryCase, RecoverySettings, SaveFlow, SubscriberRetention } from './records';

// Layout (every key inside the tenant scope):
// - recovery settings: PK=<scope>#RETENTION, SK=recovery
// - offer settings:    PK=<scope>#RETENTION_OFFER, SK=<offerId> (one per offer: bounded list)
// - recovery case:     PK=<scope>#RCASE, SK=<caseId> (time-ordered: a window is a key range);
//                      GSI1 <scope>#RCASE#<status> / <caseId> for the at-risk list by status
// - open case of a subscriber: PK=<scope>#U#RCASE_OPEN, SK=<subscriberId> (at most one open)
// - save flow:         PK=<scope>#RSAVE, SK=<flowId> (time-ordered)
// - per subscriber:    PK=<scope>#RSUB, SK=<subscriberId> (intro, yearly switch, discount)
// - event marker:      PK=<scope>#U#RETENTION_EVENT, SK=<consumer>#<eventId> (TTL 7 days)
const settingsKey = (scope: Scope) => keys.entity(scope, 'RETENTION', 'recovery');
const offerKey = (scope: Scope, offerId: string) => keys.entity(scope, 'RETENTION_OFFER', offerId);
const caseKey = (scope: Scope, id: string) => keys.entity(scope, 'RCASE', id);
const caseIndex = (scope: Scope, c: Pick<RecoveryCase, 'status' | '_id'>) => keys.indexed('GSI1', scope, 'RCASE', c.status, c._id);
const openKey = (scope: Scope, subscriberId: string) => keys.unique(scope, 'RCASE_OPEN', subscriberId);
const flowKey = (scope: Scope, id: string) => keys.entity(scope, 'RSAVE', id);
const subKey = (scope: Scope, subscriberId: string) => keys.entity(scope, 'RSUB', subscriberId);
const markerKey = (scope: Scope, consumer: string, eventId: string) => keys.unique(scope, 'RETENTION_EVENT', `${consumer}#${eventId}`);
const MARKER_SECONDS = 7 * 86_400;

export const getRecoverySettings = async (store: Store, scope: Scope) => toRecord<RecoverySettings>(await store.get(settingsKey(scope), { consistent: true }));
export const recoverySettingsPut = (scope: Scope, s: RecoverySettings): TransactOp => ({ put: toItem(settingsKey(scope), 'RecoverySettings', s) });

export const getOfferRetention = async (store: Store, scope: Scope, offerId: string) =>
  toRecord<OfferRetention>(await store.get(offerKey(scope, offerId), { consistent: true }));
export const offerRetentionPut = (scope: Scope, r: OfferRetention): TransactOp => ({ put: toItem(offerKey(scope, r.offerId), 'OfferRetention', r) });
/** Every offer's settings of a tenant and mode (one item per subscription offer). */
export const listOfferRetention = async (store: Store, scope: Scope) =>
  (await store.queryAll({ pk: keys.collection(scope, 'RETENTION_OFFER'), ascending: true })).map((i) => toRecord<OfferRetention>(i)!);

export const getCase = async (store: Store, scope: Scope, id: string) => toRecord<RecoveryCase>(await store.get(caseKey(scope, id), { consistent: true }));
export const getOpenCaseId = async (store: Store, scope: Scope, subscriberId: string) =>
  toRecord<{ caseId: string }>(await store.get(openKey(scope, subscriberId), { consistent: true }))?.caseId;

/** A new case and its open pointer: the pointer's condition keeps one open case per subscriber. */
export const caseOpenWrites = (scope: Scope, c: RecoveryCase): TransactOp[] => [
  { put: toItem(caseKey(scope, c._id), 'RecoveryCase', c, { indexes: [caseIndex(scope, c)] }), condition: 'attribute_not_exists(PK)' },
  { put: toItem(openKey(scope, c.subscriberId), 'RecoveryOpenCase', { caseId: c._id }), condition: 'attribute_not_exists(PK)' },
];

/** The case after a change, guarded by the attempt count and status it was read with. */
export function caseUpdateWrites(scope: Scope, before: RecoveryCase, after: RecoveryCase): TransactOp[] {
  const ops: TransactOp[] = [
    {
      put: toItem(caseKey(scope, after._id), 'RecoveryCase', after, { indexes: [caseIndex(scope, after)] }),
      condition: '#status = :status AND attempts = :attempts',
      names: { '#status': 'status' },
      values: { ':status': before.status, ':attempts': before.attempts },
    },
  ];
  if (after.status !== 'open') ops.push({ delete: openKey(scope, after.subscriberId) });
  return ops;
}

/** Cases started at or after the id `fromId` (a time-ordered id floor), newest first. */
export const casesSince = async (store: Store, scope: Scope, fromId: string) =>
  (await store.queryAll({ pk: keys.collection(scope, 'RCASE'), between: [fromId, 'ffffffffffffffffffffffff'] })).map((i) => toRecord<RecoveryCase>(i)!);

/** One page of cases of one status, newest first. */
export async function casesByStatus(store: Store, scope: Scope, status: CaseStatus, limit: number, cursor?: string) {
  const { index, pk } = keys.indexPartition('GSI1', scope, 'RCASE', status);
  const page = await store.query({ index, pk, limit, cursor });
  return { items: page.items.map((i) => toRecord<RecoveryCase>(i)!), cursor: page.cursor };
}

export const flowPut = (scope: Scope, f: SaveFlow): TransactOp => ({
  put: toItem(flowKey(scope, f._id), 'SaveFlow', f),
  condition: 'attribute_not_exists(PK)',
});
export const flowsSince = async (store: Store, scope: Scope, fromId: string) =>
  (await store.queryAll({ pk: keys.collection(scope, 'RSAVE'), between: [fromId, 'ffffffffffffffffffffffff'] })).map((i) => toRecord<SaveFlow>(i)!);

export const getSubscriberRetention = async (store: Store, scope: Scope, subscriberId: string) =>
  toRecord<SubscriberRetention>(await store.get(subKey(scope, subscriberId), { consistent: true }));
export const subscriberRetentionPut = (scope: Scope, r: SubscriberRetention): TransactOp => ({
  put: toItem(subKey(scope, r.subscriberId), 'SubscriberRetention', r),
});
/** Every subscriber retention row (intro report; one per subscriber that got intro or a switch). */
export const listSubscriberRetention = async (store: Store, scope: Scope) =>
  (await store.queryAll({ pk: keys.collection(scope, 'RSUB'), ascending: true })).map((i) => toRecord<SubscriberRetention>(i)!);

/** Written in the transaction of the change an event caused: a redelivered event changes nothing. */
export const eventMarkerPut = (scope: Scope, consumer: string, eventId: string, nowSeconds: number): TransactOp => ({
  put: toItem(markerKey(scope, consumer, eventId), 'RetentionEventMarker', { eventId }, { expiresAt: nowSeconds + MARKER_SECONDS }),
  condition: 'attribute_not_exists(PK)',
});
export const hasEventMarker = async (store: Store, scope: Scope, consumer: string, eventId: string) =>
  Boolean(await store.get(markerKey(scope, consumer, eventId), { consistent: true }));

// ---- counters of the intro report (ADD on one item per tenant and mode) ----
const countersKey = (scope: Scope) => keys.entity(scope, 'RETENTION', 'counters');
export interface RetentionCounters {
  introStarted?: number;
  introPayments?: number;
  yearlyPrompted?: number;
  yearlyAccepted?: number;
  yearlySwitched?: number;
}
export const countersAdd = (scope: Scope, add: Partial<Record<keyof RetentionCounters, number>>): TransactOp => ({
  update: countersKey(scope),
  set: { entity: 'RetentionCounters', v: 1 },
  add: add as Record<string, number>,
});
export const getCounters = async (store: Store, scope: Scope): Promise<RetentionCounters> =>
  toRecord<RetentionCounters>(await store.get(countersKey(scope), { consistent: true })) ?? {};

/** Sets fields of a subscriber's retention row without touching the others (consumers race on it). */
/**
 * Claims the subscriber's one save offer; fails (ConditionFailed) when one was taken already.
 * Released again when the processor refuses to apply it.
 */
export const saveOfferClaim = (scope: Scope, subscriberId: string, offerId: string, saved: NonNullable<SubscriberRetention['saved']>): TransactOp => ({
  update: subKey(scope, subscriberId),
  set: { entity: 'SubscriberRetention', v: 1, subscriberId, offerId, saved },
  condition: '(attribute_not_exists(#saved) OR #saved = :none) AND (attribute_not_exists(#discount) OR #discount = :none)',
  names: { '#saved': 'saved', '#discount': 'discount' },
  values: { ':none': null },
});
export const saveOfferRelease = (scope: Scope, subscriberId: string): TransactOp => ({ update: subKey(scope, subscriberId), set: {}, remove: ['saved'] });

export const subscriberRetentionSet = (
  scope: Scope,
  subscriberId: string,
  offerId: string,
  set: Partial<SubscriberRetention>,
  add?: { payments?: number },
): TransactOp => ({
  update: subKey(scope, subscriberId),
  set: { entity: 'SubscriberRetention', v: 1, subscriberId, offerId, ...set },
  ...(add ? { add: add as Record<string, number> } : {}),
});
