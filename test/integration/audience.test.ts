import { describe, expect, it } from 'vitest';
import { createTestDeps } from '../support/store';
import { createAccount } from '../../shared/platform/accounts';
import { newEvent } from '../../shared/platform/events';
import { addTags, findContactByEmail, removeTags, upsertContact } from '../../shared/audience/service';
import { recordSaleFacts } from '../../shared/audience/sale-facts';
import { recordRefund } from '../../shared/audience/sale-adjustments';

const sale = (email: string, productId: string, amount: number, currency = 'USD', country = 'de') => ({
  order: { id: 'o1', productId, createdAt: '2026-01-02T03:04:05.000Z' },
  amount,
  currency,
  product: { id: productId },
  customer: { email, firstName: 'Ada', lastName: 'L', country },
});

describe('audience facts from sales', () => {
  it('a committed sale creates the buyer contact with its facts; a redelivered event changes nothing; a second sale adds up', async () => {
    const { deps, clock } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'c@example.com', currency: 'USD' });
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const first = newEvent(scope, clock, 'order.completed', sale('Buyer@Example.com', 'p1', 12.5));
    await recordSaleFacts(deps, first);
    await recordSaleFacts(deps, first); // the bus delivers at least once
    let contact = await findContactByEmail(deps, scope, 'buyer@example.com');
    expect(contact).toMatchObject({
      email: 'buyer@example.com',
      source: 'checkout',
      status: 'subscribed',
      name: 'Ada L',
      country: 'DE',
      totalSpentCents: 1250,
      productIds: ['p1'],
      firstPurchaseAt: '2026-01-02T03:04:05.000Z',
    });

    // Racing deliveries of another event still count it once.
    const second = newEvent(scope, clock, 'order.completed', {
      ...sale('buyer@example.com', 'p2', 7),
      order: { id: 'o2', productId: 'p2', createdAt: '2026-02-01T00:00:00.000Z' },
    });
    await Promise.all([recordSaleFacts(deps, second), recordSaleFacts(deps, second), recordSaleFacts(deps, second)]);
    // A sale in another currency is not summed into the account-currency total.
    await recordSaleFacts(deps, newEvent(scope, clock, 'order.completed', sale('buyer@example.com', 'p2', 100, 'EUR')));
    contact = await findContactByEmail(deps, scope, 'buyer@example.com');
    expect(contact).toMatchObject({
      totalSpentCents: 1950,
      productIds: ['p1', 'p2'],
      firstPurchaseAt: '2026-01-02T03:04:05.000Z',
      lastPurchaseAt: '2026-02-01T00:00:00.000Z',
    });

    // The live mode and other accounts see nothing of it.
    expect(await findContactByEmail(deps, { ...scope, mode: 'live' }, 'buyer@example.com')).toBeUndefined();
  });

  it('a refund takes its amount off once under racing deliveries, never below zero, never in another currency, scope or for an unknown buyer', async () => {
    const { deps, clock } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'c@example.com', currency: 'USD' });
    const scope = { accountId: account.accountId, mode: 'test' as const };
    await recordSaleFacts(deps, newEvent(scope, clock, 'order.completed', sale('r@example.com', 'p1', 30)));
    const refund = (amount: number, currency = 'USD', email = 'R@example.com') =>
      newEvent(scope, clock, 'order.refunded', { refund: { id: 're_1', amount, full: false }, amount, currency, customer: { email } });
    const first = refund(12.5);
    await Promise.all([recordRefund(deps, first), recordRefund(deps, first), recordRefund(deps, first)]);
    await recordRefund(deps, first);
    expect(await findContactByEmail(deps, scope, 'r@example.com')).toMatchObject({ totalSpentCents: 1750 });
    await recordRefund(deps, refund(5, 'EUR'));
    await recordRefund(deps, refund(5, 'USD', 'nobody@example.com'));
    await recordRefund(deps, { ...refund(5), mode: 'live' });
    expect(await findContactByEmail(deps, scope, 'r@example.com')).toMatchObject({ totalSpentCents: 1750 });
    expect(await findContactByEmail(deps, scope, 'nobody@example.com')).toBeUndefined();
    await recordRefund(deps, refund(50));
    expect(await findContactByEmail(deps, scope, 'r@example.com')).toMatchObject({ totalSpentCents: 0 });
  });

  it('an existing contact keeps its source, status and name; smart tags are taken back without hand-typed ones', async () => {
    const { deps, clock } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'c@example.com' });
    const scope = { accountId: account.accountId, mode: 'live' as const };
    const { contact } = await upsertContact(deps, scope, { email: 'f@example.com', source: 'form', status: 'unsubscribed', name: 'Fay', tags: ['hand'] });
    await recordSaleFacts(deps, newEvent(scope, clock, 'order.completed', sale('f@example.com', 'p1', 5)));
    const after = (await findContactByEmail(deps, scope, 'f@example.com'))!;
    expect(after).toMatchObject({ _id: contact._id, source: 'form', status: 'unsubscribed', name: 'Fay', totalSpentCents: 500 });
    await addTags(deps, scope, contact._id, ['hand', 'smart'], { smart: true });
    const tagged = await removeTags(deps, scope, contact._id, ['hand', 'smart'], { smart: true });
    expect(tagged.tags).toEqual(['hand']);
  });

  it("the consent on an order's event is written with its facts, once under racing deliveries; an unsubscribed buyer is subscribed again", async () => {
    const { deps, clock } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'c@example.com', currency: 'USD' });
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const consent = { source: 'checkout', wording: 'Send me news', optedInAt: '2026-01-02T03:04:05.000Z' };
    const order = { ...newEvent(scope, clock, 'order.completed', sale('new@example.com', 'p1', 10)), internal: { marketingConsent: consent } };
    await Promise.all([recordSaleFacts(deps, order), recordSaleFacts(deps, order)]);
    await recordSaleFacts(deps, order);
    expect(await findContactByEmail(deps, scope, 'new@example.com')).toMatchObject({
      status: 'subscribed',
      consent,
      totalSpentCents: 1000,
      productIds: ['p1'],
    });

    await upsertContact(deps, scope, { email: 'back@example.com', source: 'form', status: 'unsubscribed' });
    await recordSaleFacts(deps, { ...newEvent(scope, clock, 'order.completed', sale('back@example.com', 'p2', 3)), internal: { marketingConsent: consent } });
    expect(await findContactByEmail(deps, scope, 'back@example.com')).toMatchObject({ status: 'subscribed', source: 'form', consent, totalSpentCents: 300 });
    // A malformed note is ignored: the sale still counts, no consent is made up.
    await recordSaleFacts(deps, {
      ...newEvent(scope, clock, 'order.completed', sale('odd@example.com', 'p3', 1)),
      internal: { marketingConsent: { wording: 5 } },
    });
    expect(await findContactByEmail(deps, scope, 'odd@example.com')).toMatchObject({ consent: null, totalSpentCents: 100 });
  });
});
