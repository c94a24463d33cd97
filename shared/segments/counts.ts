import { applyPartial, listAt, maxTime, timeText, type ContactFactRow, type FactsTable, type FactsView, type StampedDelta } from '../audience/facts';
import { CONTACT_SOURCES } from '../audience/records';
import { compileDefinition } from './columns';
import { matchesDefinition, type ContactFacts, type Definition, type Rule } from './rules';

/**
 * A saved segment's count kept with the segment, so a count reads one item and the changes since,
 * instead of the audience's whole facts snapshot (which grows with the audience: ~2 RCU per 1,000
 * contacts). Plain functions, no I/O; the service stores and reads them (counting.ts).
 *
 * A stored count is exact as of an instant `at`: every contact write stamped before `at` is in it,
 * none after. A count now is that count, plus the membership changes time alone makes after `at`
 * (a "bought within 30 days" member leaves when its purchase turns 30 days old: `flips`, computed
 * with the count for COUNT_HORIZON_MS), plus, for each contact written since `at`, its membership
 * now less its membership at `at`. The latter is the contact as it was just before its first
 * write since `at`: every row and removal delta carries it (`was`). A definition that reads tags
 * or engagement cannot be moved past a batched tag change or an open/click recorded since `at`
 * (those deltas carry no earlier state): such a count answers undefined and the caller evaluates
 * the snapshot as before.
 */

export const COUNT_HORIZON_MS = 48 * 3_600_000;
/** Above this many distinct flip instants the count is not stored (the item stays far below 400 KB). */
export const MAX_FLIPS = 10_000;

export interface StoredCount {
  /** Members among the subscribed contacts at `at`. */
  count: number;
  /** Subscribed contacts at `at`. */
  subscribed: number;
  /** Changes of the count by time alone after `at`: `[ms after at, change]`, in time order. */
  flips: [number, number][];
}

const DAY_MS = 86_400_000;
type TimeField = 'lastPurchaseAt' | 'lastOpenAt' | 'lastClickAt';

const rules = (definition: Definition): Rule[] => definition.groups.flatMap((g) => g.rules);

/** The times a definition's rules compare with now, and over how many days. */
function timeRules(definition: Definition): { field: TimeField; days: number }[] {
  return rules(definition).flatMap((r): { field: TimeField; days: number }[] => {
    if (r.type === 'boughtWithin' || r.type === 'notBoughtWithin') return [{ field: 'lastPurchaseAt', days: r.days }];
    if (r.type === 'engagedWithin')
      return [
        ...(r.event !== 'clicked' ? [{ field: 'lastOpenAt' as const, days: r.days }] : []),
        ...(r.event !== 'opened' ? [{ field: 'lastClickAt' as const, days: r.days }] : []),
      ];
    return [];
  });
}

/** Whether the definition reads tags or engagement times: the facts that partial deltas change. */
export function partsRead(definition: Definition): { tags: boolean; engagement: boolean } {
  const all = rules(definition);
  return { tags: all.some((r) => r.type === 'tag' || r.type === 'notTag'), engagement: all.some((r) => r.type === 'engagedWithin') };
}

/** What a rule reads of snapshot entry `i`, from its columns (no email or name decoded). */
function factsAt(t: FactsTable, i: number): ContactFacts {
  return {
    tags: listAt(t.tagStart, t.tagIds, t.tags, i),
    source: t.source[i]! >= 0 ? CONTACT_SOURCES[t.source[i]!]! : null,
    country: t.country[i]! >= 0 ? t.countries[t.country[i]!]! : null,
    lastPurchaseAt: timeText(t.lastPurchase[i]!),
    totalSpentCents: t.spent[i]!,
    productIds: listAt(t.productStart, t.productIds, t.products, i),
    lastOpenAt: timeText(t.lastOpen[i]!),
    lastClickAt: timeText(t.lastClick[i]!),
  };
}

const columnOf = { lastPurchaseAt: 'lastPurchase', lastOpenAt: 'lastOpen', lastClickAt: 'lastClick' } as const;

/**
 * The count over the view (the facts as of `atMs`) and the flips of the next COUNT_HORIZON_MS.
 * Undefined when the flips are too many to store.
 */
