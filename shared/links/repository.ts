import { keys, type Scope } from '../store/keys';
import { toItem } from '../store/items';
import { KEY_EXISTS, KEY_IS_FREE, createUnique } from '../store/conditional';
import { toRecord, type Store, type TransactOp } from '../store/store';
import {
  LINK_CODE_KIND,
  TRACKED_LINK,
  TRACKED_LINK_DAY,
  TRACKED_LINK_SALE,
  TRACKED_LINK_VISITOR,
  clickField,
  revenueField,
  saleField,
  visitorField,
  type LinkCodeRecord,
  type LinkRecord,
  type LinkSaleRecord,
} from './records';

// Layout:
// - link:        PK=<scope>#TRACKED_LINK, SK=<linkId> (newest first; listed by cursor pages)
// - public code: PK=CAP#tracked-link#<code>, SK=CAP → { accountId, mode, linkId }
// - day stats:   PK=<scope>#TRACKED_LINK_DAY, SK=<YYYY-MM-DD>; per channel c:/v:/s:/r: attributes
// - visitor:     PK=<scope>#U#TRACKED_LINK_VISITOR, SK=<sha256(linkId:visitorId)> (first click only)
// - sale:        PK=<scope>#TRACKED_LINK_SALE, SK=<saleId> (attribution, read by key)

const linkKey = (scope: Scope, id: string) => keys.entity(scope, TRACKED_LINK, id);
const codeKey = (code: string) => keys.capability(LINK_CODE_KIND, code);
const dayKey = (scope: Scope, day: string) => keys.entity(scope, TRACKED_LINK_DAY, day);
const saleKey = (scope: Scope, saleId: string) => keys.entity(scope, TRACKED_LINK_SALE, saleId);

export const linkCreateOps = (scope: Scope, link: LinkRecord): TransactOp[] => [
  { put: toItem(linkKey(scope, link._id), 'TrackedLink', link), condition: KEY_IS_FREE },
  {
    put: toItem(codeKey(link.code), 'TrackedLinkCode', { accountId: scope.accountId, mode: scope.mode, linkId: link._id } satisfies LinkCodeRecord),
    condition: KEY_IS_FREE,
  },
];

export const linkDeleteOps = (scope: Scope, link: LinkRecord): TransactOp[] => [
  { delete: linkKey(scope, link._id), condition: KEY_EXISTS },
  { delete: codeKey(link.code) },
];

export const getLink = async (store: Store, scope: Scope, id: string) => toRecord<LinkRecord>(await store.get(linkKey(scope, id)));
export const getLinkCode = async (store: Store, code: string) => toRecord<LinkCodeRecord>(await store.get(codeKey(code)));

export async function linksPage(store: Store, scope: Scope, limit: number, cursor?: string) {
  const page = await store.query({ pk: keys.collection(scope, TRACKED_LINK), limit, cursor });
  return { items: page.items.map((i) => toRecord<LinkRecord>(i)!), cursor: page.cursor };
}

/** True the first time this visitor clicks this link. */
export const firstVisit = (store: Store, scope: Scope, visitorKey: string, at: string) =>
  createUnique(store, toItem(keys.unique(scope, TRACKED_LINK_VISITOR, visitorKey), 'TrackedLinkVisitor', { at }));

export const clickOps = (scope: Scope, link: LinkRecord, day: string, newVisitor: boolean): TransactOp[] => [
  { update: dayKey(scope, day), set: {}, add: { [clickField(link.channel)]: 1, ...(newVisitor ? { [visitorField(link.channel)]: 1 } : {}) } },
  { update: linkKey(scope, link._id), set: {}, add: { clicks: 1, ...(newVisitor ? { visitors: 1 } : {}) }, condition: KEY_EXISTS },
];

export const getLinkSale = async (store: Store, scope: Scope, saleId: string) =>
  toRecord<LinkSaleRecord>(await store.get(saleKey(scope, saleId), { consistent: true }));

/** An attributed sale, counted once (the caller adds the event marker to the same transaction). */
export function attributeOps(scope: Scope, sale: LinkSaleRecord, linkExists: boolean): TransactOp[] {
  return [
    { put: toItem(saleKey(scope, sale.saleId), 'TrackedLinkSale', sale), condition: KEY_IS_FREE },
    { update: dayKey(scope, sale.day), set: {}, add: { [saleField(sale.channel)]: 1, [revenueField(sale.channel)]: sale.revenueCents } },
    ...(linkExists
      ? [{ update: linkKey(scope, sale.linkId), set: {}, add: { sales: 1, revenueCents: sale.revenueCents }, condition: KEY_EXISTS } satisfies TransactOp]
      : []),
  ];
}

export function unattributeOps(scope: Scope, sale: LinkSaleRecord, linkExists: boolean): TransactOp[] {
  return [
    {
      update: saleKey(scope, sale.saleId),
      set: { refunded: true },
      condition: 'attribute_exists(PK) AND (attribute_not_exists(#refunded) OR #refunded = :no)',
      names: { '#refunded': 'refunded' },
      values: { ':no': false },
    },
    { update: dayKey(scope, sale.day), set: {}, add: { [saleField(sale.channel)]: -1, [revenueField(sale.channel)]: -sale.revenueCents } },
    ...(linkExists
      ? [{ update: linkKey(scope, sale.linkId), set: {}, add: { sales: -1, revenueCents: -sale.revenueCents }, condition: KEY_EXISTS } satisfies TransactOp]
      : []),
  ];
}

/** Day stats of a range: one small item per day with activity (≤ 366 for the longest report). */
export async function dayStats(store: Store, scope: Scope, start: string, end: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.query({ pk: keys.collection(scope, TRACKED_LINK_DAY), between: [start, end], ascending: true, limit: 400, cursor });
    out.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  return out;
}

export const markerPut = (consumer: string, eventId: string, created: number): TransactOp => ({
  put: toItem(keys.processed(consumer, eventId), 'ProcessedEvent', { eventId }, { expiresAt: created + 7 * 24 * 3600 }),
  condition: KEY_IS_FREE,
});
export const markerExists = async (store: Store, consumer: string, eventId: string) =>
  Boolean(await store.get(keys.processed(consumer, eventId), { consistent: true }));
