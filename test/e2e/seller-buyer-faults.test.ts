import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestRuntime, settleWithRetries } from '../support/runtime';
import { advanceDays, control, createOffer, createProduct, openCheckout, pay } from '../support/commerce';
import { inviteLink, tokenOf } from '../support/team';
import type { LocalRuntime } from '../../shared/local/runtime';
import { sentMails } from '../support/local';

/**
 * Faults a new seller and buyer met (issue 38), each replayed as they met it: receipts listed as
 * newsletter posts, mail without consent, a save offer taken again and again, invitees stranded on
 * a token page, funnel mails promising a discount that is not there, and missing refund and
 * new-sale notices.
 */

let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime({ RATE_LIMIT_PER_MINUTE: '100000' });
});
afterAll(async () => runtime?.stop());

const settle = () => settleWithRetries(runtime);
const unique = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const ok = async <T = any>(call: Promise<{ status: number; body: T; text: string }>, label: string): Promise<T> => {
  const res = await call;
  if (res.status >= 300) throw new Error(`${label}: ${res.status} ${res.text}`);
  return res.body;
};

/** The buyer's form post on the hosted checkout page (test card), as a browser sends it. */
async function payOnPage(url: string, fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries({ intent: 'pay', cardNumber: '4242424242424242', expiry: '12/40', cvc: '123', ...fields })) form.set(k, v);
  const res = await fetch(url, { method: 'POST', body: form, redirect: 'manual' });
  if (res.status !== 303) throw new Error(`pay on page: ${res.status} ${await res.text()}`);
}

describe('1. transactional mail is not a newsletter post', () => {
  it('a receipt is sent and counted but never listed as a post; POST /newsletters/send keeps its post', async () => {
    const account = await createTestAccount(runtime, 'tier2');
    const product = await createProduct(account, { name: 'Field guide', price: 12 });
    const buyer = unique('receipt');
    await pay(runtime, (await openCheckout(account, product._id)).id, { email: buyer });
    await settle();
    expect((await sentMails(runtime, buyer)).length).toBeGreaterThanOrEqual(1);

    const posts = await ok(account.test.get('/newsletters/posts'), 'posts');
    expect(posts.data).toEqual([]);
    const settings = await ok(account.test.get('/newsletters/settings'), 'settings');
    expect(settings.totalEmailsSent).toBeGreaterThanOrEqual(1);

    const sent = await ok(account.test.post('/newsletters/send', { to: unique('api'), subject: 'Hello', text: 'Hi there' }), 'send');
    const after = await ok(account.test.get('/newsletters/posts'), 'posts');
    expect(after.data.map((p: { _id: string; source: string }) => [p._id, p.source])).toEqual([[sent.id, 'api']]);
  });
});

