import { getAccount } from '../platform/accounts';
import type { Deps } from '../platform/context';
import { badRequest, conflict, notFound } from '../platform/errors';
import type { DomainEvent } from '../platform/events';
import { objectId } from '../platform/ids';
import type { Scope } from '../store/keys';
import { ConditionFailed, type TransactOp } from '../store/store';
import type { ContactRecord, ContactSource, ContactStatus, Consent, SuppressionReason } from './records';
import * as repo from './repository';
import { mergeFacts, packChunks, encodeRow, unpackChunk, type ContactFactRow } from './facts';
import { randomHex } from '../platform/ids';
import { applySale, buildContact, cleanTags, isSuppressedStatus, isValidEmail, MAX_TAGS_PER_CONTACT, mergeContact, normalizeEmail, type NewContactInput } from './rules';

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
export async function addTags(deps: Deps, scope: Scope, id: string, tags: string[], options: { smart?: boolean } = {}): Promise<ContactRecord> {
  const added = cleanTags(tags);
  return changeContact(deps, scope, id, (c, now) => {
    const next = cleanTags([...c.tags, ...added]);
    const smartTags = options.smart ? cleanTags([...c.smartTags, ...added.filter((t) => !c.tags.includes(t) || c.smartTags.includes(t))]) : c.smartTags;
    if (next.length === c.tags.length && smartTags.length === c.smartTags.length) return undefined;
    return { ...c, tags: next, smartTags, updatedAt: now };
  });
}

