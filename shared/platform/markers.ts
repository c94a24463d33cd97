import { isConditionFailed } from '../store/conditional';
import { keys, type Key } from '../store/keys';
import type { Store } from '../store/store';
import type { Clock } from './clock';
import { logger } from './logger';

/**
 * Consumer idempotency markers across the key-layout change of processed markers.
 *
 * Markers now live one per partition (`keys.processed`). A table upgraded from an earlier release
 * still holds markers in the old layout (one partition per consumer) for up to their TTL, and an
 * event processed before the upgrade may be delivered again after it. So an event created before
 * this table switched layouts (plus an hour for a rolling deploy, when old code still writes the
 * old layout) is also looked up in the old layout. The switch time is written once per table,
 * by the first consumer that asks, and cached per container: no read per event on a new table.
 */
const LAYOUT = 'processed-markers-v2';
const ROLLING_DEPLOY_MS = 3_600_000;

const switchTimes = new WeakMap<Store, Map<string, Promise<number>>>();

async function readSwitchTime(store: Store, clock: Clock, layout: string): Promise<number> {
  const key = keys.layout(layout);
  const found = await store.get(key, { consistent: true });
  if (found) return Date.parse(found.since as string);
  const since = clock.now().toISOString();
  try {
    await store.put({ ...key, entity: 'KeyLayout', since }, { condition: 'attribute_not_exists(PK)' });
    logger.info('key layout switched on this table', { layout, since });
    return Date.parse(since);
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return Date.parse((await store.get(key, { consistent: true }))!.since as string);
  }
}

function switchTime(store: Store, clock: Clock, layout: string): Promise<number> {
  const ofStore = switchTimes.get(store.base) ?? new Map<string, Promise<number>>();
  switchTimes.set(store.base, ofStore);
  let known = ofStore.get(layout);
  if (!known) {
    known = readSwitchTime(store, clock, layout);
    known.catch(() => ofStore.delete(layout));
    ofStore.set(layout, known);
  }
  return known;
}

/**
 * Whether the guard an earlier release wrote for this work (`earlier`: its key) exists, for work
 * that now guards itself another way (`layout`: the name of that way, e.g. a mail whose id is its
 * own once-guard). Only something created (`createdSeconds`) before this table first ran the new
 * way, plus an hour of rolling deploy, can have one: anything newer answers false with no read.
 */
export async function guardedBeforeLayout(deps: { store: Store; clock: Clock }, layout: string, earlier: Key, createdSeconds: number): Promise<boolean> {
  if (createdSeconds * 1000 >= (await switchTime(deps.store, deps.clock, layout)) + ROLLING_DEPLOY_MS) return false;
  return Boolean(await deps.store.get(earlier, { consistent: true }));
}

/**
 * Whether an earlier release already processed this event or notification (`createdSeconds`: when
 * it was created). Only events older than the layout switch can have an old-layout marker.
 */
export function processedBeforeUpgrade(deps: { store: Store; clock: Clock }, consumer: string, id: string, createdSeconds: number): Promise<boolean> {
  return guardedBeforeLayout(deps, LAYOUT, keys.processedBefore(consumer, id), createdSeconds);
}

/** The marker of this layout, or the old layout's for an event from before the upgrade. */
export async function markerSeen(deps: { store: Store; clock: Clock }, consumer: string, id: string, createdSeconds: number): Promise<boolean> {
  if (await deps.store.get(keys.processed(consumer, id), { consistent: true })) return true;
  return processedBeforeUpgrade(deps, consumer, id, createdSeconds);
}
