import type { Deps } from '../platform/context';
import { badRequest, conflict, notFound } from '../platform/errors';
import { objectId } from '../platform/ids';
import type { Scope } from '../store/keys';
import { ConditionFailed, type TransactOp } from '../store/store';
import type { ContactRecord, ContactStatus, Consent } from './records';
import * as repo from './repository';
import * as bulkStore from './bulk-store';
import { buildContact, cleanTags, isSuppressedStatus, isValidEmail, MAX_TAGS_PER_CONTACT, mergeContact, normalizeEmail, type NewContactInput } from './rules';

/**
 * The audience's public service functions: other capabilities (forms, funnels, memberships,
 * segments, imports, email) call these, never the repository. Every function takes `deps` and the
 * tenant scope; none sees HTTP.
 */

export const MAX_ATTEMPTS = 5;

export function requireEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (!isValidEmail(normalized)) throw badRequest(`Invalid email address: ${email}`, { field: 'email' });
  return normalized;
}

export function checkTagCount(contact: ContactRecord) {
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
export async function changeContact(
  deps: Deps,
  scope: Scope,
  id: string,
  apply: (current: ContactRecord, now: string) => ContactRecord | undefined,
): Promise<ContactRecord> {
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

export async function listContacts(
  deps: Deps,
  scope: Scope,
  filter: { status?: ContactStatus; tag?: string; q?: string },
  page: { limit: number; cursor?: string },
) {
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
async function changeTagsBatched(
  deps: Deps,
  scope: Scope,
  ids: string[],
  touched: string[],
  apply: (current: ContactRecord, now: string) => ContactRecord | undefined,
): Promise<number> {
  const groups: string[][] = [];
  for (let i = 0; i < ids.length; i += 100) groups.push(ids.slice(i, i + 100));
  const contacts = (await inPool(groups, SMART_READ_CONCURRENCY, (group) => repo.getContacts(deps.store, scope, group))).flat();
  const now = deps.clock.now().toISOString();
  const tagWrites: ReturnType<typeof bulkStore.contactTagWrites> = [];
  const written: ContactRecord[] = [];
  const changes: { next: ContactRecord; before: ContactRecord }[] = [];
  for (const contact of contacts) {
    const updated = apply(contact, now);
    if (!updated) {
      // Repair: the tag items of the touched tags as the record has them, and its delta.
      tagWrites.push(
        ...bulkStore.contactTagWrites(
          scope,
          contact,
          contact.tags.filter((t) => !touched.includes(t)).concat(touched.filter((t) => !contact.tags.includes(t))),
        ),
      );
      written.push(contact);
      continue;
    }
    checkTagCount(updated);
    changes.push({ next: updated, before: contact });
  }
  const applied = await bulkStore.updateContactTagsIfUnchanged(deps.store, scope, changes);
  let changed = 0;
  const redo: ContactRecord[] = [];
  for (const [i, { next, before }] of changes.entries()) {
    if (!applied[i]) {
      redo.push(before);
      continue;
    }
    tagWrites.push(...bulkStore.contactTagWrites(scope, next, before.tags));
    written.push(next);
    changed++;
  }
  // Changed since it was read: the normal transaction (its own delta), re-reading the contact.
  await inPool(redo, 8, (contact) =>
    changeContact(deps, scope, contact._id, apply).then(
      () => changed++,
      (failure: Error & { status?: number }) => {
        if (failure.status !== 404) throw failure; // deleted meanwhile
      },
    ),
  );
  await bulkStore.batchWrite(deps.store, [...tagWrites, ...bulkStore.tagDeltaItems(scope, now, written).map((Item) => ({ PutRequest: { Item } }))]);
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
