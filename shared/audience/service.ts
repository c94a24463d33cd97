import { getAccount } from '../platform/accounts';
import type { Deps } from '../platform/context';
import { erasedSince } from '../platform/privacy';
import { badRequest, conflict, notFound } from '../platform/errors';
import type { DomainEvent } from '../platform/events';
import { objectId } from '../platform/ids';
import type { Scope } from '../store/keys';
import { ConditionFailed, type TransactOp } from '../store/store';
import type { ContactRecord, ContactSource, ContactStatus, Consent, SuppressionReason } from './records';
import * as repo from './repository';
import { concatTables, mergeView, packTable, tableFromRows, unpackChunk, unpackTableChunk, unpackTables, viewRows, type ContactFactRow, type FactsTable, type FactsView } from './facts';
import { randomHex } from '../platform/ids';
import { applySale, buildContact, cleanTags, isSuppressedStatus, isValidEmail, MAX_TAGS_PER_CONTACT, mayMarketTo, mergeContact, normalizeEmail, withCheckoutConsent, type NewContactInput } from './rules';

/**
 * The audience's public service functions: other capabilities (forms, funnels, memberships,
 * segments, imports, email) call these, never the repository. Every function takes `deps` and the
 * tenant scope; none sees HTTP.
 */

const MAX_ATTEMPTS = 5;

function requireEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (!isValidEmail(normalized)) throw badRequest(`Invalid email address: ${email}`, { field: 'email' });
  return normalized;
}

function checkTagCount(contact: ContactRecord) {
  if (contact.tags.length > MAX_TAGS_PER_CONTACT) throw badRequest(`A contact carries at most ${MAX_TAGS_PER_CONTACT} tags`, { field: 'tags' });
}

/** A contact to create or update; `status` applies to a new contact only (default `subscribed`). */
export type UpsertContactInput = NewContactInput;

/**
 * Creates the contact of an email or adds to the existing one (fills missing fields, adds tags;
 * never overwrites a name, consent or status). `extraOps` go in the same transaction (an event, a
 * processed marker). Safe under races: the email guard and the version condition make a loser
 * read again and merge.
 */
export async function upsertContact(
  deps: Deps,
  scope: Scope,
  input: UpsertContactInput,
  options: { extraOps?: TransactOp[]; apply?: (contact: ContactRecord, created: boolean) => ContactRecord } = {},
): Promise<{ contact: ContactRecord; created: boolean }> {
  const email = requireEmail(input.email);
  for (let attempt = 1; ; attempt++) {
    const now = deps.clock.now().toISOString();
    const id = await repo.findContactId(deps.store, scope, email, attempt > 1);
    const current = id ? await repo.getContact(deps.store, scope, id) : undefined;
    try {
      if (!current) {
        let contact = buildContact({ ...input, email }, { id: objectId(deps.clock), now });
        if (options.apply) contact = options.apply(contact, true);
        checkTagCount(contact);
        await deps.store.transact([...repo.contactWrites.create(scope, contact), ...(options.extraOps ?? [])]);
        return { contact, created: true };
      }
      let contact = mergeContact(current, input, now);
      if (options.apply) contact = options.apply(contact, false);
      checkTagCount(contact);
      await deps.store.transact([...repo.contactWrites.replace(scope, contact, current), ...(options.extraOps ?? [])]);
      return { contact, created: false };
    } catch (error) {
      if (error instanceof ConditionFailed && attempt < MAX_ATTEMPTS) continue;
      throw error;
    }
  }
}

/**
 * The writes that create a new contact, for a caller's own transaction (bulk imports put several
 * contacts and their own markers in one): the transaction fails as a whole when the email exists.
 */
export function newContactWrites(deps: Deps, scope: Scope, input: UpsertContactInput): { contact: ContactRecord; ops: TransactOp[] } {
  const email = requireEmail(input.email);
  const contact = buildContact({ ...input, email }, { id: objectId(deps.clock), now: deps.clock.now().toISOString() });
  checkTagCount(contact);
  return { contact, ops: repo.contactWrites.create(scope, contact) };
}

/** Read, change, write guarded by the version read; a concurrent change makes it merge again. */
async function changeContact(deps: Deps, scope: Scope, id: string, apply: (current: ContactRecord, now: string) => ContactRecord | undefined): Promise<ContactRecord> {
  for (let attempt = 1; ; attempt++) {
    const current = await repo.getContact(deps.store, scope, id);
    if (!current) throw notFound('Subscriber');
    const next = apply(current, deps.clock.now().toISOString());
    if (!next) return current;
    checkTagCount(next);
    try {
      await deps.store.transact(repo.contactWrites.replace(scope, next, current));
      return next;
    } catch (error) {
      if (error instanceof ConditionFailed && attempt < MAX_ATTEMPTS) continue;
      throw error;
    }
  }
}

