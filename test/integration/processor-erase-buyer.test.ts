import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../shared/platform/accounts';
import type { Deps } from '../../shared/platform/context';
import { setProcessorSettings } from '../../shared/processor/settings';
import type { Scope } from '../../shared/store/keys';
import { FakeStripe } from '../support/fake-stripe';
import { liveSubscription } from '../support/stripe-live';
import { createTestDeps } from '../support/store';

/** The processor's part of a buyer's erasure on Stripe (port.ts `eraseBuyer`), against the stateful fake. */
let fake: FakeStripe;
let deps: Deps;
let live: Scope;

beforeAll(async () => {
  fake = await new FakeStripe().start();
  ({ deps } = await createTestDeps({ STRIPE_API_URL: fake.url }));
  const account = await createAccount(deps.store, deps.clock, { email: 'erase@example.com' });
  live = { accountId: account.accountId, mode: 'live' };
  await setProcessorSettings({ store: deps.store, clock: deps.clock, encryption: deps.ports.encryption }, live, {
    provider: 'stripe',
    secrets: { secretKey: 'rk_live_erase', webhookSecret: 'whsec_erase' },
  });
});
afterAll(() => fake.stop());

describe('erasing a buyer on Stripe', () => {
  it("unsets the customer's address and name, detaches the card, keeps the subscription and payments; twice changes nothing more", async () => {
    const buyer = await liveSubscription(deps, fake, live, 'gone');
    const other = await liveSubscription(deps, fake, live, 'stays');
    expect(fake.objects[buyer.customer]!.email).toBe('gone@example.com');
    fake.take();

    await deps.ports.processor.eraseBuyer!(live, { email: 'gone@example.com', paymentMethodIds: [buyer.card.id, 'pay_not_a_card', buyer.card.id] });
    const customer = fake.objects[buyer.customer]!;
    expect(customer).toMatchObject({ email: null, name: null, phone: null, description: null, address: null, shipping: null });
    expect(fake.objects[buyer.pm]!.customer).toBeNull();
    // The books stay: the subscription and its invoices are Stripe's records of money.
    expect(fake.objects[buyer.sub]).toBeTruthy();
    const posts = fake.take().filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.path)).toEqual([`/v1/customers/${buyer.customer}`, `/v1/payment_methods/${buyer.pm}/detach`]);
    expect(posts[0]!.idempotencyKey).toBe(`cc-erase-${buyer.customer}`);
    // Another buyer of the same seller is untouched.
    expect(fake.objects[other.customer]!.email).toBe('stays@example.com');
    expect(fake.objects[other.pm]!.customer).toBe(other.customer);

    // Again (a resumed erasure): the card no longer names its customer, so nothing is sent.
    await deps.ports.processor.eraseBuyer!(live, { email: 'gone@example.com', paymentMethodIds: [buyer.card.id] });
    expect(fake.take().filter((r) => r.method === 'POST')).toEqual([]);
  });
});
