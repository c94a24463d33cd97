import { randomUUID } from 'node:crypto';
import type { Deps } from '../platform/context';
import { conflict } from '../platform/errors';
import { toItem } from '../store/items';
import { keys, type Scope } from '../store/keys';
import { ConditionFailed } from '../store/store';

/**
 * One change of a subscriber at a time. A change calls the processor and then writes the record;
 * two changes interleaving (cancel, resume) could leave the processor with one outcome and the
 * record with the other. The lease is an item taken with a conditional write and held across the
 * processor call and the write; a holder that dies lets it lapse after LEASE_MS (and the table's TTL
 * removes it).
 */
const SUBSCRIBER_LEASE = 'SUBSCRIBER_LEASE';
export const LEASE_MS = 30_000;
/** How long a change waits for the one ahead of it before answering 409. */
const WAIT_MS = 25_000;

const leaseKey = (scope: Scope, subscriberId: string) => keys.entity(scope, SUBSCRIBER_LEASE, subscriberId);

async function acquire(deps: Deps, scope: Scope, subscriberId: string, holder: string): Promise<boolean> {
  const nowMs = deps.clock.nowMs();
  try {
    await deps.store.put(
      toItem(leaseKey(scope, subscriberId), 'SubscriberLease', { holder, until: nowMs + LEASE_MS }, { expiresAt: Math.ceil((nowMs + LEASE_MS) / 1000) + 3600 }),
      {
        condition: 'attribute_not_exists(PK) OR #until < :now',
        names: { '#until': 'until' },
        values: { ':now': nowMs },
      },
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}

async function release(deps: Deps, scope: Scope, subscriberId: string, holder: string) {
  await deps.store.delete(leaseKey(scope, subscriberId), { condition: 'holder = :me', values: { ':me': holder } }).catch((error) => {
    // Lapsed and taken by another change: it is theirs now.
    if (!(error instanceof ConditionFailed)) throw error;
  });
}

/** Runs `change` holding the subscriber's lease; waits (briefly, with jitter) for a current holder. */
export async function withSubscriberLease<T>(deps: Deps, scope: Scope, subscriberId: string, change: () => Promise<T>): Promise<T> {
  const holder = randomUUID();
  // The wait is measured in real time: the service clock may be a test clock that stands still.
  const deadline = performance.now() + WAIT_MS;
  let pause = 10;
  while (!(await acquire(deps, scope, subscriberId, holder))) {
    if (performance.now() > deadline) throw conflict('Another change of this subscription is in progress; retry shortly', 'CONCURRENT_UPDATE');
    await new Promise((r) => setTimeout(r, pause + Math.random() * pause));
    pause = Math.min(pause * 2, 200);
  }
  try {
    return await change();
  } finally {
    await release(deps, scope, subscriberId, holder);
  }
}
