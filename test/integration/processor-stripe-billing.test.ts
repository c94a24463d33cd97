import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../shared/platform/accounts';
import type { Deps } from '../../shared/platform/context';
import { setProcessorSettings } from '../../shared/processor/settings';
import type { Scope } from '../../shared/store/keys';
import { FakeStripe } from '../support/fake-stripe';
import { liveSubscription } from '../support/stripe-live';
import { createTestDeps } from '../support/store';

/**
 * The port's usage, retention and credits methods on Stripe, against the stateful fake: each
 * change is checked by what Stripe then bills when the fake's clock passes the renewals.
 */
const DAY = 86_400;
let fake: FakeStripe;
let deps: Deps;
let live: Scope;
let now = Math.floor(Date.parse('2027-01-10T12:00:00Z') / 1000);

const subscribe = (tag: string, options: Parameters<typeof liveSubscription>[4] = {}) => liveSubscription(deps, fake, live, tag, options);
/** Moves the fake's clock and lets Stripe bill what fell due. */
function advance(days: number) {
  now += days * DAY;
  fake.tick();
}
const invoicesOf = (sub: string) =>
  fake.model.list('invoice', (i) => i.parent?.subscription_details?.subscription === sub).map((i) => [i.billing_reason, i.status, i.amount_due]);

beforeAll(async () => {
  fake = await new FakeStripe().start();
  fake.clock = () => now;
  ({ deps } = await createTestDeps({ STRIPE_API_URL: fake.url }));
  const account = await createAccount(deps.store, deps.clock, { email: 'billing@example.com' });
  live = { accountId: account.accountId, mode: 'live' };
  await setProcessorSettings({ store: deps.store, clock: deps.clock, encryption: deps.ports.encryption }, live, {
    provider: 'stripe',
    secrets: { secretKey: 'rk_live_billing', webhookSecret: 'whsec_billing' },
  });
});
afterAll(() => fake.stop());

describe('usage and seat charges', () => {
  it("charge the subscription's card off-session once per attempt, even when the attempt is asked for twice", async () => {
    const { membershipId, sub, card } = await subscribe('usage');
    fake.take();
    const input = { amountCents: 1250, currency: 'USD', description: 'Usage Jan', reference: 'usage-sub1-2027-01-1' };
    const first = await deps.ports.processor.chargeMembership!(live, membershipId, input);
    const again = await deps.ports.processor.chargeMembership!(live, membershipId, input);
    expect(again).toEqual(first);
    expect(first.paymentMethod).toEqual(card);
    const posts = fake.take().filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.idempotencyKey)).toEqual([
      `cc-membership-charge-${sub}-usage-sub1-2027-01-1`,
      `cc-membership-charge-${sub}-usage-sub1-2027-01-1`,
    ]);
    expect(posts[0]!.form).toMatchObject({
      amount: '1250',
      currency: 'usd',
      off_session: 'true',
      confirm: 'true',
      payment_method: fake.objects[sub]!.default_payment_method,
    });
    expect(fake.model.list('payment_intent', (p) => p.amount === 1250)).toHaveLength(1);
    // The payment is ours: a refund of it goes through the port.
    await deps.ports.processor.refund(live, first.paymentId, 250);
    expect(fake.model.list('charge', (c) => c.amount === 1250)[0]!.amount_refunded).toBe(250);
  });

  it('a declining card, an expired card and a missing card are declines, never a fault', async () => {
    const declining = await subscribe('usage-decl');
    fake.setCardDeclining(declining.pm, true);
    await expect(
      deps.ports.processor.chargeMembership!(live, declining.membershipId, { amountCents: 100, currency: 'USD', description: 'x' }),
    ).rejects.toMatchObject({ name: 'ProcessorError', code: 'declined' });
    const expired = await subscribe('usage-exp');
    fake.objects[expired.pm]!._cardNumber = '4000000000000069';
    await expect(
      deps.ports.processor.chargeMembership!(live, expired.membershipId, { amountCents: 100, currency: 'USD', description: 'x' }),
    ).rejects.toMatchObject({ code: 'declined', reason: 'expired_card' });
    const none = await subscribe('usage-none');
    fake.objects[none.sub]!.default_payment_method = null;
    await expect(
      deps.ports.processor.chargeMembership!(live, none.membershipId, { amountCents: 100, currency: 'USD', description: 'x' }),
    ).rejects.toMatchObject({ code: 'declined', reason: 'missing_payment_method' });
  });
});