describe('2. marketing mail only with consent', () => {
  it('the hosted checkout offers the opt-in as the seller set it, records the consent with its wording, and a newsletter reaches only those who consented', async () => {
    const account = await createTestAccount(runtime, 'tier2');
    const product = await createProduct(account, { name: 'Sticker pack', price: 5 });

    // Off: no box on the page.
    expect((await ok(account.test.put('/newsletters/settings', { checkoutOptIn: 'off' }), 'settings')).checkoutOptIn).toBe('off');
    const offPage = await (await fetch((await openCheckout(account, product._id)).url)).text();
    expect(offPage).not.toContain('name="marketingOptIn"');
    expect((await account.test.put('/newsletters/settings', { checkoutOptIn: 'always' })).status).toBe(400);

    // Pre-checked, with the seller's wording.
    const wording = 'Send me news and offers from Sticker Studio';
    await ok(account.test.put('/newsletters/settings', { checkoutOptIn: 'checked', checkoutOptInWording: wording }), 'settings');
    const checkedPage = await (await fetch((await openCheckout(account, product._id)).url)).text();
    expect(checkedPage).toMatch(/<input[^>]*name="marketingOptIn"[^>]*checked/);
    expect(checkedPage).toContain(wording);

    // Unchecked: shown, not ticked.
    await ok(account.test.put('/newsletters/settings', { checkoutOptIn: 'unchecked' }), 'settings');
    const yesSession = await openCheckout(account, product._id);
    const page = await (await fetch(yesSession.url)).text();
    expect(page).toContain('name="marketingOptIn"');
    expect(page).not.toMatch(/<input[^>]*name="marketingOptIn"[^>]*checked/);
    const yes = unique('yes');
    const no = unique('no');
    await payOnPage(yesSession.url, { email: yes, marketingOptIn: 'on' });
    await payOnPage((await openCheckout(account, product._id)).url, { email: no });
    const manual = unique('manual');
    await ok(account.test.post('/newsletters/subscribers', { email: manual }), 'subscriber');
    await settle();

    // A discount code and the tick together: the code's use and the consent land on the session in
    // one write (a transaction may touch an item once), and both are kept.
    await ok(
      account.test.post('/discounts', { name: 'Spring', code: 'SPRING10', valueType: 'percentage', value: 10, mainProductIds: [product._id] }),
      'discount',
    );
    const withCode = unique('code');
    const paidWithCode = await pay(runtime, (await openCheckout(account, product._id, { discountCode: 'SPRING10' })).id, {
      email: withCode,
      marketingOptIn: true,
    });
    expect(paidWithCode.saleId).toBeTruthy();
    await settle();
    const sale = await ok(account.test.get(`/orders/${paidWithCode.saleId}`), 'order');
    expect(sale).toMatchObject({ discountCode: 'SPRING10' });

    const contacts = (await ok(account.test.get('/newsletters/subscribers?limit=100'), 'contacts')).data as {
      email: string;
      source: string;
      consent: { source: string; wording: string; optedInAt: string } | null;
    }[];
    const byEmail = new Map(contacts.map((c) => [c.email, c]));
    expect(byEmail.get(yes)).toMatchObject({ source: 'checkout', consent: { source: 'checkout', wording } });
    expect(byEmail.get(no)).toMatchObject({ source: 'checkout', consent: null });
    expect(byEmail.get(withCode)).toMatchObject({ source: 'checkout', consent: { source: 'checkout', wording } });
    // The consent reached the contact on the order's event, for this deployment's consumers only:
    // the order the seller's API shows (and a webhook delivers) says nothing of it.
    const orders = (await ok(account.test.get('/events?type=order.completed&limit=100'), 'events')).events as Record<string, unknown>[];
    const ofYes = orders.find((e) => (e.customer as { email?: string } | undefined)?.email === yes);
    expect(ofYes).toBeTruthy();
    expect(JSON.stringify(ofYes)).not.toMatch(/internal|marketingConsent|wording/);

    // Another account's setting and contacts are its own.
    const other = await createTestAccount(runtime, 'tier2');
    expect((await ok(other.test.get('/newsletters/settings'), 'settings')).checkoutOptIn).toBe('unchecked');
    expect((await ok(account.live.get('/newsletters/settings'), 'settings')).checkoutOptIn).toBe('unchecked');

    const post = await ok(account.test.post('/newsletters/posts', { subject: 'Our spring news', html: '<p>New stickers</p>' }), 'post');
    await ok(account.test.post(`/newsletters/posts/${post._id}/send`, {}), 'send');
    await settle();
    const news = async (to: string) => (await sentMails(runtime, to)).filter((m) => m.subject === 'Our spring news');
    expect(await news(yes)).toHaveLength(1);
    expect(await news(manual)).toHaveLength(1);
    expect(await news(no)).toHaveLength(0);

    // A funnel's sequence is marketing too: a lead from a free checkout gets it only with the tick.
    const magnet = await createProduct(account, { name: 'Free stickers', price: 0 });
    const course = await createProduct(account, { name: 'Sticker course', price: 25 });
    const funnel = await ok(
      account.test.post('/funnels', {
        templateId: 'welcome',
        leadMagnetProductId: magnet._id,
        offerProductId: course._id,
        offerUrl: 'https://shop.example.com/course',
      }),
      'funnel',
    );
    await ok(account.test.post(`/funnels/${funnel._id}/activate`, {}), 'activate');
    const [leadYes, leadNo] = [unique('lead-yes'), unique('lead-no')];
    await pay(runtime, (await openCheckout(account, magnet._id)).id, { email: leadYes, marketingOptIn: true });
    await pay(runtime, (await openCheckout(account, magnet._id)).id, { email: leadNo });
    await settle();
    const welcome = async (to: string) => (await sentMails(runtime, to)).filter((m) => m.subject.startsWith('Here is'));
    expect(await welcome(leadYes)).toHaveLength(1);
    expect(await welcome(leadNo)).toHaveLength(0);
  });
});

