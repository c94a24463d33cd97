import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createTestAccount, startTestRuntime, settleWithRetries } from '../support/runtime';
import type { LocalRuntime } from '../../shared/local/runtime';
import { sentMails } from '../support/local';

let runtime: LocalRuntime;
let ctl: ApiClient;
beforeAll(async () => {
  runtime = await startTestRuntime();
  ctl = new ApiClient(runtime.url);
});
afterAll(async () => runtime?.stop());

const settle = () => settleWithRetries(runtime);
const advanceHours = async (h: number) => {
  await ctl.post('/_local/clock/advance', { seconds: h * 3600 });
  await settle();
};

describe('funnels', () => {
  it('create → activate → a lead from a free checkout gets the welcome sequence at its times; errors; stats', { timeout: 300_000 }, async () => {
    const account = await createTestAccount(runtime, 'tier2');
    const api = account.test;
    const magnet = (await api.post('/products', { name: 'Free guide', price: 0 })).body;
    const offer = (await api.post('/products', { name: 'Course', price: 50 })).body;
    expect((await api.get('/funnels/templates')).body.map((t: any) => [t.id, t.emails.length])).toEqual([
      ['welcome', 5],
      ['minicourse', 4],
      ['launch', 3],
    ]);

    const body = {
      templateId: 'welcome',
      leadMagnetProductId: magnet._id,
      offerProductId: offer._id,
      offerUrl: 'https://shop.example.com/course',
      discount: { code: 'WELCOME-20', valueType: 'percentage', value: 20 },
    };
    expect((await api.post('/funnels', { ...body, leadMagnetProductId: offer._id })).body.code).toBe('LEAD_MAGNET_NOT_FREE');
    expect((await api.post('/funnels', { ...body, offerProductId: magnet._id })).body.code).toBe('OFFER_NOT_PAID');
    expect((await api.post('/funnels', { ...body, discount: { ...body.discount, code: 'x' } })).status).toBe(400);
    const free = await createTestAccount(runtime, 'free');
    expect((await free.test.post('/funnels', body)).body.code).toBe('FEATURE_LOCKED');

    const created = await api.post('/funnels', body);
    expect(created.status, created.text).toBe(201);
    const funnel = created.body;
    expect(funnel).toMatchObject({ status: 'draft', name: 'Free guide → Course' });
    expect(funnel.emailPostIds).toHaveLength(5);
    expect((await api.post('/funnels', body)).body.code).toBe('DISCOUNT_CODE_TAKEN');
    expect((await account.live.get(`/funnels/${funnel._id}`)).status).toBe(404);
    expect((await api.put(`/funnels/${funnel._id}`, { name: 'Guide funnel' })).body.name).toBe('Guide funnel');

    await ctl.patch(`/_local/accounts/${account.accountId}`, { senderVerified: false });
    expect((await api.post(`/funnels/${funnel._id}/activate`, {})).body.code).toBe('SENDER_NOT_VERIFIED');
    await ctl.patch(`/_local/accounts/${account.accountId}`, { senderVerified: true });
    const act = await api.post(`/funnels/${funnel._id}/activate`, {});
    expect(act.status, act.text).toBe(200);

    const lead = `lead-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const session = (await api.post('/checkout/sessions', { productId: magnet._id, successUrl: 'https://x.example.com', cancelUrl: 'https://x.example.com' }))
      .body;
    // The lead ticks the newsletter box of the checkout: the sequence is marketing mail.
    await ctl.post(`/_local/checkout/${session.id}/pay`, { email: lead, firstName: 'Lea', marketingOptIn: true });
    await settle();
    expect((await sentMails(runtime, lead)).filter((m) => /Here is/.test(m.subject))).toHaveLength(1);
    const leadEvents = (await ctl.get(`/_local/events?accountId=${account.accountId}&mode=test&type=funnel.lead`)).body.events;
    expect(leadEvents).toHaveLength(1);
    expect(leadEvents[0].data.lead).toMatchObject({ email: lead, subscribed: true, tag: funnel.tag });

    const counts = [];
    for (const h of [23, 1, 47, 1, 47, 1, 47, 1]) {
      await advanceHours(h);
      counts.push((await sentMails(runtime, lead)).length);
    }
    // One mail right away, then at 24, 72, 120 and 168 hours, never early.
    expect(counts).toEqual([1, 2, 2, 3, 3, 4, 4, 5]);
    const offerMail = (await sentMails(runtime, lead)).find((m) => /Ready for the next step/.test(m.subject))!;
    const click = [...offerMail.html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&')).find((u) => u.includes('/email/click/'))!;
    const redirect = await fetch(click, { redirect: 'manual' });
    expect(redirect.headers.get('location')).toBe('https://shop.example.com/course?discount=WELCOME-20');

    // A discounted purchase counts; a refunded one does not.
    const buy = async (email: string) => {
      const s = (
        await api.post('/checkout/sessions', {
          productId: offer._id,
          discountCode: 'WELCOME-20',
          successUrl: 'https://x.example.com',
          cancelUrl: 'https://x.example.com',
        })
      ).body;
      return (await ctl.post(`/_local/checkout/${s.id}/pay`, { email })).body;
    };
    await buy(lead);
    await settle();
    let stats = (await api.get(`/funnels/${funnel._id}/stats`)).body;
    expect(stats.totals).toMatchObject({ leads: 1, emailsSent: 5, purchases: 1, buyers: 1, revenue: 40, conversionRate: 100 });
    expect(stats.totals.clicks).toBe(1);
    expect(stats.emails.map((e: any) => e.sent)).toEqual([1, 1, 1, 1, 1]);
    const second = await buy(lead);
    await settle();
    await ctl.post(`/_local/sales/${second.saleId}/refund`, {});
    await settle();
    stats = (await api.get(`/funnels/${funnel._id}/stats`)).body;
    expect(stats.totals).toMatchObject({ purchases: 1, buyers: 1, revenue: 40 });

    // Automation deleted → SEQUENCE_MISSING; downgraded → PAID_PLAN_REQUIRED first.
    await api.post(`/funnels/${funnel._id}/pause`, {});
    expect((await api.delete(`/automations/${funnel.automationId}`)).status).toBe(200);
    expect((await api.post(`/funnels/${funnel._id}/activate`, {})).body.code).toBe('SEQUENCE_MISSING');
    await ctl.patch(`/_local/accounts/${account.accountId}`, { plan: 'free' });
    expect((await api.post(`/funnels/${funnel._id}/activate`, {})).body.code).toBe('PAID_PLAN_REQUIRED');
  });
});
