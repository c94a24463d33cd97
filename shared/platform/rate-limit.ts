import type { Deps } from './context';
import { rateWindowEntity } from './entities';
import { tooManyRequests } from './errors';

/**
 * Fixed one-minute window per account, counted with an atomic ADD on one item (1 WCU a request).
 * The window item expires by TTL shortly after the minute ends.
 */
export async function consumeRequest(deps: Deps, accountId: string, limit = deps.config.RATE_LIMIT_PER_MINUTE): Promise<void> {
  const nowMs = deps.clock.nowMs();
  const windowStart = Math.floor(nowMs / 60_000) * 60_000;
  const item = await deps.store.update<{ count: number }>(
    rateWindowEntity.declaration.key(accountId, windowStart),
    { set: { expiresAt: Math.floor(windowStart / 1000) + 120 }, add: { count: 1 } },
  );
  if (item.count > limit) {
    throw tooManyRequests(Math.max(1, Math.ceil((windowStart + 60_000 - nowMs) / 1000)), `Rate limit of ${limit} requests per minute exceeded`);
  }
}
