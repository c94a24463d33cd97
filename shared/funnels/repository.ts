import { keys, type Scope } from '../store/keys';
import { toItem } from '../store/items';
import { toRecord, type Store, type TransactOp } from '../store/store';
import { FUNNEL, LEAD, PURCHASE, type FunnelRecord, type LeadRecord, type PurchaseRecord } from './records';

// - funnel:   PK=<scope>#FUNNEL, SK=<funnelId> (newest first; bounded per seller, read whole to
//             match a lead magnet or an offer on a sale)
// - lead:     PK=<scope>#FUNNEL#<id>#LEAD, SK=<email>; created once (the "once per email" guard)
// - purchase: PK=<scope>#FUNNEL#<id>#PURCHASE, SK=<saleId>; created once per sale
// - buyer:    PK=<scope>#FUNNEL#<id>#BUYER, SK=<email>; counts a buyer's live purchases

const funnelKey = (scope: Scope, id: string) => keys.entity(scope, FUNNEL, id);
const leadKey = (scope: Scope, funnelId: string, email: string) => keys.child(scope, FUNNEL, funnelId, LEAD, email);
const purchaseKey = (scope: Scope, funnelId: string, saleId: string) => keys.child(scope, FUNNEL, funnelId, PURCHASE, saleId);
const buyerKey = (scope: Scope, funnelId: string, email: string) => keys.child(scope, FUNNEL, funnelId, 'BUYER', email);

export const getFunnel = async (store: Store, scope: Scope, id: string) => toRecord<FunnelRecord>(await store.get(funnelKey(scope, id), { consistent: true }));
export const listFunnels = async (store: Store, scope: Scope) =>
  (await store.queryAll({ pk: keys.collection(scope, FUNNEL) })).map((i) => toRecord<FunnelRecord>(i)!);
export const getLead = async (store: Store, scope: Scope, funnelId: string, email: string) =>
  toRecord<LeadRecord>(await store.get(leadKey(scope, funnelId, email), { consistent: true }));
export const getPurchase = async (store: Store, scope: Scope, funnelId: string, saleId: string) =>
  toRecord<PurchaseRecord>(await store.get(purchaseKey(scope, funnelId, saleId), { consistent: true }));
export const getBuyer = async (store: Store, scope: Scope, funnelId: string, email: string) =>
  toRecord<{ purchases: number; counted?: boolean }>(await store.get(buyerKey(scope, funnelId, email), { consistent: true }));

export const funnelWrites = {
  create: (scope: Scope, funnel: FunnelRecord): TransactOp => ({
    put: toItem(funnelKey(scope, funnel._id), 'Funnel', funnel),
    condition: 'attribute_not_exists(PK)',
  }),
  set: (scope: Scope, id: string, set: Partial<FunnelRecord>): TransactOp => ({ update: funnelKey(scope, id), set, condition: 'attribute_exists(PK)' }),
  delete: (scope: Scope, id: string): TransactOp => ({ delete: funnelKey(scope, id), condition: 'attribute_exists(PK)' }),
  count: (scope: Scope, id: string, add: Record<string, number>): TransactOp => ({
    update: funnelKey(scope, id),
    set: { entity: 'Funnel' },
    add,
    condition: 'attribute_exists(PK)',
  }),
};

export const leadWrites = {
  create: (scope: Scope, funnelId: string, lead: LeadRecord): TransactOp => ({
    put: toItem(leadKey(scope, funnelId, lead.email), 'FunnelLead', lead),
    condition: 'attribute_not_exists(PK)',
  }),
};

export const purchaseWrites = {
  create: (scope: Scope, funnelId: string, p: PurchaseRecord): TransactOp => ({
    put: toItem(purchaseKey(scope, funnelId, p.saleId), 'FunnelPurchase', p),
    condition: 'attribute_not_exists(PK)',
  }),
  refund: (scope: Scope, funnelId: string, saleId: string): TransactOp => ({
    update: purchaseKey(scope, funnelId, saleId),
    set: { refunded: true },
    condition: 'attribute_exists(PK) AND #r = :f',
    names: { '#r': 'refunded' },
    values: { ':f': false },
  }),
  buyer: (scope: Scope, funnelId: string, email: string, delta: number): TransactOp => ({
    update: buyerKey(scope, funnelId, email),
    set: { email, entity: 'FunnelBuyer', v: 1 },
    add: { purchases: delta },
  }),
  /** Flips whether a buyer is counted in `buyers`, once per direction. */
  buyerCounted: (scope: Scope, funnelId: string, email: string, counted: boolean): TransactOp => ({
    update: buyerKey(scope, funnelId, email),
    set: { counted },
    condition: counted ? 'attribute_not_exists(#c) OR #c = :no' : '#c = :yes',
    names: { '#c': 'counted' },
    values: counted ? { ':no': false } : { ':yes': true },
  }),
};