export function countAt(view: FactsView, definition: Definition, atMs: number): StoredCount | undefined {
  const { table, hidden, extra } = view;
  const inTable = compileDefinition(definition, table, atMs);
  const times = timeRules(definition);
  const flips = new Map<number, number>();
  const end = atMs + COUNT_HORIZON_MS;
  // withinDays is `t >= now - days`: membership can change only at t + days + 1 ms.
  const track = (member: boolean, timeOf: (field: TimeField) => number, test: (nowMs: number) => boolean) => {
    const points: number[] = [];
    for (const { field, days } of times) {
      const t = timeOf(field);
      if (Number.isNaN(t)) continue;
      const p = t + days * DAY_MS + 1;
      if (p > atMs && p <= end) points.push(p);
    }
    if (!points.length) return;
    points.sort((a, b) => a - b);
    let was = member;
    for (const p of points) {
      const now = test(p);
      if (now !== was) flips.set(p - atMs, (flips.get(p - atMs) ?? 0) + (now ? 1 : -1));
      was = now;
    }
  };
  let count = 0;
  let subscribed = 0;
  for (let i = 0; i < table.size; i++) {
    if (hidden[i]) continue;
    subscribed++;
    const member = inTable(i);
    if (member) count++;
    if (times.length) {
      track(
        member,
        (field) => table[columnOf[field]][i]!,
        (nowMs) => matchesDefinition(definition, factsAt(table, i), nowMs),
      );
    }
  }
  for (const row of extra) {
    subscribed++;
    const member = matchesDefinition(definition, row, atMs);
    if (member) count++;
    if (times.length)
      track(
        member,
        (field) => (row[field] ? Date.parse(row[field]!) : Number.NaN),
        (nowMs) => matchesDefinition(definition, row, nowMs),
      );
  }
  const list = [...flips].filter(([, change]) => change !== 0).sort((a, b) => a[0] - b[0]);
  if (list.length > MAX_FLIPS) return undefined;
  return { count, subscribed, flips: list };
}

const deltaId = (d: StampedDelta) => (d.kind === 'row' ? d.row._id : d.id);

/** A contact's state after a delta (the same merge as facts/view.ts `mergeView`). */
function apply(current: ContactFactRow | null, d: StampedDelta): ContactFactRow | null {
  if (d.kind === 'row')
    return current
      ? { ...d.row, lastOpenAt: maxTime(current.lastOpenAt, d.row.lastOpenAt), lastClickAt: maxTime(current.lastClickAt, d.row.lastClickAt) }
      : d.row;
  if (d.kind === 'gone') return null;
  return current ? applyPartial(current, d) : null;
}

/**
 * The count now from a count stored as of `atIso` and the deltas written since (oldest first; any
 * older ones are skipped). Undefined when it cannot be moved exactly (past the horizon, a partial
 * change of a fact the definition reads, a delta written before `was` was recorded).
 */
export function countNow(
  stored: StoredCount & { at: string },
  deltas: StampedDelta[],
  definition: Definition,
  nowMs: number,
): { count: number; subscribed: number } | undefined {
  const atMs = Date.parse(stored.at);
  if (nowMs - atMs > COUNT_HORIZON_MS) return undefined;
  let count = stored.count;
  for (const [after, change] of stored.flips) if (atMs + after <= nowMs) count += change;
  let subscribed = stored.subscribed;
  const chains = new Map<string, StampedDelta[]>();
  for (const d of deltas) {
    if (d.stamp < stored.at) continue;
    const id = deltaId(d);
    const chain = chains.get(id);
    if (chain) chain.push(d);
    else chains.set(id, [d]);
  }
  const reads = partsRead(definition);
  const whole = (d: StampedDelta) => d.kind === 'row' || d.kind === 'gone';
  const relevant = (d: StampedDelta) => whole(d) || (d.kind === 'tags' ? reads.tags : reads.engagement);
  const member = (row: ContactFactRow | null) => (row?.status === 'subscribed' && matchesDefinition(definition, row, nowMs) ? 1 : 0);
  const isSubscribed = (row: ContactFactRow | null) => (row?.status === 'subscribed' ? 1 : 0);
  for (const chain of chains.values()) {
    const first = chain.findIndex(relevant);
    if (first < 0) continue; // only changes of facts the definition does not read (and never of status)
    const head = chain[first]!;
    // A tag batch or an engagement time the definition reads: the contact's state before it is not recorded.
    if (head.kind !== 'row' && head.kind !== 'gone') return undefined;
    if (head.was === undefined) return undefined;
    let current: ContactFactRow | null = head.was;
    for (const d of chain.slice(first)) current = apply(current, d);
    count += member(current) - member(head.was);
    // Status changes only through row and removal deltas, and `head` is the first of them.
    subscribed += isSubscribed(current) - isSubscribed(head.was);
  }
  return { count, subscribed };
}
