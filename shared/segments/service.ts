import { addTags, audiencePage, removeTags } from '../audience/service';
import type { ContactRecord } from '../audience/records';
import type { Deps, OperationContext } from '../platform/context';
import { badRequest, conflict, notFound } from '../platform/errors';
import { objectId } from '../platform/ids';
import { planAtLeast, type Plan } from '../platform/plans';
import type { Scope } from '../store/keys';
import { ConditionFailed } from '../store/store';
import type { SegmentRecord } from './records';
import * as repo from './repository';
import { DefinitionError, matchesDefinition, parseDefinition, requiredTag, tagsRead, type Definition } from './rules';

/**
 * Segments: saved definitions, evaluated live over the audience's contacts page by page. A request
 * never walks more than SCAN_LIMIT contacts; an answer that stopped there says so (`complete`
 * false). The nightly smart-tag refresh walks every contact, in a queue of page-sized steps.
 */

export const SEGMENTS_PLAN: Plan = 'tier2';
export const MAX_SEGMENTS = 200;
/** Contacts one request may read while counting or listing members. */
export const SCAN_LIMIT = 20_000;
export const PAGE = 1_000;
export const SEGMENTS_QUEUE = 'segments-refresh';
export const NIGHTLY_JOB = 'segments.nightly-refresh';

type Ctx = OperationContext;

export function validDefinition(input: unknown): Definition {
  try {
    return parseDefinition(input);
  } catch (error) {
    if (error instanceof DefinitionError) throw badRequest(error.message, { field: `definition.${error.path}` });
    throw error;
  }
}

function checkSmartTag(definition: Definition, smartTag: string | null) {
  if (smartTag && tagsRead(definition).includes(smartTag)) throw badRequest(`The smart tag "${smartTag}" cannot also be a rule of the same segment`, { field: 'smartTag' });
}

export async function listSegmentPage(ctx: Ctx, page: number, pageSize: number) {
  const all = await repo.listSegments(ctx.store, ctx.scope);
  return { data: all.slice((page - 1) * pageSize, page * pageSize), page, pageSize, total: all.length };
}

export async function readSegment(deps: Deps, scope: Scope, id: string): Promise<SegmentRecord> {
  const segment = await repo.getSegment(deps.store, scope, id);
  if (!segment) throw notFound('Segment');
  return segment;
}

const tagTaken = (tag: string) => conflict(`The smart tag "${tag}" is already used by another segment`, 'SMART_TAG_TAKEN', { smartTag: tag });

export async function createSegment(ctx: Ctx, input: { name: string; description?: string | null; definition: unknown; smartTag?: string | null }): Promise<SegmentRecord> {
  const definition = validDefinition(input.definition);
  const smartTag = input.smartTag ?? null;
  checkSmartTag(definition, smartTag);
  const existing = await repo.listSegments(ctx.store, ctx.scope);
  if (existing.length >= MAX_SEGMENTS) throw conflict(`An account holds at most ${MAX_SEGMENTS} segments`, 'SEGMENT_LIMIT');
  const now = ctx.clock.now().toISOString();
  const segment: SegmentRecord = { _id: objectId(ctx.clock), name: input.name, description: input.description ?? null, definition, smartTag, smartTagRefreshedAt: null, createdAt: now, updatedAt: now };
  try {
    await ctx.store.transact(repo.segmentWrites.create(ctx.scope, segment));
  } catch (error) {
    if (error instanceof ConditionFailed && smartTag) throw tagTaken(smartTag);
    throw error;
  }
  return segment;
}

export async function updateSegment(ctx: Ctx, id: string, change: { name?: string; description?: string | null; definition?: unknown; smartTag?: string | null }): Promise<SegmentRecord> {
  const current = await repo.getSegment(ctx.store, ctx.scope, id, true);
  if (!current) throw notFound('Segment');
  const definition = change.definition === undefined ? current.definition : validDefinition(change.definition);
  const smartTag = change.smartTag === undefined ? current.smartTag : change.smartTag;
  checkSmartTag(definition, smartTag);
  const next: SegmentRecord = {
    ...current,
    name: change.name ?? current.name,
    description: change.description === undefined ? current.description : change.description,
    definition,
    smartTag,
    smartTagRefreshedAt: smartTag === current.smartTag ? current.smartTagRefreshedAt : null,
    updatedAt: ctx.clock.now().toISOString(),
  };
  try {
    await ctx.store.transact(repo.segmentWrites.replace(ctx.scope, next, current));
  } catch (error) {
    if (error instanceof ConditionFailed) {
      if (smartTag && smartTag !== current.smartTag && (await repo.smartTagOwner(ctx.store, ctx.scope, smartTag)) !== id) throw tagTaken(smartTag);
      throw conflict('The segment changed meanwhile; read it again', 'SEGMENT_CHANGED');
    }
    throw error;
  }
  // A renamed smart tag: the contacts keep carrying the old one until it is taken back.
  if (current.smartTag && current.smartTag !== smartTag) await queueRefresh(ctx, ctx.scope, { segmentId: id, takeBack: current.smartTag });
  return next;
}

