import { describe, expect, it } from 'vitest';
import { newSale, purchaseCustomer, receiptErasure, saleWrites } from '../../shared/sales/transaction';
import { locateSale } from '../../shared/sales/repository';
import { findReceipt } from '../../shared/storefront/reviews/repository';
import { keys } from '../../shared/store/keys';
import { toItem } from '../../shared/store/items';
import { createTestDeps } from '../support/store';

const buyer = { email: 'b@example.com', firstName: 'Ann', lastName: 'Lee', country: 'DE' };

async function completedSale(deps: Awaited<ReturnType<typeof createTestDeps>>['deps'], scope: { accountId: string; mode: 'test' | 'live' }, reviewLink = true) {
  const now = deps.clock.now().toISOString();
  const { customer, ops: customerOps } = await purchaseCustomer(deps, scope, { buyer, productId: 'p'.repeat(24), charged: true, now });
  const sale = newSale(
    deps.clock,
    scope,
    {
      type: 'one_time',
      productId: 'p'.repeat(24),
      productName: 'Course',
      subscriptionId: null,
      subscriberId: null,
      customerId: customer._id,
      buyerEmail: buyer.email,
      firstName: 'Ann',
      lastName: 'Lee',
      country: 'DE',
      amountCents: 4900,
      originalAmountCents: 4900,
      currency: 'usd',
      discountCode: null,
      paymentIntentId: `pi_${deps.clock.nowMs()}${Math.random()}`,
      planId: null,
      membershipId: null,
      paymentMethod: null,
      checkoutSessionId: null,
      clientReferenceId: null,
      metadata: {},
      free: false,
    },
    now,
  );
  const written = saleWrites(deps, scope, { sale, customer, countOrder: false, now, reviewLink });
  await deps.store.transact([...customerOps, ...written.ops]);
  return written;
}

/**
 * A sale's receipt capability lives on its locator (one scope-free item per sale, not two): the
 * token is the sale id and a secret; tokens of the release before keep working.
 */
describe('receipt capability on the sale locator', () => {
  it('resolves its token, refuses a wrong secret, erases the address, and reads receipts of the release before', async () => {
    const { deps, store } = await createTestDeps();
    const scope = { accountId: 'a'.repeat(24), mode: 'test' as const };
    const { sale, ops } = await completedSale(deps, scope);
    // The sale, its locator with the receipt, the payment pointer: no receipt item of its own.
    expect(ops.filter((op) => 'put' in op && String(op.put.PK).startsWith('CAP#receipt'))).toEqual([]);
    const token = sale.receiptToken!;
    expect(token).toMatch(new RegExp(`^${sale._id}[A-Za-z0-9]{32}$`));
    expect(await locateSale(store, sale._id)).toEqual(scope);
    expect(await findReceipt(store, token)).toEqual({
      accountId: scope.accountId,
      mode: 'test',
      saleId: sale._id,
      productId: 'p'.repeat(24),
      buyerEmail: buyer.email,
      customerId: sale.customerId,
    });
    const secret = token.slice(24);
    const wrong = `${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`;
    expect(await findReceipt(store, `${sale._id}${wrong}`)).toBeUndefined();
    const other = await completedSale(deps, scope);
    expect(await findReceipt(store, `${other.sale._id}${secret}`)).toBeUndefined();

    await store.transact([receiptErasure(token)]);
    expect(await findReceipt(store, token)).toMatchObject({ saleId: sale._id, buyerEmail: '' });

    // A receipt of the release before: its own item under its random token.
    const before = 'Z'.repeat(32);
    await store.put(
      toItem(keys.capability('receipt', before), 'ReceiptCapability', {
        accountId: scope.accountId,
        mode: 'live',
        saleId: 'f'.repeat(24),
        productId: 'p'.repeat(24),
        buyerEmail: 'old@example.com',
        customerId: null,
      }),
    );
    expect(await findReceipt(store, before)).toMatchObject({ mode: 'live', buyerEmail: 'old@example.com' });
    await store.transact([receiptErasure(before)]);
    expect(await findReceipt(store, before)).toMatchObject({ buyerEmail: '' });
  });

  it('keeps the receipt of a sale whose token stays off the sale (a renewal)', async () => {
    const { deps, store } = await createTestDeps();
    const scope = { accountId: 'b'.repeat(24), mode: 'live' as const };
    const { sale } = await completedSale(deps, scope, false);
    expect(sale.receiptToken).toBeUndefined();
    expect(await locateSale(store, sale._id)).toEqual(scope);
  });
});
