import { isConditionFailed } from '../store/conditional';
import { keys } from '../store/keys';
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

const switchTimes = new WeakMap<Store, Promise<number>>();

async function readSwitchTime(store: Store, clock: Clock): Promise<number> {
  const key = keys.layout(LAYOUT);
  const found = await store.get(key, { consistent: true });
  if (found) return Date.parse(found.since as string);
  const since = clock.now().toISOString();
  try {
    await store.put({ ...key, entity: 'KeyLayout', since }, { condition: 'attribute_not_exists(PK)' });
    logger.info('processed markers: this table now writes one partition per marker', { since });
    return Date.parse(since);
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return Date.parse((await store.get(key, { consistent: true }))!.since as string);
  }
}

function switchTime(store: Store, clock: Clock): Promise<number> {
  let known = switchTimes.get(store.base);
  if (!known) {
    known = readSwitchTime(store, clock);
    known.catch(() => switchTimes.delete(store.base));
    switchTimes.set(store.base, known);
  }
  return known;
}

/**
 * Whether an earlier release already processed this event or notification (`createdSeconds`: when
 * it was created). Only events older than the layout switch can have an old-layout marker.
 */
export async function processedBeforeUpgrade(deps: { store: Store; clock: Clock }, consumer: string, id: string, createdSeconds: number): Promise<boolean> {
  if (createdSeconds * 1000 >= (await switchTime(deps.store, deps.clock)) + ROLLING_DEPLOY_MS) return false;
  return Boolean(await deps.store.get(keys.processedBefore(consumer, id), { consistent: true }));
}

/** The marker of this layout, or the old layout's for an event from before the upgrade. */
export async function markerSeen(deps: { store: Store; clock: Clock }, consumer: string, id: string, createdSeconds: number): Promise<boolean> {
  if (await deps.store.get(keys.processed(consumer, id), { consistent: true })) return true;
  return processedBeforeUpgrade(deps, consumer, id, createdSeconds);
}