/** Removes tags. `smart` removes only tags the smart tag itself added (hand-typed ones stay). */
export async function removeTags(deps: Deps, scope: Scope, id: string, tags: string[], options: { smart?: boolean } = {}): Promise<ContactRecord> {
  const removed = new Set(cleanTags(tags));
  return changeContact(deps, scope, id, (c, now) => {
    const gone = c.tags.filter((t) => removed.has(t) && (!options.smart || c.smartTags.includes(t)));
    if (!gone.length) return undefined;
    return { ...c, tags: c.tags.filter((t) => !gone.includes(t)), smartTags: c.smartTags.filter((t) => !gone.includes(t)), updatedAt: now };
  });
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

// ---- contact facts for segments (snapshot + deltas; see README "Contact facts") ----

export type { ContactFactRow } from './facts';

/**
 * Deltas read from before the snapshot start: a write stamped just before the rebuild started may
 * commit after the rebuild read its contact (transaction latency, retries, clock skew). Kept short:
 * every delta in the window counts towards the bounds (an import just before a rebuild).
 */
const DELTA_OVERLAP_MS = 30_000;
/** Above this many deltas a rebuild is due (the caller queues one). */
export const FACTS_DELTA_SOFT_LIMIT = 5_000;
/** A request never reads more deltas than this; past it the facts are unavailable until a rebuild. */
export const FACTS_DELTA_HARD_LIMIT = 20_000;

// Decoded snapshots by table, scope and generation: a generation never changes once its head is
// written, so a warm container reads only the head and the deltas.
const snapshotCache = new Map<string, ContactFactRow[]>();
const CACHE_ENTRIES = 2;

async function snapshotRows(deps: Deps, scope: Scope, head: repo.FactsHead): Promise<ContactFactRow[] | undefined> {
  const cacheKey = `${deps.store.tableName}|${scope.accountId}|${scope.mode}|${head.generation}`;
  const hit = snapshotCache.get(cacheKey);
  if (hit) return hit;
  const chunks = await repo.getFactsChunks(deps.store, scope, head);
  if (!chunks) return undefined;
  const rows = chunks.flatMap(unpackChunk);
  snapshotCache.set(cacheKey, rows);
  while (snapshotCache.size > CACHE_ENTRIES) snapshotCache.delete(snapshotCache.keys().next().value!);
  return rows;
}

export interface ContactFacts {
  /** Subscribed contacts' facts, oldest contact first. */
  rows: ContactFactRow[];
  /** Deltas merged on top of the snapshot. */
  deltas: number;
  /** False when the deltas passed the hard limit: `rows` is incomplete and must not be used. */
  complete: boolean;
  /** True when a rebuild is due (no snapshot yet, or many deltas): the caller queues one. */
  rebuildDue: boolean;
  snapshotAt: string | null;
}

/**
 * The facts of every subscribed contact: the snapshot's chunks (read in parallel, cached by
 * generation) with the deltas written since its rebuild started merged on top. Bounded: the
 * snapshot by design, the deltas by FACTS_DELTA_HARD_LIMIT.
 */
export async function contactFacts(deps: Deps, scope: Scope): Promise<ContactFacts> {
  for (let attempt = 1; ; attempt++) {
    const head = await repo.getFactsHead(deps.store, scope);
    const since = head ? new Date(Date.parse(head.startedAt) - DELTA_OVERLAP_MS).toISOString() : '0';
    const [snapshot, read] = await Promise.all([head ? snapshotRows(deps, scope, head) : Promise.resolve([]), repo.factDeltasSince(deps.store, scope, since, FACTS_DELTA_HARD_LIMIT)]);
    // A newer rebuild removed this generation's chunks between the two reads: read the new head.
    if (!snapshot) {
      if (attempt < 3) continue;
      throw new Error('contact facts snapshot vanished three times in a row');
    }
    return {
      rows: read.more ? [] : mergeFacts(snapshot, read.deltas),
      deltas: read.deltas.length,
      complete: !read.more,
      rebuildDue: !head || read.more || read.deltas.length > FACTS_DELTA_SOFT_LIMIT,
      snapshotAt: head?.startedAt ?? null,
    };
  }
}

/**
 * Rebuilds the facts snapshot from the subscribed contacts (paged), switches readers to it and
 * removes the previous one. `correct` may fix a contact on the way (the nightly purchase-total
 * rebuild): it returns the corrected contact to write, or undefined.
 */
const REBUILD_READERS = 4;

export async function rebuildContactFacts(
  deps: Deps,
  scope: Scope,
  options: { correct?: (contact: ContactRecord) => ContactRecord | undefined } = {},
): Promise<{ count: number; chunks: number; corrected: number }> {
  const startedAt = deps.clock.now().toISOString();
  const generation = `${startedAt.replace(/[^0-9]/g, '')}${randomHex(4)}`;
  const previous = await repo.getFactsHead(deps.store, scope);
  const corrections: ContactRecord[] = [];
  // The id space in ranges read in parallel, each page by page; concatenated in range order.
  const ranges = await repo.subscribedIdRanges(deps.store, scope, REBUILD_READERS);
  const parts = await Promise.all(
    ranges.map(async (range) => {
      const out: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await repo.subscribedFactsPage(deps.store, scope, range, cursor);
        for (let i = 0; i < page.rows.length; i++) {
          const fixed = options.correct?.(page.contacts[i]!);
          if (fixed) corrections.push(fixed);
          out.push(encodeRow(page.rows[i]!));
        }
        cursor = page.cursor;
      } while (cursor);
      return out;
    }),
  );
  const lines = parts.flat();
  // Corrected contacts are written through the normal versioned path; their deltas (written after
  // startedAt) carry the new values on top of this snapshot.
  let corrected = 0;
  for (let i = 0; i < corrections.length; i += 16) {
    const done = await Promise.all(corrections.slice(i, i + 16).map((c) => changeContact(deps, scope, c._id, (current, now) => (current.totalSpentCents === c.totalSpentCents ? undefined : { ...current, totalSpentCents: c.totalSpentCents, updatedAt: now })).then(() => 1, () => 0)));
    corrected += done.reduce<number>((a, b) => a + b, 0);
  }
  const chunks = packChunks(lines);
  for (let i = 0; i < chunks.length; i += 8) await Promise.all(chunks.slice(i, i + 8).map((data, j) => repo.putFactsChunk(deps.store, scope, generation, i + j, data)));
  const head: repo.FactsHead = { generation, chunks: chunks.length, count: lines.length, startedAt };
  if (await repo.putFactsHead(deps.store, scope, head)) {
    if (previous && previous.generation !== generation) await repo.deleteFactsChunks(deps.store, scope, previous);
  } else await repo.deleteFactsChunks(deps.store, scope, head);
  return { count: lines.length, chunks: chunks.length, corrected };
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

/**
 * Imports: creates many new contacts at once; an address that already has a contact keeps it
 * exactly as it is (existing data wins, its status never changes). Each input brings the id its
 * contact gets, derived by the caller from the row, so a redone batch recognises its own work: an
 * address claimed by that very id is `created`, and its contact is written only if a crash left
 * the claim alone. The email claims are conditional puts, up to 100 to a transaction (an address
 * taken meanwhile drops out and the rest go again); the contacts, tags and facts deltas then go by
 * BatchWriteItem. Answers one outcome per input, in order.
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
  let toClaim: typeof candidates = [];
  for (const candidate of candidates) {
    const holder = held.get(candidate.contact.email);
    if (!holder) toClaim.push(candidate);
    else if (holder === candidate.contact._id) redone.push(candidate);
    else outcomes[candidate.index] = { state: 'existing', contactId: holder };
  }
  // Claims: a transaction refused by taken addresses is sent again without them.
  const recheck: typeof candidates = [];
  while (toClaim.length) {
    const groups: (typeof candidates)[] = [];
    for (let i = 0; i < toClaim.length; i += 100) groups.push(toClaim.slice(i, i + 100));
    const again: typeof candidates = [];
    await Promise.all(
      groups.map(async (group) => {
        try {
          await deps.store.transact(group.map(({ contact }) => repo.emailClaim(scope, contact.email, contact._id)));
          for (const candidate of group) {
            outcomes[candidate.index] = { state: 'created', contactId: candidate.contact._id };
            toWrite.push(candidate.contact);
          }
        } catch (error) {
          if (!(error instanceof ConditionFailed)) throw error;
          const taken = group.filter((_, i) => error.reasons[i] === 'ConditionalCheckFailed');
          if (!taken.length) throw error;
          recheck.push(...taken);
          again.push(...group.filter((_, i) => error.reasons[i] !== 'ConditionalCheckFailed'));
        }
      }),
    );
    toClaim = again;
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
  await deps.store.batchPut(toWrite.flatMap((contact) => repo.contactBodyItems(scope, contact)));
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
