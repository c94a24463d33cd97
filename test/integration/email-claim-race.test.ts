import { beforeAll, describe, expect, it } from 'vitest';
import { deliverQueuedMail, mailTakeoverName } from '../../shared/email/delivery';
import { queueTransactional } from '../../shared/email/outbox';
import { claimQueuedMail, getQueuedMail } from '../../shared/email/repository';
import type { LocalAdapters } from '../../shared/composition/local-deps';
import type { Deps } from '../../shared/platform/context';
import type { Store } from '../../shared/store/store';
import { createTestDeps } from '../support/store';

// A queued mail's worker reads it, then claims it. Another worker can claim it in between; the one
// that lost must still watch it, or a winner that dies holding it would leave it `sending` with
// nothing to look at it again (shared/email/delivery.ts, deliverQueuedMail).

let deps: Deps;
let adapters: LocalAdapters;
const scope = { accountId: 'e'.repeat(24), mode: 'test' as const };

beforeAll(async () => {
  ({ deps, adapters } = await createTestDeps());
});

/** The deps of a worker whose first read of `id` is answered, then overtaken by another worker's claim. */
function overtakenAfterRead(id: string, nowMs: number): Deps {
  let overtaken = false;
  const store = new Proxy(deps.store, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (property !== 'get' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: Parameters<Store['get']>) => {
        const item = await target.get(...args);
        if (!overtaken) {
          overtaken = true;
          expect(
            await claimQueuedMail(target, scope, id, { nowMs, leaseUntil: nowMs + 60_000, updatedAt: new Date(nowMs).toISOString(), takeOver: false }),
          ).toBe(true);
        }
        return item;
      };
    },
  });
  return { ...deps, store };
}

describe('a queued mail claimed by another worker between the read and the claim', () => {
  it('is left to that worker, and watched: a timer at the end of its lease looks again', async () => {
    for (const once of [false, true]) {
      const to = `race-${once}@example.com`;
      const queued = await queueTransactional(deps, scope, { to: [to], subject: 'Access', text: 'Hello', once });
      const nowMs = deps.clock.nowMs();
      await deliverQueuedMail(overtakenAfterRead(queued.id!, nowMs), scope, queued.id!);
      expect(await adapters.email.list(to)).toEqual([]);
      expect(await getQueuedMail(deps.store, scope, queued.id!)).toMatchObject({ status: 'sending', leaseUntil: nowMs + 60_000 });
      expect(await adapters.scheduler.has(mailTakeoverName(scope, queued.id!)), `once: ${once}`).toBe(true);
    }
  });
});