describe('changes of coming renewals', () => {
  it('a lower price for the next 2 payments is a repeating coupon: 2 discounted renewals, then the full price', async () => {
    const { membershipId, sub } = await subscribe('discount');
    // The buyer accepts the offer a little after subscribing (the coupon's months count from then).
    now += 3600;
    await deps.ports.processor.adjustMembership!(live, membershipId, { nextPayments: { amountCents: 600, payments: 2 } });
    const coupon = fake.model.list('coupon').at(-1)!;
    expect(coupon).toMatchObject({ amount_off: 300, duration: 'repeating', duration_in_months: 2 });
    for (let i = 0; i < 3; i++) advance(31);
    expect(invoicesOf(sub)).toEqual([
      ['subscription_create', 'paid', 900],
      ['subscription_cycle', 'paid', 600],
      ['subscription_cycle', 'paid', 600],
      ['subscription_cycle', 'paid', 900],
    ]);
  });

  it('skipping 2 renewals pauses collection until the end of the skipped periods; the membership is not paused', async () => {
    const { membershipId, sub } = await subscribe('skip');
    now += 3600;
    // While one skip runs, another is refused (as in the sandbox: only a membership in good standing).
    const end = fake.objects[sub]!.items.data[0].current_period_end;
    const after = await deps.ports.processor.adjustMembership!(live, membershipId, { skipPeriods: 2 });
    const expected = new Date(end * 1000);
    expected.setUTCMonth(expected.getUTCMonth() + 2);
    expect(after).toMatchObject({ paused: false, status: 'active', currentPeriodEnd: expected.toISOString() });
    await expect(deps.ports.processor.adjustMembership!(live, membershipId, { skipPeriods: 1 })).rejects.toMatchObject({ code: 'invalid' });
    for (let i = 0; i < 3; i++) advance(31);
    expect(invoicesOf(sub)).toEqual([
      ['subscription_create', 'paid', 900],
      ['subscription_cycle', 'void', 900],
      ['subscription_cycle', 'void', 900],
      ['subscription_cycle', 'paid', 900],
    ]);
    // Once collection has resumed, the membership may skip again.
    await expect(deps.ports.processor.adjustMembership!(live, membershipId, { skipPeriods: 1 })).resolves.toBeTruthy();
  });

  it('the yearly switch happens at the next renewal through a schedule, with no proration', async () => {
    const { membershipId, sub } = await subscribe('yearly');
    await deps.ports.processor.adjustMembership!(live, membershipId, { switchAtNextRenewal: { interval: 'yearly', amountCents: 9000 } });
    expect(
      fake.objects[fake.objects[sub]!.schedule]!.phases.map((p: { items: { price: string }[] }) => fake.objects[p.items[0]!.price]!.recurring.interval),
    ).toEqual(['month', 'year']);
    advance(31);
    const live1 = await deps.ports.processor.getMembership(live, membershipId);
    expect(live1).toMatchObject({ interval: 'yearly', amountCents: 9000, status: 'active' });
    expect(invoicesOf(sub)).toEqual([
      ['subscription_create', 'paid', 900],
      ['subscription_cycle', 'paid', 9000],
    ]);
  });

  it('void and pause: the failed renewal is voided and collection paused; only a past-due membership has one', async () => {
    const { membershipId, sub, pm } = await subscribe('void');
    await expect(deps.ports.processor.adjustMembership!(live, membershipId, { voidAndPause: true })).rejects.toMatchObject({ code: 'invalid' });
    fake.setCardDeclining(pm, true);
    advance(31);
    expect(fake.objects[sub]!.status).toBe('past_due');
    const after = await deps.ports.processor.adjustMembership!(live, membershipId, { voidAndPause: true });
    expect(after).toMatchObject({ status: 'active', paused: true });
    expect(invoicesOf(sub).at(-1)).toEqual(['subscription_cycle', 'void', 900]);
    advance(31);
    expect(invoicesOf(sub).at(-1)).toEqual(['subscription_cycle', 'void', 900]);
  });

  it('on a canceled membership every change is refused as invalid', async () => {
    const { membershipId } = await subscribe('ended');
    await deps.ports.processor.cancelMembership(live, membershipId, { atPeriodEnd: false });
    await expect(deps.ports.processor.adjustMembership!(live, membershipId, { nextPayments: { amountCents: 100, payments: 1 } })).rejects.toMatchObject({
      code: 'invalid',
    });
  });
});

describe('credits consent withdrawn', () => {
  it('detaches the saved card from the customer; later top-offs with it are refused', async () => {
    const { card, pm } = await subscribe('credits');
    await deps.ports.processor.detachSavedCard!(live, card.id);
    expect(fake.objects[pm]!.customer).toBeNull();
    await expect(
      deps.ports.processor.chargeSavedCard(live, { paymentMethodId: card.id, amountCents: 500, currency: 'USD', description: 'top-off' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    // Twice is fine.
    await deps.ports.processor.detachSavedCard!(live, card.id);
  });
});