export async function getContact(deps: Deps, scope: Scope, id: string): Promise<ContactRecord> {
  const contact = await repo.getContact(deps.store, scope, id);
  if (!contact) throw notFound('Subscriber');
  return contact;
}

export async function findContactByEmail(deps: Deps, scope: Scope, email: string): Promise<ContactRecord | undefined> {
  const id = await repo.findContactId(deps.store, scope, normalizeEmail(email));
  return id ? repo.getContact(deps.store, scope, id) : undefined;
}

export async function listContacts(deps: Deps, scope: Scope, filter: { status?: ContactStatus; tag?: string; q?: string }, page: { limit: number; cursor?: string }) {
  return repo.listContactPage(deps.store, scope, { ...filter, q: filter.q ? filter.q.trim().toLowerCase() : undefined }, page);
}

/** Creates a contact from the API or dashboard; an email that already has one answers 409. */
export async function createContact(deps: Deps, scope: Scope, input: UpsertContactInput): Promise<ContactRecord> {
  const email = requireEmail(input.email);
  if (input.status && isSuppressedStatus(input.status)) throw badRequest('status: bounced and complained are set by the mail provider', { field: 'status' });
  if (await repo.findContactId(deps.store, scope, email)) throw conflict(`A subscriber with email ${email} exists`, 'SUBSCRIBER_EXISTS');
  const suppressed = await repo.getSuppression(deps.store, scope, email);
  const now = deps.clock.now().toISOString();
  const contact = buildContact(
    { ...input, email, status: suppressed ? (suppressed.reason === 'bounce' ? 'bounced' : 'complained') : input.status },
    { id: objectId(deps.clock), now },
  );
  checkTagCount(contact);
  try {
    await deps.store.transact(repo.contactWrites.create(scope, contact));
  } catch (error) {
    if (error instanceof ConditionFailed) throw conflict(`A subscriber with email ${email} exists`, 'SUBSCRIBER_EXISTS');
    throw error;
  }
  return contact;
}

export interface ContactChange {
  name?: string | null;
  country?: string | null;
  status?: 'subscribed' | 'unsubscribed';
  consent?: Consent | null;
}

/** Edits by the creator. A bounced or complained address cannot be put back to subscribed. */
export async function updateContact(deps: Deps, scope: Scope, id: string, change: ContactChange): Promise<ContactRecord> {
  const current = await getContact(deps, scope, id);
  if (change.status === 'subscribed' && current.status !== 'subscribed') {
    if (isSuppressedStatus(current.status) || (await repo.getSuppression(deps.store, scope, current.email))) {
      throw conflict(`${current.email} is on the suppression list (${current.status}) and cannot be resubscribed`, 'SUPPRESSED');
    }
  }
  return changeContact(deps, scope, id, (c, now) => ({
    ...c,
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.country !== undefined ? { country: change.country ? change.country.toUpperCase() : null } : {}),
    ...(change.consent !== undefined ? { consent: change.consent } : {}),
    ...(change.status && change.status !== c.status ? { status: change.status, unsubscribedAt: change.status === 'unsubscribed' ? now : null } : {}),
    updatedAt: now,
  }));
}

export async function deleteContact(deps: Deps, scope: Scope, id: string): Promise<ContactRecord> {
  const contact = await getContact(deps, scope, id);
  await deps.store.transact(repo.contactWrites.remove(scope, contact, deps.clock.now().toISOString()));
  return contact;
}

/** Adds tags (exact strings). `smart` marks them as added by a segment's smart tag. */
const tagsAdded = (tags: string[], options: { smart?: boolean }) => {
  const added = cleanTags(tags);
  return (c: ContactRecord, now: string): ContactRecord | undefined => {
    const next = cleanTags([...c.tags, ...added]);
    const smartTags = options.smart ? cleanTags([...c.smartTags, ...added.filter((t) => !c.tags.includes(t) || c.smartTags.includes(t))]) : c.smartTags;
    if (next.length === c.tags.length && smartTags.length === c.smartTags.length) return undefined;
    return { ...c, tags: next, smartTags, updatedAt: now };
  };
};

const tagsRemoved = (tags: string[], options: { smart?: boolean }) => {
  const removed = new Set(cleanTags(tags));
  return (c: ContactRecord, now: string): ContactRecord | undefined => {
    const gone = c.tags.filter((t) => removed.has(t) && (!options.smart || c.smartTags.includes(t)));
    if (!gone.length) return undefined;
    return { ...c, tags: c.tags.filter((t) => !gone.includes(t)), smartTags: c.smartTags.filter((t) => !gone.includes(t)), updatedAt: now };
  };
};

