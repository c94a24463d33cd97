import { ConditionFailed, type Store } from '../store/store';
import type { Deps } from './context';
import { rateWindowEntity } from './entities';
import { tooManyRequests } from './errors';
import { slidingAllowance, windowStartOf } from './sliding-window';

/**
 * Per-account request limit (600 a minute by default), shared by every Lambda container and the
 * local runtime, without a write per request.
 *
 * - The count is a sliding-window counter: one DynamoDB item per account and minute holds the
 *   requests admitted in that minute; at a fraction f into minute W, W may have admitted at most
 *   `limit - count(W-1) * (1 - f)` so far. A fixed window lets a client spend the whole limit at
 *   the end of one minute and again at the start of the next (1,200 in a second); here a burst
 *   straddling a boundary by s seconds either side is held to `limit + limit * s / 60`.
 * - Containers do not count request by request: each reserves a block of tokens in the current
 *   minute's item with one conditional ADD (the condition is the estimate above, evaluated at the
 *   reservation), then spends the block locally. A block is valid only in the minute it was
 *   reserved in, so every admitted request is counted in the minute it ran in and the guarantee
 *   above holds exactly as for a request-by-request counter.
 *
 * Worst case: it never admits more than the sliding estimate allows. Against a true rolling
 * minute the estimate itself can be exceeded when the previous minute's requests all came at its
 * very end (it assumes them spread evenly): then a rolling minute can hold up to `limit * (1 + f)`
 * for the f reached, under 2× the limit but only spread over a whole minute, never as a burst.
 * Blocks cost the other way only: tokens reserved by one container and not spent are refused to
 * the others until the minute ends (at most `(containers - 1) × block` requests refused early).
 *
 * Cost: per container, account and minute one consistent read of the previous minute's count and
 * one write per block (block = limit / 30, between 1 and 1,000: 20 for 600 a minute, so 30 writes a
 * minute at the full rate instead of 600). The early refusals above stay within 1/30 of the limit
 * per other container at any limit; a cap of 50 made a high limit pay a write every 50 requests
 * (a fifth of DynamoDB Local's CPU under the bench's read load, issue 43) for no fairness gained. A refusal is remembered for one second, so a client
 * hammering past its limit costs at most one write a second per container.
 */
export const WINDOW_MS = 60_000;
const DENIAL_MEMORY_MS = 1000;

/** How many of the current window's requests the sliding estimate allows at `nowMs`. */
export const allowedInWindow = (limit: number, previousCount: number, nowMs: number): number => slidingAllowance(limit, previousCount, nowMs, WINDOW_MS);

export const windowOf = (nowMs: number) => windowStartOf(nowMs, WINDOW_MS);

/** Tokens a container reserves at once: 1/30 of the limit, between 1 and 1,000. */
export const blockSizeFor = (limit: number) => Math.max(1, Math.min(1000, Math.floor(limit / 30)));

/** The next block to reserve: never more than the estimate leaves, as far as this container knows. */
export function nextBlock(limit: number, allowed: number, lastSeenCount: number): number {
  return Math.min(blockSizeFor(limit), allowed - lastSeenCount);
}

interface Lease {
  windowStart: number;
  /** Tokens reserved and not yet spent. */
  left: number;
  previousCount?: number;
  /** The window's count as of this container's last reservation. */
  lastSeenCount: number;
  deniedUntil: number;
}

/** One container's leases. Two limiters over the same table behave as two Lambda containers. */
export class RateLimiter {
  private readonly leases = new Map<string, Lease>();
  /** One reservation at a time per account, so concurrent requests share a block instead of racing for several. */
  private readonly pending = new Map<string, Promise<void>>();

  constructor(private readonly deps: Pick<Deps, 'store' | 'clock'>) {}

  async consume(accountId: string, limit: number): Promise<void> {
    for (;;) {
      const nowMs = this.deps.clock.nowMs();
      const lease = this.leaseFor(accountId, nowMs);
      if (lease.left > 0) {
        lease.left--;
        return;
      }
      if (nowMs < lease.deniedUntil) throw refusal(limit);
      const inFlight = this.pending.get(accountId);
      if (inFlight) {
        await inFlight;
        continue;
      }
      const reservation = this.reserve(accountId, limit, lease, nowMs).finally(() => this.pending.delete(accountId));
      this.pending.set(accountId, reservation);
      await reservation;
    }
  }

  private leaseFor(accountId: string, nowMs: number): Lease {
    const windowStart = windowOf(nowMs);
    let lease = this.leases.get(accountId);
    if (!lease || lease.windowStart !== windowStart) {
      // Unspent tokens of a past window lapse with it.
      if (this.leases.size > 10_000) this.prune(windowStart);
      lease = { windowStart, left: 0, lastSeenCount: 0, deniedUntil: 0 };
      this.leases.set(accountId, lease);
    }
    return lease;
  }

  private prune(windowStart: number) {
    for (const [accountId, lease] of this.leases) if (lease.windowStart !== windowStart) this.leases.delete(accountId);
  }

  /** Reserves a block into the lease, or marks the lease refused for a second. */
  private async reserve(accountId: string, limit: number, lease: Lease, nowMs: number): Promise<void> {
    const store: Store = this.deps.store;
    lease.previousCount ??= (await rateWindowEntity.get(store, 'previousWindow', accountId, lease.windowStart - WINDOW_MS))?.count ?? 0;
    const allowed = allowedInWindow(limit, lease.previousCount, nowMs);
    for (let block = nextBlock(limit, allowed, lease.lastSeenCount); block >= 1; block = block > 1 ? 1 : 0) {
      try {
        const item = await store.update<{ count: number }>(
          rateWindowEntity.declaration.key(accountId, lease.windowStart),
          { set: { expiresAt: Math.floor(lease.windowStart / 1000) + 3 * 60 }, add: { count: block } },
          // The block fits only if the count after it stays within what the estimate allows now.
          { condition: 'attribute_not_exists(#count) OR #count <= :max', names: { '#count': 'count' }, values: { ':max': allowed - block } },
        );
        lease.lastSeenCount = item.count;
        lease.left += block;
        return;
      } catch (error) {
        if (!(error instanceof ConditionFailed)) throw error;
      }
    }
    // The estimate only loosens as the previous window's weight fades: look again in a second.
    lease.deniedUntil = nowMs + DENIAL_MEMORY_MS;
  }
}

// The estimate loosens continuously, so the honest advice is to look again when the refusal lapses.
const refusal = (limit: number) => tooManyRequests(DENIAL_MEMORY_MS / 1000, `Rate limit of ${limit} requests per minute exceeded`);

/** One limiter per store, that is per container (a Lambda container or the local runtime). */
const limiters = new WeakMap<Store, RateLimiter>();

export async function consumeRequest(deps: Deps, accountId: string, limit = deps.config.RATE_LIMIT_PER_MINUTE): Promise<void> {
  let limiter = limiters.get(deps.store.base);
  if (!limiter) {
    limiter = new RateLimiter({ ...deps, store: deps.store.base });
    limiters.set(deps.store.base, limiter);
  }
  await limiter.consume(accountId, limit);
}
