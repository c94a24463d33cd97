import { addTagsToMany, findContactByEmail, removeTagsFromMany } from '../audience/service';
import { audiencePage } from '../audience/suppression';
import { contactFacts, nightlyFactsPlan, rebuildContactFacts, rowAt, walkView, type ContactFactRow, type FactsView } from '../audience/contact-facts';
import { contactsByIds } from '../audience/bulk';
import { compileDefinition } from './columns';
import type { ContactRecord } from '../audience/records';
import type { Deps, OperationContext } from '../platform/context';
import { ApiError, badRequest, conflict, notFound } from '../platform/errors';
import { purchaseTotals } from './totals';
import { objectId } from '../platform/ids';
import { planAtLeast, type Plan } from '../platform/plans';
import type { Scope } from '../store/keys';
import { ConditionFailed } from '../store/store';
import type { SegmentRecord } from './records';
import * as repo from './repository';
import { DefinitionError, matchesDefinition, parseDefinition, tagsRead, type Definition } from './rules';

/**
 * Segments: saved definitions, evaluated live over the audience's contact facts (a compact
 * snapshot plus the deltas since its rebuild; see README). The nightly job rebuilds the snapshot
 * (and the purchase totals), then refreshes every smart tag from it.
 */

export const SEGMENTS_PLAN: Plan = 'tier2';
export const MAX_SEGMENTS = 200;
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
  if (smartTag && tagsRead(definition).includes(smartTag))
    throw badRequest(`The smart tag "${smartTag}" cannot also be a rule of the same segment`, { field: 'smartTag' });
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

export async function createSegment(
  ctx: Ctx,
  input: { name: string; description?: string | null; definition: unknown; smartTag?: string | null },
): Promise<SegmentRecord> {
  const definition = validDefinition(input.definition);
  const smartTag = input.smartTag ?? null;
  checkSmartTag(definition, smartTag);
  const existing = await repo.listSegments(ctx.store, ctx.scope);
  if (existing.length >= MAX_SEGMENTS) throw conflict(`An account holds at most ${MAX_SEGMENTS} segments`, 'SEGMENT_LIMIT');
  const now = ctx.clock.now().toISOString();
  const segment: SegmentRecord = {
    _id: objectId(ctx.clock),
    name: input.name,
    description: input.description ?? null,
    definition,
    smartTag,
    smartTagRefreshedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await ctx.store.transact(repo.segmentWrites.create(ctx.scope, segment));
  } catch (error) {
    if (error instanceof ConditionFailed && smartTag) throw tagTaken(smartTag);
    throw error;
  }
  return segment;
}

export async function updateSegment(
  ctx: Ctx,
  id: string,
  change: { name?: string; description?: string | null; definition?: unknown; smartTag?: string | null },
): Promise<SegmentRecord> {
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

// ---- evaluation: over the audience's contact facts (snapshot + deltas), see README ----

export interface Evaluation {
  count: number;
  sample: ContactFactRow[];
  /** Subscribed contacts evaluated. */
  scanned: number;
  /** Always true: every subscribed contact's facts are evaluated. */
  complete: boolean;
  computedAt: string;
}

/**
 * The facts every evaluation reads. A rebuild that is due (no snapshot yet, many deltas) is queued
 * on the segments queue; past the hard delta bound the answer is 503 until it has run.
 */
/** A rebuild queued by a request is not queued again for this long (it runs meanwhile). */
const REBUILD_WINDOW_MS = 60_000;

async function factsFor(deps: Deps, scope: Scope): Promise<FactsView> {
  const facts = await contactFacts(deps, scope);
  if (facts.rebuildDue && (await repo.claimFactsRebuild(deps.store, scope, deps.clock.nowMs(), REBUILD_WINDOW_MS)))
    await queueRefresh(deps, scope, { facts: true });
  if (!facts.complete) {
    throw new ApiError(503, 'Contact facts are being rebuilt after a large change (import); try again in a minute', {
      code: 'FACTS_REBUILDING',
      headers: { 'retry-after': '30' },
      details: { retryAfterSeconds: 30 },
    });
  }
  return facts.view;
}

/**
 * A member test over the view: the compiled one for snapshot entries, the plain evaluator for
 * rows the deltas changed or added.
 */
function memberTest(view: FactsView, definition: Definition, nowMs: number) {
  const inTable = compileDefinition(definition, view.table, nowMs);
  return (at: { index: number; row?: ContactFactRow }) => (at.row ? matchesDefinition(definition, at.row, nowMs) : inTable(at.index));
}

/** Counts the members among the subscribed contacts and keeps the first `sample` (oldest first). */
export async function evaluate(deps: Deps, scope: Scope, definition: Definition, options: { sample?: number } = {}): Promise<Evaluation> {
  const view = await factsFor(deps, scope);
  const nowMs = deps.clock.nowMs();
  const { table, hidden, extra } = view;
  const inTable = compileDefinition(definition, table, nowMs);
  let count = 0;
  for (let i = 0; i < table.size; i++) if (!hidden[i] && inTable(i)) count++;
  for (const row of extra) if (matchesDefinition(definition, row, nowMs)) count++;
  const sample: ContactFactRow[] = [];
  const wanted = options.sample ?? 0;
  if (wanted && count) {
    const member = memberTest(view, definition, nowMs);
    walkView(view, undefined, (at) => {
      if (member(at)) sample.push(at.row ?? rowAt(table, at.index));
      return sample.length < wanted;
    });
  }
  return { count, sample, scanned: view.size, complete: true, computedAt: deps.clock.now().toISOString() };
}

/**
 * One page of a segment's members, oldest contact first, with a cursor (the last id handed out)
 * to resume from: evaluated now over the facts, then the page's full contacts read by id (those
 * that left or unsubscribed in between are dropped). The public function the email capability
 * sends through.
 */
export async function segmentMembersPage(
  deps: Deps,
  scope: Scope,
  segmentId: string,
  page: { limit: number; cursor?: string },
): Promise<{ contacts: ContactRecord[]; cursor?: string }> {
  const segment = await readSegment(deps, scope, segmentId);
  const after = decodeCursor(page.cursor);
  const view = await factsFor(deps, scope);
  const member = memberTest(view, segment.definition, deps.clock.nowMs());
  const ids: string[] = [];
  let more = false;
  walkView(view, after, (at) => {
    if (!member(at)) return true;
    if (ids.length === page.limit) {
      more = true;
      return false;
    }
    ids.push(at.row ? at.row._id : view.table.ids[at.index]!);
    return true;
  });
  const contacts = (await contactsByIds(deps, scope, ids)).filter((c) => c.status === 'subscribed');
  return more ? { contacts, cursor: encodeCursor(ids[ids.length - 1]!) } : { contacts };
}

const encodeCursor = (lastId: string) => Buffer.from(JSON.stringify({ a: lastId })).toString('base64url');
function decodeCursor(text: string | undefined): string | undefined {
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as { a?: unknown };
    if (typeof parsed.a === 'string' && /^[0-9a-f]{24}$/.test(parsed.a)) return parsed.a;
  } catch {
    // fall through
  }
  throw badRequest('after is not a cursor this list handed out', { field: 'after' });
}