export async function deleteSegment(ctx: Ctx, id: string): Promise<SegmentRecord> {
  const current = await readSegment(ctx, ctx.scope, id);
  try {
    await ctx.store.transact(repo.segmentWrites.delete(ctx.scope, current));
  } catch (error) {
    if (error instanceof ConditionFailed) throw conflict('The segment changed meanwhile; read it again', 'SEGMENT_CHANGED');
    throw error;
  }
  if (current.smartTag) await queueRefresh(ctx, ctx.scope, { segmentId: id, takeBack: current.smartTag });
  return current;
}

// ---- evaluation ----

/** Where a walk over candidates starts: every subscribed contact, or a tag every member carries. */
const candidates = (definition: Definition) => {
  const tag = requiredTag(definition);
  return tag ? { tag } : {};
};

export interface Evaluation {
  count: number;
  sample: ContactRecord[];
  /** Contacts read. */
  scanned: number;
  /** False when the walk stopped at SCAN_LIMIT: `count` is then a lower bound. */
  complete: boolean;
  computedAt: string;
}

/** Counts the members among subscribed contacts, reading at most SCAN_LIMIT of them. */
export async function evaluate(deps: Deps, scope: Scope, definition: Definition, options: { sample?: number; scanLimit?: number } = {}): Promise<Evaluation> {
  const nowMs = deps.clock.nowMs();
  const scanLimit = options.scanLimit ?? SCAN_LIMIT;
  const sample: ContactRecord[] = [];
  let count = 0;
  let scanned = 0;
  let cursor: string | undefined;
  do {
    const page = await audiencePage(deps, scope, candidates(definition), { limit: Math.min(PAGE, scanLimit - scanned), cursor });
    scanned += page.contacts.length;
    for (const contact of page.contacts) {
      if (!matchesDefinition(definition, contact, nowMs)) continue;
      count++;
      if (sample.length < (options.sample ?? 0)) sample.push(contact);
    }
    cursor = page.cursor;
  } while (cursor && scanned < scanLimit);
  return { count, sample, scanned, complete: !cursor, computedAt: deps.clock.now().toISOString() };
}

/**
 * One page of a segment's members with a cursor to resume from. Walks candidate pages until
 * `limit` members are found or SCAN_LIMIT contacts were read, so a page may hold fewer than
 * `limit` rows while the cursor still moves on. The cursor is the audience's cursor of the page
 * being read plus how many of its members were already handed out (the audience validates its
 * own cursor against the tenant's partition). The public function the email capability sends through.
 */
export async function segmentMembersPage(deps: Deps, scope: Scope, segmentId: string, page: { limit: number; cursor?: string }): Promise<{ contacts: ContactRecord[]; cursor?: string }> {
  const segment = await readSegment(deps, scope, segmentId);
  const nowMs = deps.clock.nowMs();
  const contacts: ContactRecord[] = [];
  let at = decodeCursor(page.cursor);
  let scanned = 0;
  for (;;) {
    const read = await audiencePage(deps, scope, candidates(segment.definition), { limit: PAGE, cursor: at.c });
    scanned += read.contacts.length;
    const members = read.contacts.filter((c) => matchesDefinition(segment.definition, c, nowMs)).slice(at.s);
    const want = page.limit - contacts.length;
    if (members.length > want) {
      contacts.push(...members.slice(0, want));
      return { contacts, cursor: encodeCursor({ c: at.c, s: at.s + want }) };
    }
    contacts.push(...members);
    if (!read.cursor) return { contacts };
    at = { c: read.cursor, s: 0 };
    if (contacts.length === page.limit || scanned >= SCAN_LIMIT) return { contacts, cursor: encodeCursor(at) };
  }
}