describe('3. a save offer is taken once, and the portal shows what is charged next', () => {
  it('after a discount is accepted the cancel flow offers nothing again, a second accept is refused, and the next charge is the discounted price', async () => {
    const account = await createTestAccount(runtime, 'tier3');
    const offerId = (await createOffer(account, { name: 'Studio', price: 20, frequency: 'monthly' }))._id;
    await ok(
      account.test.put(`/subscription-retention/offers/${offerId}`, {
        saveOffers: { enabled: true, pauseMaxMonths: 2, discountPercent: 20, discountMonths: 2 },
      }),
      'offers',
    );
    const email = unique('stay');
    const { subscriberId } = (await pay(runtime, (await openCheckout(account, offerId)).id, { email })) as { subscriberId: string };
    await settle();
    const sub = (await account.test.get(`/subscriptions/subscribers/${subscriberId}`)).body;
    const token = new URL(sub.portalUrl).searchParams.get('token')!;
    const cancel = (body: Record<string, unknown>) => control(runtime).post(`/subscriptions/sub/portal/${subscriberId}/cancel?token=${token}`, body);

    const first = await cancel({ saveOffer: { kind: 'discount' }, reason: 'too_expensive' });
    expect(first.status, first.text).toBe(200);
    await settle();

    const portal = await (await fetch(sub.portalUrl)).json();
    expect(portal.saveOffers).toBeNull();
    const html = await (await fetch(sub.portalUrl, { headers: { accept: 'text/html' } })).text();
    expect(html).toMatch(/id="next-charge">Next charge: <strong>\$16\.00<\/strong>/);

    const again = await cancel({ saveOffer: { kind: 'discount' } });
    expect(again.status, again.text).toBe(409);
    expect(again.body.code).toBe('SAVE_OFFER_USED');
    const pause = await cancel({ saveOffer: { kind: 'pause', months: 1 } });
    expect(pause.status, pause.text).toBe(409);

    // The two discounted renewals, then the regular price again on the page.
    await advanceDays(runtime, 31);
    await advanceDays(runtime, 31);
    await settle();
    const later = await (await fetch(sub.portalUrl, { headers: { accept: 'text/html' } })).text();
    expect(later).toMatch(/id="next-charge">Next charge: <strong>\$20\.00<\/strong>/);
    const report = await ok(account.test.get('/subscription-retention/save-offers/report?days=90'), 'report');
    expect(report).toMatchObject({ savedCount: 1, saved: { discount: 1 } });
  }, 240_000);
});

describe('4. an invitee lands in the dashboard with areas to use', () => {
  it('accepting signs the person in to the dashboard (no raw token) and an invite that grants no area is refused with the reason', async () => {
    const account = await createTestAccount(runtime, 'tier3');
    const team = await ok(account.live.post('/team/teams', { name: 'Catalog', areas: ['products'] }), 'team');

    const empty = await account.live.post('/team/invites', { email: unique('nothing'), role: 'member' });
    expect(empty.status, empty.text).toBe(400);
    expect(empty.body.code).toBe('INVITE_GRANTS_NOTHING');
    expect(empty.body.error).toMatch(/no area/i);
    expect((await ok(account.live.get('/team'), 'team')).invites).toEqual([]);

    const email = unique('mate');
    await ok(account.live.post('/team/invites', { email, role: 'member', teamIds: [team._id] }), 'invite');
    const link = await inviteLink(runtime, email);
    const joined = await fetch(`${runtime.url}/team/join`, {
      method: 'POST',
      body: new URLSearchParams({ token: tokenOf(link), name: 'Mo Mate' }),
      redirect: 'manual',
    });
    expect(joined.status).toBe(303);
    const location = new URL(joined.headers.get('location')!, runtime.url);
    expect(location.pathname).toBe('/dashboard/sign-in');
    const body = await joined.text();
    expect(body).not.toContain('Bearer');

    const session = await control(runtime).post('/dashboard/auth/session', { token: location.searchParams.get('token') });
    expect(session.status, session.text).toBe(200);
    expect(session.body.stores).toEqual([expect.objectContaining({ accountId: account.accountId, mode: 'live', role: 'member', areas: ['products'] })]);
    // The sign-in link works once.
    expect((await control(runtime).post('/dashboard/auth/session', { token: location.searchParams.get('token') })).status).toBe(410);
  });
});

