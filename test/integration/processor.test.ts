import { allEvents } from '../../shared/events/repository';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../shared/platform/accounts';
import { productCreateBody } from '../../shared/catalog/schemas';
import { createProduct, type CatalogCtx } from '../../shared/catalog/service';
import { createCheckoutSession } from '../../shared/checkout/service';
import { getSession } from '../../shared/checkout/repository';
import type { OperationContext } from '../../shared/platform/context';
import { receiveNotification } from '../../shared/processor/ingress';
import { SANDBOX_NOTIFICATION_SECRET, SIGNATURE_HEADER, sign } from '../../shared/adapters/processor-sandbox/signing';
import { customersPageOf, salesPageOf } from '../../shared/sales/repository';
import type { SaleRecord } from '../../shared/sales/records';
import type { Store } from '../../shared/store/store';
import type { Scope } from '../../shared/store/keys';

const listSales = async (store: Store, scope: Scope, type?: SaleRecord['type']) => (await salesPageOf(store, scope, type, { limit: 1000 })).items;
const listCustomers = async (store: Store, scope: Scope) => (await customersPageOf(store, scope, {}, { limit: 1000 })).items;
import { createTestDeps } from '../support/store';

let ctx: OperationContext;

beforeAll(async () => {
  const { deps } = await createTestDeps();
  const account = await createAccount(deps.store, deps.clock, { email: 'seller@example.com' });
  ctx = {
    ...deps,
    account,
    scope: { accountId: account.accountId, mode: 'test' },
    request: { requestId: 'r', method: 'POST', path: '/', headers: {}, rawBody: '', sourceIp: '127.0.0.1', baseUrl: 'https://api.example.com' },
  };
});

function deliver(notification: Record<string, unknown>, secret = SANDBOX_NOTIFICATION_SECRET) {
  const rawBody = JSON.stringify(notification);
  const headers = { [SIGNATURE_HEADER]: sign(secret, Math.floor(ctx.clock.nowMs() / 1000), rawBody) };
  return receiveNotification(ctx, { rawBody, headers, baseUrl: 'https://api.example.com' }, JSON.parse(rawBody));
}

describe('processor ingress on DynamoDB Local', () => {
  it('applies racing deliveries of one checkout.completed exactly once', async () => {
    const product = await createProduct(ctx as unknown as CatalogCtx, productCreateBody.parse({ name: 'Ebook', price: 7 }));
    const session = await createCheckoutSession(ctx, {
      productId: product._id,
      successUrl: 'https://s.example.com',
      cancelUrl: 'https://c.example.com',
      metadata: { k: 'v' },
    });
    const notification = {
      id: 'ntf_race_integration_000001',
      type: 'checkout.completed',
      created: Math.floor(ctx.clock.nowMs() / 1000),
      accountId: ctx.scope.accountId,
      mode: 'test',
      data: {
        checkoutId: 'cs_x',
        sessionId: session.id,
        buyer: { email: 'Racer@Example.com', firstName: 'R', lastName: null, country: 'NL' },
        paymentMethod: { id: 'payt_x', type: 'card', brand: 'visa', last4: '4242', expMonth: 1, expYear: 2030 },
        savedCard: false,
        payment: { id: 'pay_integration00000000000001', amountCents: 700, currency: 'USD', planId: 'plan_x' },
        membership: null,
      },
    };
    const results = await Promise.all(Array.from({ length: 5 }, () => deliver(notification)));
    // One applies it; every racing loser is told it is a duplicate.
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    expect(await deliver(notification)).toEqual({ received: true, duplicate: true });

    const sales = await listSales(ctx.store, ctx.scope, 'one_time');
    expect(sales).toHaveLength(1);
    expect(sales[0]).toMatchObject({
      amountCents: 700,
      buyerEmail: 'racer@example.com',
      metadata: { k: 'v' },
      paymentIntentId: 'pay_integration00000000000001',
    });
    const customers = await listCustomers(ctx.store, ctx.scope);
    expect(customers).toHaveLength(1);
    expect(customers[0]!.numberOfOrders).toBe(1);
    expect(await getSession(ctx.store, ctx.scope, session.id)).toMatchObject({ status: 'completed', saleId: sales[0]!._id });
    const outbox = await allEvents(ctx.store, ctx.scope);
    expect(outbox.filter((e) => e.type === 'order.completed')).toHaveLength(1);
    expect(outbox.filter((e) => e.type === 'customer.created')).toHaveLength(1);
  });

  it('refuses a notification signed with another secret and changes nothing', async () => {
    const before = (await listSales(ctx.store, ctx.scope)).length;
    await expect(
      deliver(
        {
          id: 'ntf_forged',
          type: 'payment.disputed',
          created: 1,
          accountId: ctx.scope.accountId,
          mode: 'test',
          data: { paymentId: 'pay_integration00000000000001' },
        },
        'not-the-secret',
      ),
    ).rejects.toMatchObject({ status: 400 });
    const sales = await listSales(ctx.store, ctx.scope);
    expect(sales).toHaveLength(before);
    expect(sales[0]!.status).toBe('completed');
  });
});