interface MembersCursor {
  c?: string;
  s: number;
}
const encodeCursor = (cursor: MembersCursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');
function decodeCursor(text: string | undefined): MembersCursor {
  if (!text) return { s: 0 };
  try {
    const parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as MembersCursor;
    if ((parsed.c === undefined || typeof parsed.c === 'string') && Number.isInteger(parsed.s) && parsed.s >= 0) return parsed;
  } catch {
    // fall through
  }
  throw badRequest('after is not a cursor this list handed out', { field: 'after' });
}

/**
 * Why a post aimed at this segment cannot be sent, or undefined when it can: the segment is gone,
 * or the plan has no segments. The email capability asks before sending and fails the post.
 */
export async function segmentSendProblem(deps: Deps, scope: Scope, plan: Plan, segmentId: string): Promise<string | undefined> {
  if (!planAtLeast(plan, SEGMENTS_PLAN)) return `Segments need the Growth plan (requiredPlan ${SEGMENTS_PLAN}); the post was not sent to anyone else`;
  if (!(await repo.getSegment(deps.store, scope, segmentId))) return `Segment ${segmentId} does not exist (deleted?); the post was not sent to anyone else`;
  return undefined;
}

// ---- smart tags: the nightly refresh, in page-sized steps on the segments queue ----

export interface RefreshStep {
  scope: Scope;
  segmentId: string;
  /** `add`: walk members and tag them; `remove`: walk carriers and untag leavers; `takeBack`: untag everyone (segment gone or tag renamed). */
  phase?: 'add' | 'remove';
  takeBack?: string;
  cursor?: string;
  startedAt?: string;
}

async function queueRefresh(deps: Deps, scope: Scope, step: Omit<RefreshStep, 'scope'>) {
  await deps.ports.queue.send(SEGMENTS_QUEUE, { scope, ...step });
}

/** Fired by the nightly schedule: one refresh per segment with a smart tag, in every account and mode. */
export async function startNightlyRefresh(deps: Deps, accounts: { accountId: string }[]): Promise<number> {
  let started = 0;
  for (const { accountId } of accounts) {
    for (const mode of ['live', 'test'] as const) {
      const scope = { accountId, mode };
      for (const segment of await repo.listSegments(deps.store, scope)) {
        if (!segment.smartTag) continue;
        await queueRefresh(deps, scope, { segmentId: segment._id, phase: 'add' });
        started++;
      }
    }
  }
  return started;
}

/** One step: a page of contacts. Sends the next step before returning; every step is idempotent. */
export async function refreshStep(deps: Deps, step: RefreshStep): Promise<void> {
  const { scope } = step;
  if (step.takeBack) {
    // Carriers of a tag the segment added: take it back where the segment added it (hand-typed stays).
    const page = await audiencePage(deps, scope, { tag: step.takeBack }, { limit: PAGE, cursor: step.cursor });
    await Promise.all(page.contacts.filter((c) => c.smartTags.includes(step.takeBack!)).map((c) => removeTags(deps, scope, c._id, [step.takeBack!], { smart: true })));
    if (page.cursor) await queueRefresh(deps, scope, { ...step, cursor: page.cursor });
    return;
  }
  const segment = await repo.getSegment(deps.store, scope, step.segmentId);
  if (!segment?.smartTag) return; // deleted or untagged meanwhile: its own take-back step runs
  const tag = segment.smartTag;
  const nowMs = deps.clock.nowMs();
  const startedAt = step.startedAt ?? deps.clock.now().toISOString();
  if (step.phase !== 'remove') {
    const page = await audiencePage(deps, scope, candidates(segment.definition), { limit: PAGE, cursor: step.cursor });
    const joiners = page.contacts.filter((c) => !c.tags.includes(tag) && matchesDefinition(segment.definition, c, nowMs));
    await Promise.all(joiners.map((c) => addTags(deps, scope, c._id, [tag], { smart: true })));
    await queueRefresh(deps, scope, page.cursor ? { segmentId: segment._id, phase: 'add', cursor: page.cursor, startedAt } : { segmentId: segment._id, phase: 'remove', startedAt });
    return;
  }
  const page = await audiencePage(deps, scope, { tag }, { limit: PAGE, cursor: step.cursor });
  const leavers = page.contacts.filter((c) => c.smartTags.includes(tag) && !matchesDefinition(segment.definition, c, nowMs));
  await Promise.all(leavers.map((c) => removeTags(deps, scope, c._id, [tag], { smart: true })));
  if (page.cursor) await queueRefresh(deps, scope, { segmentId: segment._id, phase: 'remove', cursor: page.cursor, startedAt });
  else await repo.markRefreshed(deps.store, scope, segment._id, deps.clock.now().toISOString());
}