describe('5. funnel templates promise only what is there', () => {
  it('without a discount no mail speaks of one; with one, the mails carry its code', async () => {
    const account = await createTestAccount(runtime, 'tier2');
    const magnet = await createProduct(account, { name: 'Free guide', price: 0 });
    const course = await createProduct(account, { name: 'Course', price: 50 });
    for (const templateId of ['welcome', 'minicourse', 'launch']) {
      const funnel = await ok(
        account.test.post('/funnels', { templateId, leadMagnetProductId: magnet._id, offerProductId: course._id, offerUrl: 'https://shop.example.com/course' }),
        'funnel',
      );
      for (const id of funnel.emailPostIds as string[]) {
        const post = await ok(account.test.get(`/newsletters/posts/${id}`), 'post');
        expect(`${post.subject} ${post.html}`, templateId).not.toMatch(/discount/i);
      }
    }
    const withCode = await ok(
      account.test.post('/funnels', {
        templateId: 'welcome',
        leadMagnetProductId: magnet._id,
        offerProductId: course._id,
        offerUrl: 'https://shop.example.com/course',
        discount: { code: 'SPRING-20', valueType: 'percentage', value: 20 },
      }),
      'funnel',
    );
    const last = await ok(account.test.get(`/newsletters/posts/${withCode.emailPostIds[4]}`), 'post');
    expect(last.html).toContain('discount=SPRING-20');
    expect(last.html).toMatch(/discount/i);
  });
});

describe('6. buyer and seller notices', () => {
  it('the buyer gets a refund mail; the seller gets a new-sale mail until they turn it off', async () => {
    const seller = unique('seller');
    const account = await createTestAccount(runtime, 'tier2', seller);
    const product = await createProduct(account, { name: 'Pattern book', price: 30 });
    const buyer = unique('buyer');
    const { saleId } = (await pay(runtime, (await openCheckout(account, product._id)).id, { email: buyer, firstName: 'Bo' })) as { saleId: string };
    await settle();

    const sale = (await sentMails(runtime, seller)).filter((m) => /new sale/i.test(m.subject));
    expect(sale).toHaveLength(1);
    expect(sale[0]!.subject).toContain('Pattern book');
    expect(sale[0]!.text).toContain('$30.00');
    expect(sale[0]!.text).toContain(buyer);
    expect(sale[0]!.text).not.toContain(saleId);

    expect((await control(runtime).post(`/_local/sales/${saleId}/refund`, { amountCents: 1000 })).status).toBe(200);
    await settle();
    const refunds = (await sentMails(runtime, buyer)).filter((m) => /refund/i.test(m.subject));
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.subject).toContain('Pattern book');
    expect(refunds[0]!.text).toContain('$10.00');
    expect(refunds[0]!.text).not.toContain(saleId);

    // Turned off: the next sale mails the buyer a receipt, the seller nothing.
    const off = await ok(account.test.put('/newsletters/settings', { saleNotifications: false }), 'settings');
    expect(off.saleNotifications).toBe(false);
    const second = unique('buyer');
    await pay(runtime, (await openCheckout(account, product._id)).id, { email: second });
    await settle();
    expect((await sentMails(runtime, second)).length).toBeGreaterThanOrEqual(1);
    expect((await sentMails(runtime, seller)).filter((m) => /new sale/i.test(m.subject))).toHaveLength(1);
  });
});