export async function addTags(deps: Deps, scope: Scope, id: string, tags: string[], options: { smart?: boolean } = {}): Promise<ContactRecord> {
  return changeContact(deps, scope, id, tagsAdded(tags, options));
}

/** Removes tags. `smart` removes only tags the smart tag itself added (hand-typed ones stay). */
export async function removeTags(deps: Deps, scope: Scope, id: string, tags: string[], options: { smart?: boolean } = {}): Promise<ContactRecord> {
  return changeContact(deps, scope, id, tagsRemoved(tags, options));
}

/** BatchGetItem calls (100 contacts each) in flight while the smart-tag refresh reads. */
const SMART_READ_CONCURRENCY = 8;

/**
 * The same tag change to many contacts (the smart-tag refresh): the contacts read in BatchGetItem
 * calls of 100 (8 in flight); each changed contact's tag lists written conditional on the version
 * read, 25 contacts to a BatchExecuteStatement call (8 in flight); then the tag items by
 * BatchWriteItem and the facts deltas as a few grouped items (one row per contact). A contact
 * changed meanwhile is redone through the normal transactional path. A contact whose record
 * already carries the change (the caller saw it unchanged in the facts: a crash between the
 * writes) gets its tag items and delta written again. Contacts gone meanwhile are skipped.
 * Returns how many contacts changed.
 */
async function changeTagsBatched(deps: Deps, scope: Scope, ids: string[], touched: string[], apply: (current: ContactRecord, now: string) => ContactRecord | undefined): Promise<number> {
  const groups: string[][] = [];
  for (let i = 0; i < ids.length; i += 100) groups.push(ids.slice(i, i + 100));
  const contacts = (await inPool(groups, SMART_READ_CONCURRENCY, (group) => repo.getContacts(deps.store, scope, group))).flat();
  const now = deps.clock.now().toISOString();
  const tagWrites: ReturnType<typeof repo.contactTagWrites> = [];
  const written: ContactRecord[] = [];
  const changes: { next: ContactRecord; before: ContactRecord }[] = [];
  for (const contact of contacts) {
    const updated = apply(contact, now);
    if (!updated) {
      // Repair: the tag items of the touched tags as the record has them, and its delta.
      tagWrites.push(...repo.contactTagWrites(scope, contact, contact.tags.filter((t) => !touched.includes(t)).concat(touched.filter((t) => !contact.tags.includes(t)))));
      written.push(contact);
      continue;
    }
    checkTagCount(updated);
    changes.push({ next: updated, before: contact });
  }
  const applied = await repo.updateContactTagsIfUnchanged(deps.store, scope, changes);
  let changed = 0;
  const redo: ContactRecord[] = [];
  changes.forEach(({ next, before }, i) => {
    if (!applied[i]) return void redo.push(before);
    tagWrites.push(...repo.contactTagWrites(scope, next, before.tags));
    written.push(next);
    changed++;
  });
  // Changed since it was read: the normal transaction (its own delta), re-reading the contact.
  await inPool(redo, 8, (contact) =>
    changeContact(deps, scope, contact._id, apply).then(
      () => changed++,
      (failure: Error & { status?: number }) => {
        if (failure.status !== 404) throw failure; // deleted meanwhile
      },
    ),
  );
  await repo.batchWrite(deps.store, [...tagWrites, ...repo.tagDeltaItems(scope, now, written).map((Item) => ({ PutRequest: { Item } }))]);
  return changed;
}

