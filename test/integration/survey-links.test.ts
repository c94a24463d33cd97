import { describe, expect, it } from 'vitest';
import { createTestDeps } from '../support/store';
import { createAccount } from '../../shared/platform/accounts';
import { newEvent } from '../../shared/platform/events';
import type { OperationContext } from '../../shared/platform/context';
import { attributeSale, channelStats, createLink, unattributeSale } from '../../shared/links/service';
import { onOrderRefunded } from '../../shared/survey/service';
import * as surveyRepo from '../../shared/survey/repository';

const order = (id: string, amount: number, metadata: Record<string, unknown> = {}) => ({
  order: { id, createdAt: '2026-03-04T10:00:00.000Z' },
  amount,
  currency: 'USD',
  metadata,
});

describe('bus consumers count each event once', () => {
  it("attributes a sale once under redelivery and races, takes it back once on refund, and ignores another tenant's code", async () => {
    const { deps, clock } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'l@example.com', currency: 'USD', plan: 'tier3' });
    const other = await createAccount(deps.store, clock, { email: 'o@example.com', currency: 'USD', plan: 'tier3' });
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const ctx = { ...deps, scope, account, request: { baseUrl: 'http://127.0.0.1' } } as unknown as OperationContext;
    const link = await createLink(ctx, { channel: 'instagram', targetUrl: 'https://shop.example.com/', name: 'IG' });

    const sold = newEvent(scope, clock, 'order.completed', order('s1', 12.5, { trackedLink: link.code }));
    await Promise.all([attributeSale(deps, sold), attributeSale(deps, sold), attributeSale(deps, sold)]);
    await attributeSale(deps, sold);
    // The same code on another account's sale, and on the live mode, counts for nobody.
    await attributeSale(deps, newEvent({ accountId: other.accountId, mode: 'test' }, clock, 'order.completed', order('s2', 5, { trackedLink: link.code })));
    await attributeSale(deps, newEvent({ ...scope, mode: 'live' }, clock, 'order.completed', order('s3', 5, { trackedLink: link.code })));
    // A renewal is not a new attributed sale.
    await attributeSale(
      deps,
      newEvent(scope, clock, 'order.completed', {
        ...order('s4', 9, { trackedLink: link.code }),
        order: { id: 's4', billingReason: 'renewal', createdAt: '2026-03-04T10:00:00.000Z' },
      }),
    );

    const range = ['2026-03-01', '2026-03-31'] as const;
    expect((await channelStats(deps, scope, 'tier3', ...range)).channels).toEqual([{ channel: 'instagram', clicks: 0, visitors: 0, sales: 1, revenue: 12.5 }]);
    expect((await channelStats(deps, { accountId: other.accountId, mode: 'test' }, 'tier3', ...range)).channels).toEqual([]);
    expect((await channelStats(deps, { ...scope, mode: 'live' }, 'tier3', ...range)).channels).toEqual([]);

    const refunded = newEvent(scope, clock, 'order.refunded', { order: { id: 's1' } });
    await Promise.all([unattributeSale(deps, refunded), unattributeSale(deps, refunded)]);
    await unattributeSale(deps, newEvent(scope, clock, 'order.refunded', { order: { id: 's1' } })); // a second, partial refund
    expect((await channelStats(deps, scope, 'tier3', ...range)).channels).toEqual([]);
  });

  it('takes a refunded answer out of the survey counters once', async () => {
    const { deps, clock } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 's@example.com', currency: 'USD' });
    const scope = { accountId: account.accountId, mode: 'live' as const };
    const record = { saleId: 'sale1', day: '2026-03-04', revenueCents: 2000, shownAt: '2026-03-04T10:00:00.000Z' };
    await deps.store.transact(surveyRepo.firstAnswerOps(scope, record, { answerId: 'instagram', at: '2026-03-04T10:01:00.000Z' }));
    await deps.store.transact(surveyRepo.shownOps(scope, { ...record, saleId: 'sale2' }));
    const day = async () => (await surveyRepo.dayCounters(deps.store, scope, '2026-03-04', '2026-03-04'))[0]!;
    expect(await day()).toMatchObject({ shown: 2, answered: 1, revenueCents: 2000, 'a:instagram': 1, 'r:instagram': 2000 });

    const refund = newEvent(scope, clock, 'order.refunded', { order: { id: 'sale1' } });
    await Promise.all([onOrderRefunded(deps, refund), onOrderRefunded(deps, refund), onOrderRefunded(deps, refund)]);
    await onOrderRefunded(deps, newEvent(scope, clock, 'order.refunded', { order: { id: 'sale1' } }));
    expect(await day()).toMatchObject({ shown: 1, answered: 0, revenueCents: 0, 'a:instagram': 0, 'r:instagram': 0 });
    // The answer cannot come back in after the refund.
    await expect(deps.store.transact(surveyRepo.answerOps(scope, { ...record }, { answerId: 'instagram', at: '2026-03-05T00:00:00.000Z' }))).rejects.toThrow();
  });
});