/**
 * Whether one contact (by email) is in a segment now: a subscribed contact whose facts match the
 * segment's rules. A missing contact or segment answers false. The automations capability asks
 * it for a trigger restricted to a segment and for a step that branches on membership; one
 * contact read, never the tenant's whole audience.
 */
/** Whether the tenant has this segment (callers that name one: automations). */
export const segmentExists = async (deps: Deps, scope: Scope, segmentId: string) => Boolean(await repo.getSegment(deps.store, scope, segmentId));

export async function contactInSegment(deps: Deps, scope: Scope, segmentId: string, email: string): Promise<boolean> {
  const segment = await repo.getSegment(deps.store, scope, segmentId);
  if (!segment) return false;
  const contact = await findContactByEmail(deps, scope, email);
  return Boolean(contact && contact.status === 'subscribed' && matchesDefinition(segment.definition, contact, deps.clock.nowMs()));
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

// ---- smart tags and facts: the nightly refresh, in steps on the segments queue ----

export interface RefreshStep {
  scope: Scope;
  /** Rebuild the contact-facts snapshot when contacts changed (nightly: with the weekly full read and totals check), then, when `nightly`, refresh every smart tag. */
  facts?: boolean;
  nightly?: boolean;
  segmentId?: string;
  /** Store every saved segment's count as of a minute ago (counting.ts `recountSegments`); after the facts step when both are set. */
  counts?: boolean;
  /** Untag everyone the segment tagged (segment gone or tag renamed), a page of carriers per step. */
  takeBack?: string;
  cursor?: string;
}

/** Tag writes one refresh step makes at most; the step queues itself again while more remain. */
export const STEP_WRITES = 20_000;
/** Contacts handed to the audience's batched tag writer at once (it reads 100 and writes 25 per call, 8 calls in flight). */
const WRITE_BATCH = 5_000;

export async function queueRefresh(deps: Deps, scope: Scope, step: Omit<RefreshStep, 'scope'>) {
  await deps.ports.queue.send(SEGMENTS_QUEUE, { scope, ...step });
}

/** Fired by the nightly schedule: one facts rebuild (then the smart tags) per account and mode. */
export async function startNightlyRefresh(deps: Deps, accounts: { accountId: string }[]): Promise<number> {
  let started = 0;
  for (const { accountId } of accounts) {
    for (const mode of ['live', 'test'] as const) {
      // Then the stored counts, as of now (over the snapshot just rebuilt and the deltas since), in
      // the same step: one message per scope a night.
      await queueRefresh(deps, { accountId, mode }, { facts: true, nightly: true, counts: true });
      started++;
    }
  }
  return started;
}

/**
 * One step. Every step is idempotent and queues what follows it. The nightly facts step answers
 * how many segments the scope has (its stored counts need a recount only when there are some).
 */
export async function refreshStep(deps: Deps, step: RefreshStep): Promise<number | undefined> {
  const { scope } = step;
  if (step.facts) {
    if (!step.nightly) {
      await rebuildFacts(deps, scope, { totals: false });
      return;
    }
    // Refunds and disputes move a buyer's total at once (audience/sale-facts.ts); the weekly full
    // read checks every total against the sales, the one walk over them.
    const segments = await repo.listSegments(deps.store, scope);
    const plan = await nightlyFactsPlan(deps, scope, { segments: segments.length > 0 });
    if (plan !== 'skip') await rebuildFacts(deps, scope, { totals: plan === 'reconcile', full: plan === 'reconcile' });
    // Smart tags even over unchanged facts: a rule such as "bought in the last 30 days" moves with the date.
    for (const segment of segments) if (segment.smartTag) await queueRefresh(deps, scope, { segmentId: segment._id, nightly: true });
    return segments.length;
  }
  if (step.takeBack) {
    // Carriers of a tag the segment added: take it back where the segment added it (hand-typed stays).
    const page = await audiencePage(deps, scope, { tag: step.takeBack }, { limit: PAGE, cursor: step.cursor });
    await removeTagsFromMany(
      deps,
      scope,
      page.contacts.filter((c) => c.smartTags.includes(step.takeBack!)).map((c) => c._id),
      [step.takeBack],
      { smart: true },
    );
    if (page.cursor) await queueRefresh(deps, scope, { ...step, cursor: page.cursor });
    return;
  }
  if (!step.segmentId) return;
  if (!(await refreshSmartTag(deps, scope, step.segmentId))) await queueRefresh(deps, scope, { segmentId: step.segmentId, nightly: step.nightly });
  // The night's tag writes are deltas every count would read all day: fold them into the snapshot
  // (a compaction, seconds; once a minute per scope however many smart tags finish).
  else if (step.nightly && (await repo.claimFactsRebuild(deps.store, scope, deps.clock.nowMs(), REBUILD_WINDOW_MS)))
    await queueRefresh(deps, scope, { facts: true });
}

/**
 * One pass of a segment's smart tag over the facts: joiners get the tag, leavers that the segment
 * tagged lose it, at most STEP_WRITES writes. True when nothing is left to do.
 */
export async function refreshSmartTag(deps: Deps, scope: Scope, segmentId: string): Promise<boolean> {
  const segment = await repo.getSegment(deps.store, scope, segmentId);
  if (!segment?.smartTag) return true; // deleted or untagged meanwhile: its own take-back step runs
  const tag = segment.smartTag;
  let facts = await contactFacts(deps, scope);
  // Not a request path: a worker may rebuild first rather than read many deltas.
  if (facts.rebuildDue) {
    await rebuildFacts(deps, scope, { totals: false });
    facts = await contactFacts(deps, scope);
  }
  const view = facts.view;
  const { table } = view;
  const member = memberTest(view, segment.definition, deps.clock.nowMs());
  const tagId = table.tags.indexOf(tag);
  const carries = (start: Uint32Array, flat: Uint32Array, i: number) => {
    if (tagId < 0) return false;
    for (let k = start[i]!; k < start[i + 1]!; k++) if (flat[k] === tagId) return true;
    return false;
  };
  const joiners: string[] = [];
  const leavers: string[] = [];
  walkView(view, undefined, (at) => {
    const isMember = member(at);
    const id = at.row ? at.row._id : table.ids[at.index]!;
    const tagged = at.row ? at.row.tags.includes(tag) : carries(table.tagStart, table.tagIds, at.index);
    const smart = at.row ? at.row.smartTags.includes(tag) : carries(table.smartStart, table.smartIds, at.index);
    if (isMember && !tagged) joiners.push(id);
    else if (!isMember && smart) leavers.push(id);
    return true;
  });
  // Only changed memberships are written (joiners untagged, leavers the segment tagged).
  const add = joiners.slice(0, STEP_WRITES);
  const remove = leavers.slice(0, STEP_WRITES - add.length);
  for (let i = 0; i < add.length; i += WRITE_BATCH) await addTagsToMany(deps, scope, add.slice(i, i + WRITE_BATCH), [tag], { smart: true });
  for (let i = 0; i < remove.length; i += WRITE_BATCH) await removeTagsFromMany(deps, scope, remove.slice(i, i + WRITE_BATCH), [tag], { smart: true });
  if (joiners.length + leavers.length > STEP_WRITES) return false;
  await repo.markRefreshed(deps.store, scope, segment._id, deps.clock.now().toISOString());
  return true;
}

/** Rebuilds the facts snapshot; `totals` also checks each buyer's purchase total against the sales (weekly). */
export async function rebuildFacts(deps: Deps, scope: Scope, options: { totals: boolean; full?: boolean }) {
  const totals = options.totals ? await purchaseTotals(deps, scope) : undefined;
  return rebuildContactFacts(deps, scope, { correct: totals ? (row) => totals.get(row.email) : undefined, full: options.full });
}