/** `fn` over `items`, at most `concurrency` at once; results in input order. */
async function inPool<T, R>(items: T[], concurrency: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

/** `addTags` for many contacts at once (see changeTagsBatched). */
export async function addTagsToMany(deps: Deps, scope: Scope, ids: string[], tags: string[], options: { smart?: boolean } = {}): Promise<number> {
  return changeTagsBatched(deps, scope, ids, cleanTags(tags), tagsAdded(tags, options));
}

/** `removeTags` for many contacts at once. */
export async function removeTagsFromMany(deps: Deps, scope: Scope, ids: string[], tags: string[], options: { smart?: boolean } = {}): Promise<number> {
  return changeTagsBatched(deps, scope, ids, cleanTags(tags), tagsRemoved(tags, options));
}

// ---- suppression and consent ----

export async function isSuppressed(deps: Deps, scope: Scope, email: string): Promise<boolean> {
  return Boolean(await repo.getSuppression(deps.store, scope, normalizeEmail(email)));
}

/**
 * Which of these addresses no mail may reach, and why: on the suppression list (bounce,
 * complaint) or a contact that unsubscribed. Every send (posts, transactional, funnels,
 * memberships) asks this first. Reads are batched.
 */
export async function blockedRecipients(deps: Deps, scope: Scope, emails: string[]): Promise<Map<string, 'suppressed' | 'unsubscribed'>> {
  const normalized = emails.map(normalizeEmail);
  const blocked = new Map<string, 'suppressed' | 'unsubscribed'>();
  for (const email of await repo.suppressedAmong(deps.store, scope, normalized)) blocked.set(email, 'suppressed');
  const rest = normalized.filter((e) => !blocked.has(e));
  const ids = await Promise.all(rest.map((email) => repo.findContactId(deps.store, scope, email)));
  const contacts = await repo.getContacts(deps.store, scope, ids.filter((id): id is string => Boolean(id)));
  for (const contact of contacts) if (contact.status !== 'subscribed') blocked.set(contact.email, contact.status === 'unsubscribed' ? 'unsubscribed' : 'suppressed');
  return blocked;
}

/** Of a page of contacts about to be mailed, the emails on the suppression list. */
export async function suppressedAmong(deps: Deps, scope: Scope, emails: string[]): Promise<Set<string>> {
  return repo.suppressedAmong(deps.store, scope, emails.map(normalizeEmail));
}

/** The unsubscribe link or one-click post: the contact stops receiving posts. Idempotent. */
export async function unsubscribeEmail(deps: Deps, scope: Scope, email: string): Promise<ContactRecord | undefined> {
  const id = await repo.findContactId(deps.store, scope, normalizeEmail(email));
  if (!id) {
    // Mail sent to an address with no contact (transactional): remember the choice as a contact.
    const { contact } = await upsertContact(deps, scope, { email, status: 'unsubscribed', source: null });
    return contact.status === 'unsubscribed' ? contact : unsubscribeEmail(deps, scope, email);
  }
  return changeContact(deps, scope, id, (c, now) => (c.status === 'subscribed' ? { ...c, status: 'unsubscribed', unsubscribedAt: now, updatedAt: now } : undefined));
}

/**
 * A bounce or complaint the mail provider reported: the address goes on the suppression list and
 * its contact (when there is one) takes the matching status, in one transaction.
 */
export async function suppressEmail(deps: Deps, scope: Scope, email: string, reason: SuppressionReason): Promise<void> {
  const address = normalizeEmail(email);
  const now = deps.clock.now().toISOString();
  const write = repo.suppressionWrite(scope, { email: address, reason, suppressedAt: now });
  const status: ContactStatus = reason === 'bounce' ? 'bounced' : 'complained';
  for (let attempt = 1; ; attempt++) {
    const id = await repo.findContactId(deps.store, scope, address, attempt > 1);
    const current = id ? await repo.getContact(deps.store, scope, id) : undefined;
    // A complaint outranks a bounce; neither is undone by a later report.
    const keep = current && (current.status === 'complained' || current.status === status);
    try {
      if (!current || keep) await deps.store.transact([write]);
      else await deps.store.transact([...repo.contactWrites.replace(scope, { ...current, status, updatedAt: now }, current), write]);
      return;
    } catch (error) {
      if (error instanceof ConditionFailed && attempt < MAX_ATTEMPTS) continue;
      throw error;
    }
  }
}

/** An open or click on a contact (last open / last click at). */
export async function recordEngagement(deps: Deps, scope: Scope, contactId: string, kind: 'open' | 'click'): Promise<void> {
  await repo.touchEngagement(deps.store, scope, contactId, kind === 'open' ? 'lastOpenAt' : 'lastClickAt', deps.clock.now().toISOString());
}

/**
 * Whether marketing mail (an automation or funnel step) may go to this address: a contact who
 * consented (`mayMarketTo`). An address with no contact has given nothing either.
 */
export async function marketingAllowed(deps: Deps, scope: Scope, email: string): Promise<boolean> {
  const contact = await findContactByEmail(deps, scope, email);
  return contact !== undefined && mayMarketTo(contact);
}

export { mayMarketTo };

/** One page of a post's audience, oldest first, with a cursor to resume from. */
export async function audiencePage(deps: Deps, scope: Scope, audience: { tag?: string }, page: { limit: number; cursor?: string }) {
  return repo.audiencePage(deps.store, scope, audience, page);
}

// ---- facts from sales ----

export const SALE_FACTS_CONSUMER = 'audience-sale-facts';

interface OrderCompletedData {
  order?: { id?: string; productId?: string; subscriptionId?: string | null; createdAt?: string };
  amount?: number;
  currency?: string;
  product?: { id?: string | null };
  customer?: { email?: string; firstName?: string | null; lastName?: string | null; country?: string | null };
}

/**
 * A committed sale creates or updates the buyer's contact (source `checkout`) with its purchase
 * facts. The processed marker goes in the same transaction, so a redelivered event changes
 * nothing.
 */
export async function recordSaleFacts(deps: Deps, event: DomainEvent): Promise<void> {
  const data = event.data as OrderCompletedData;
  const email = data.customer?.email;
  if (!email || !isValidEmail(normalizeEmail(email))) return;
  const scope: Scope = { accountId: event.accountId, mode: event.mode };
  if (await deps.store.get(repo.markerKey(SALE_FACTS_CONSUMER, event.id), { consistent: true })) return;
  // A sale committed before its buyer was erased, delivered after: it must not bring the contact back.
  if (await erasedSince(deps, scope, email, new Date(event.created * 1000).toISOString())) return;
  const account = await getAccount(deps.store, event.accountId);
  const name = [data.customer?.firstName, data.customer?.lastName].filter(Boolean).join(' ') || null;
  const at = data.order?.createdAt ?? new Date(event.created * 1000).toISOString();
  const fact = {
    productId: data.product?.id ?? data.order?.productId ?? '',
    amountCents: Math.round((data.amount ?? 0) * 100),
    inAccountCurrency: !account || !data.currency || data.currency.toUpperCase() === account.currency.toUpperCase(),
    at,
    country: data.customer?.country ?? null,
  };
  try {
    await upsertContact(
      deps,
      scope,
      { email, source: 'checkout', name, country: data.customer?.country ?? null },
      { extraOps: [repo.processedMarker(SALE_FACTS_CONSUMER, event.id, event.created)], apply: (contact) => applySale(contact, fact, deps.clock.now().toISOString()) },
    );
  } catch (error) {
    // Another delivery of this event got there first.
    if (error instanceof ConditionFailed && (await deps.store.get(repo.markerKey(SALE_FACTS_CONSUMER, event.id), { consistent: true }))) return;
    throw error;
  }
}

/** Internal event of the checkout capability (shared/checkout/records.ts): the same name, no import of it. */
export const CHECKOUT_CONSENT_EVENT = 'checkout.marketing_consent';
const CONSENT_CONSUMER = 'audience-checkout-consent';

/**
 * A buyer ticked the newsletter box at checkout: the contact (source `checkout`) carries the
 * consent with the words shown. A contact without consent gets it; one that had unsubscribed is
 * subscribed again (the tick is a new, explicit request); a bounced or complained address is not.
 * Once per event (processed marker in the same transaction).
 */
export async function recordCheckoutConsent(deps: Deps, event: DomainEvent): Promise<void> {
  const data = event.data as { email?: string; firstName?: string | null; lastName?: string | null; consent?: Consent };
  if (!data.email || !data.consent || !isValidEmail(normalizeEmail(data.email))) return;
  const scope: Scope = { accountId: event.accountId, mode: event.mode };
  if (await deps.store.get(repo.markerKey(CONSENT_CONSUMER, event.id), { consistent: true })) return;
  const consent = data.consent;
  const name = [data.firstName, data.lastName].filter(Boolean).join(' ') || null;
  try {
    await upsertContact(deps, scope, { email: data.email, source: 'checkout', name, consent }, {
      extraOps: [repo.processedMarker(CONSENT_CONSUMER, event.id, event.created)],
      apply: (contact) => withCheckoutConsent(contact, consent, deps.clock.now().toISOString()),
    });
  } catch (error) {
    if (error instanceof ConditionFailed && (await deps.store.get(repo.markerKey(CONSENT_CONSUMER, event.id), { consistent: true }))) return;
    throw error;
  }
}

// ---- contact facts for segments (snapshot + deltas; see README "Contact facts") ----

export type { ContactFactRow, FactsTable, FactsView } from './facts';
export { rowAt, walkView } from './facts';

/**
 * Deltas read from before the snapshot start: a write stamped just before the rebuild started may
 * commit after the rebuild read its contact (transaction latency, retries, clock skew). Kept short:
 * every delta in the window counts towards the bounds (an import just before a rebuild).
 */
const DELTA_OVERLAP_MS = 30_000;
/** Above this many deltas a rebuild is due (the caller queues one). */
export const FACTS_DELTA_SOFT_LIMIT = 2_000;
/** A request never reads more deltas than this; past it the facts are unavailable until a rebuild. */
export const FACTS_DELTA_HARD_LIMIT = 20_000;

// Decoded snapshots (columns) by table, scope and generation: a generation never changes once its
// head is written, so a warm container reads only the head and the deltas.
const snapshotCache = new Map<string, FactsTable>();
const CACHE_ENTRIES = 2;
const EMPTY = tableFromRows([]);

async function snapshotTable(deps: Deps, scope: Scope, head: repo.FactsHead): Promise<FactsTable | undefined> {
  const cacheKey = `${deps.store.tableName}|${scope.accountId}|${scope.mode}|${head.generation}`;
  const hit = snapshotCache.get(cacheKey);
  if (hit) return hit;
  const chunks = await repo.getFactsChunks(deps.store, scope, head);
  if (!chunks) return undefined;
  // Snapshots written before F3: F2 (columnar, one gzip per chunk) or gzipped JSON lines.
  const table = head.format === 'F3' ? unpackTables(chunks) : head.format === 'F2' ? concatTables(chunks.map(unpackTableChunk)) : tableFromRows(chunks.flatMap(unpackChunk));
  snapshotCache.set(cacheKey, table);
  while (snapshotCache.size > CACHE_ENTRIES) snapshotCache.delete(snapshotCache.keys().next().value!);
  return table;
}

/** Drops the decoded snapshots (a bench measures a cold container's first count with it). */
export function forgetDecodedSnapshots(): void {
  snapshotCache.clear();
}

export interface ContactFacts {
  /** Subscribed contacts' facts: the snapshot's columns with the deltas on top (see facts/view.ts `FactsView`). */
  view: FactsView;
  /** The same as rows, oldest contact first (built on demand: tests and the nightly rebuild). */
  readonly rows: ContactFactRow[];
  /** Deltas merged on top of the snapshot. */
  deltas: number;
  /** False when the deltas passed the hard limit: the view is empty and must not be used. */
  complete: boolean;
  /** True when a rebuild is due (no snapshot yet, or many deltas): the caller queues one. */
  rebuildDue: boolean;
  snapshotAt: string | null;
}

/**
 * The facts of every subscribed contact: the snapshot's chunks (read in parallel, decoded into
 * columns, cached by generation) with the deltas written since its rebuild started merged on top.
 * Bounded: the snapshot by design, the deltas by FACTS_DELTA_HARD_LIMIT.
 */
export async function contactFacts(deps: Deps, scope: Scope): Promise<ContactFacts> {
  for (let attempt = 1; ; attempt++) {
    const head = await repo.getFactsHead(deps.store, scope);
    const since = head ? new Date(Date.parse(head.startedAt) - DELTA_OVERLAP_MS).toISOString() : '0';
    const [snapshot, read] = await Promise.all([head ? snapshotTable(deps, scope, head) : Promise.resolve(EMPTY), repo.factDeltasSince(deps.store, scope, since, FACTS_DELTA_HARD_LIMIT)]);
    // A newer rebuild removed this generation's chunks between the two reads: read the new head.
    if (!snapshot) {
      if (attempt < 3) continue;
      throw new Error('contact facts snapshot vanished three times in a row');
    }
    const view = mergeView(read.more ? EMPTY : snapshot, read.more ? [] : read.deltas);
    let rows: ContactFactRow[] | undefined;
    return {
      view,
      get rows() {
        return (rows ??= viewRows(view));
      },
      deltas: read.deltas.length,
      complete: !read.more,
      rebuildDue: !head || read.more || read.deltas.length > FACTS_DELTA_SOFT_LIMIT,
      snapshotAt: head?.startedAt ?? null,
    };
  }
}

/** A compacting rebuild needs every delta since the previous snapshot: well inside their TTL (8 days). */
const COMPACT_WITHIN_MS = 6 * 86_400_000;
/** A full rebuild from the contacts at least this often reconciles the snapshot with the records. */
const FULL_EVERY_MS = 7 * 86_400_000;

/**
 * True when a rebuild would write the very snapshot already there, an empty one: no subscribed
 * contact at the last rebuild, no contact write since (every one records a delta), and the last
 * full read recent. Nothing to correct either (corrections apply to contacts). The nightly job
 * skips such scopes: most accounts' live or test mode, and every idle account.
 */
export async function factsEmptyAndUnchanged(deps: Deps, scope: Scope): Promise<boolean> {
  const head = await repo.getFactsHead(deps.store, scope);
  if (!head || head.count !== 0 || !head.fullAt || deps.clock.nowMs() - Date.parse(head.fullAt) >= FULL_EVERY_MS) return false;
  return !(await repo.anyFactDeltaSince(deps.store, scope, new Date(Date.parse(head.startedAt) - DELTA_OVERLAP_MS).toISOString()));
}

/**
 * Rebuilds the facts snapshot, switches readers to it and removes the previous one. Usually a
 * compaction: the previous snapshot with the deltas since merged in (every contact write records
 * its delta in the same transaction, so they are the whole state), no contact read. From the
 * contacts themselves (the subscribed contacts, paged, 8 id ranges in parallel) when there is no
 * snapshot, it is older than COMPACT_WITHIN_MS, the deltas passed the hard limit, the last full
 * read is FULL_EVERY_MS old, or `full` is asked. `correct` may give a contact a new purchase
 * total on the way (the nightly rebuild from the sales); it is written through the normal
 * versioned path, whose delta carries the new value on top of this snapshot.
 */
const REBUILD_READERS = 8;

export async function rebuildContactFacts(
  deps: Deps,
  scope: Scope,
  options: { correct?: (row: Pick<ContactFactRow, '_id' | 'email' | 'totalSpentCents'>) => number | undefined; full?: boolean } = {},
): Promise<{ count: number; chunks: number; corrected: number; full: boolean }> {
  const startedAt = deps.clock.now().toISOString();
  const nowMs = deps.clock.nowMs();
  const generation = `${startedAt.replace(/[^0-9]/g, '')}${randomHex(4)}`;
  const previous = await repo.getFactsHead(deps.store, scope);
  let rows: ContactFactRow[] | undefined;
  let fullAt = previous?.fullAt;
  if (!options.full && (previous?.format === 'F2' || previous?.format === 'F3') && previous.fullAt && nowMs - Date.parse(previous.startedAt) < COMPACT_WITHIN_MS && nowMs - Date.parse(previous.fullAt) < FULL_EVERY_MS) {
    const facts = await contactFacts(deps, scope);
    if (facts.complete) rows = facts.rows;
  }
  const full = !rows;
  if (!rows) {
    fullAt = startedAt;
    // The id space in ranges read in parallel, each page by page; concatenated in range order.
    const ranges = await repo.subscribedIdRanges(deps.store, scope, REBUILD_READERS);
    const parts = await Promise.all(
      ranges.map(async (range) => {
        const out: ContactFactRow[] = [];
        let cursor: string | undefined;
        do {
          const page = await repo.subscribedFactsPage(deps.store, scope, range, cursor);
          out.push(...page.rows);
          cursor = page.cursor;
        } while (cursor);
        return out;
      }),
    );
    rows = parts.flat();
  }
  const corrections: { id: string; total: number }[] = [];
  if (options.correct) {
    for (const row of rows) {
      const total = options.correct(row);
      if (total !== undefined && total !== row.totalSpentCents) corrections.push({ id: row._id, total });
    }
  }
  let corrected = 0;
  for (let i = 0; i < corrections.length; i += 16) {
    const done = await Promise.all(corrections.slice(i, i + 16).map(({ id, total }) => changeContact(deps, scope, id, (current, now) => (current.totalSpentCents === total ? undefined : { ...current, totalSpentCents: total, updatedAt: now })).then(() => 1, () => 0)));
    corrected += done.reduce<number>((a, b) => a + b, 0);
  }
  const chunks = packTable(rows);
  for (let i = 0; i < chunks.length; i += 8) await Promise.all(chunks.slice(i, i + 8).map((data, j) => repo.putFactsChunk(deps.store, scope, generation, i + j, data)));
  const head: repo.FactsHead = { generation, chunks: chunks.length, count: rows.length, startedAt, format: 'F3', fullAt };
  if (await repo.putFactsHead(deps.store, scope, head)) {
    if (previous && previous.generation !== generation) await repo.deleteFactsChunks(deps.store, scope, previous);
  } else await repo.deleteFactsChunks(deps.store, scope, head);
  return { count: rows.length, chunks: chunks.length, corrected, full };
}

/** Full contacts by id (at most a page: a send batch), in the order asked. */
export async function contactsByIds(deps: Deps, scope: Scope, ids: string[]): Promise<ContactRecord[]> {
  return repo.getContacts(deps.store, scope, ids);
}

/**
 * Bulk seeding and imports of new contacts: BatchWriteItem of the very items a create writes
 * (contact, email guard, tags, facts delta). Skips the email-uniqueness condition: the caller
 * hands new, distinct addresses. A facts rebuild is due afterwards.
 */
export type ContactFactFields = Pick<ContactRecord, 'firstPurchaseAt' | 'lastPurchaseAt' | 'totalSpentCents' | 'productIds' | 'lastOpenAt' | 'lastClickAt'>;

export async function bulkCreateContacts(deps: Deps, scope: Scope, inputs: (UpsertContactInput & { facts?: Partial<ContactFactFields> })[]): Promise<ContactRecord[]> {
  const now = deps.clock.now().toISOString();
  const contacts = inputs.map(({ facts, ...input }) => {
    const contact = { ...buildContact({ ...input, email: requireEmail(input.email) }, { id: objectId(deps.clock), now }), ...(facts ?? {}) };
    checkTagCount(contact);
    return contact;
  });
  await repo.batchCreateContacts(deps.store, scope, contacts);
  return contacts;
}

export type ImportContactInput = UpsertContactInput & { id: string };
export type ImportContactOutcome = { state: 'created' | 'existing'; contactId: string } | { state: 'failed'; reason: string };

/** Claims per group: 8 BatchExecuteStatement calls of 25, one round in flight. */
const CLAIM_GROUP = 200;

/**
 * Imports: creates many new contacts at once; an address that already has a contact keeps it
 * exactly as it is (existing data wins, its status never changes). Each input brings the id its
 * contact gets, derived by the caller from the row, so a redone batch recognises its own work: an
 * address claimed by that very id is `created`, and its contact is written only if a crash left
 * the claim alone. The email claims are conditional inserts, each standing alone (`claimEmails`,
 * 25 to a call, 200 at a time; an address taken meanwhile is looked up again); each claimed group's
 * contacts, tags and facts deltas go by BatchWriteItem while the next group is claimed.
 * Answers one outcome per input, in order.
 */
export async function importContacts(deps: Deps, scope: Scope, inputs: ImportContactInput[]): Promise<ImportContactOutcome[]> {
  const now = deps.clock.now().toISOString();
  const outcomes: (ImportContactOutcome | undefined)[] = new Array(inputs.length);
  const candidates: { index: number; contact: ContactRecord }[] = [];
  const firstOf = new Map<string, number>();
  inputs.forEach(({ id, ...input }, index) => {
    try {
      const contact = buildContact({ ...input, email: requireEmail(input.email) }, { id, now });
      checkTagCount(contact);
      // The same address twice in one call: the first row creates it, the others find it.
      if (firstOf.has(contact.email)) return;
      firstOf.set(contact.email, index);
      candidates.push({ index, contact });
    } catch (error) {
      if ((error as { status?: number }).status !== 400) throw error;
      outcomes[index] = { state: 'failed', reason: (error as Error).message };
    }
  });
  const held = await repo.contactIdsByEmail(deps.store, scope, candidates.map((c) => c.contact.email));
  const toWrite: ContactRecord[] = [];
  const redone: { index: number; contact: ContactRecord }[] = [];
  const toClaim: typeof candidates = [];
  for (const candidate of candidates) {
    const holder = held.get(candidate.contact.email);
    if (!holder) toClaim.push(candidate);
    else if (holder === candidate.contact._id) redone.push(candidate);
    else outcomes[candidate.index] = { state: 'existing', contactId: holder };
  }
  // Claims: conditional inserts, a group at a time; each claimed group's contacts are written
  // while the next group is claimed. An address taken meanwhile (a signup, an earlier attempt of
  // this very batch) is looked at again below.
  const recheck: typeof candidates = [];
  const writes: Promise<void>[] = [];
  for (let i = 0; i < toClaim.length; i += CLAIM_GROUP) {
    const group = toClaim.slice(i, i + CLAIM_GROUP);
    const made = await repo.claimEmails(deps.store, scope, group.map(({ contact }) => ({ email: contact.email, contactId: contact._id })));
    const claimed = group.filter((candidate, k) => {
      if (made[k]) outcomes[candidate.index] = { state: 'created', contactId: candidate.contact._id };
      else recheck.push(candidate);
      return made[k];
    });
    if (!claimed.length) continue;
    const write = deps.store.batchPut(claimed.flatMap(({ contact }) => repo.contactBodyItems(scope, contact)));
    write.catch(() => undefined); // judged below, with the others
    writes.push(write);
  }
  if (recheck.length) {
    const holders = await repo.contactIdsByEmail(deps.store, scope, recheck.map((c) => c.contact.email));
    for (const candidate of recheck) {
      const holder = holders.get(candidate.contact.email)!;
      if (holder === candidate.contact._id) redone.push(candidate);
      else outcomes[candidate.index] = { state: 'existing', contactId: holder };
    }
  }
  if (redone.length) {
    // Claimed by an earlier attempt: write the contact only where the crash left the claim alone,
    // so a contact changed since (unsubscribed, tagged) is never overwritten.
    const present = new Set((await repo.getContacts(deps.store, scope, redone.map((c) => c.contact._id))).map((c) => c._id));
    for (const candidate of redone) {
      outcomes[candidate.index] = { state: 'created', contactId: candidate.contact._id };
      if (!present.has(candidate.contact._id)) toWrite.push(candidate.contact);
    }
  }
  writes.push(deps.store.batchPut(toWrite.flatMap((contact) => repo.contactBodyItems(scope, contact))));
  // Every write is awaited (settled first, so none is left running when one fails).
  const settled = await Promise.allSettled(writes);
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return inputs.map((input, index) => {
    const outcome = outcomes[index];
    if (outcome) return outcome;
    const first = outcomes[firstOf.get(normalizeEmail(input.email))!]!;
    return first.state === 'failed' ? first : { state: 'existing', contactId: first.contactId };
  });
}

/** Which of these addresses have a contact: email → contact id (BatchGetItem, no contact read). */
export async function contactIdsByEmail(deps: Deps, scope: Scope, emails: string[]): Promise<Map<string, string>> {
  return repo.contactIdsByEmail(deps.store, scope, emails.map(normalizeEmail));
}
