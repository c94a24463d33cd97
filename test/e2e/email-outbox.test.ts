import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createTestAccount, startTestRuntime, settleWithRetries } from '../support/runtime';
import type { LocalRuntime } from '../../shared/local/runtime';
import { suppressEmail } from '../../shared/audience/suppression';
import { deliverQueuedMail } from '../../shared/email/delivery';
import { queueTransactional } from '../../shared/email/outbox';
import { claimQueuedMail, countSentOp, getQueuedMail, getSentMail, INTERRUPTED_REASON, queuedMailPut, sentMailPut } from '../../shared/email/repository';
import { objectId } from '../../shared/platform/ids';
import type { Store } from '../../shared/store/store';
import { sentMails } from '../support/local';

// Transactional mail other capabilities queue (shared/email/outbox.ts), delivered by the email
// capability's own consumer: at most once per mail, provider faults retried by the bus and then
// dead-lettered (a redrive sends it), suppressed addresses and an unverified sender respected.

let runtime: LocalRuntime;
let ctl: ApiClient;
beforeAll(async () => {
  runtime = await startTestRuntime();
  ctl = new ApiClient(runtime.url);
});
afterAll(async () => runtime?.stop());

const unique = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const settle = () => settleWithRetries(runtime);

describe('queued transactional mail', () => {
  it('is checked when queued, delivered once by the email worker, and recorded as sent mail, never as a newsletter post', { timeout: 90_000 }, async () => {
    const account = await createTestAccount(runtime);
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const [a, b, blocked] = [unique('a'), unique('b'), unique('blocked')];
    await suppressEmail(runtime.deps, scope, blocked, 'bounce');

    await expect(queueTransactional(runtime.deps, scope, { to: ['not-an-address'], subject: 'x', text: 'y' })).rejects.toMatchObject({ status: 400 });
    await expect(queueTransactional(runtime.deps, scope, { to: [a], subject: ' ', text: 'y' })).rejects.toMatchObject({ status: 400 });
    expect(await queueTransactional(runtime.deps, scope, { to: [blocked], subject: 'x', text: 'y' })).toEqual({ id: null, accepted: [] });

    const queued = await queueTransactional(runtime.deps, scope, {
      to: [a, b.toUpperCase(), blocked, a],
      subject: 'Your access',
      html: '<p>Hello <a href="https://example.com/x">there</a></p><script>x()</script>',
      source: 'membership',
    });
    expect(queued.accepted).toEqual([a, b]);
    expect((await getQueuedMail(runtime.deps.store, scope, queued.id!))?.status).toBe('queued');
    await settle();

    for (const to of [a, b]) {
      const [mail, ...more] = await sentMails(runtime, to);
      expect(more).toEqual([]);
      expect(mail!.subject).toBe('Your access');
      expect(mail!.html).not.toContain('<script');
      expect(mail!.html).toContain('/email/click/');
      expect(mail!.headers?.['List-Unsubscribe']).toContain('/email/unsubscribe/');
    }
    expect(await sentMails(runtime, blocked)).toEqual([]);
    expect(await getSentMail(runtime.deps.store, scope, queued.id!)).toMatchObject({ _id: queued.id, sent: 2, source: 'membership', subject: 'Your access' });
    expect((await account.test.get(`/newsletters/posts/${queued.id}`)).status).toBe(404);
    expect((await account.test.get('/newsletters/posts')).body.data).toEqual([]);
    expect((await account.test.get('/newsletters/settings')).body.totalEmailsSent).toBe(2);

    // A redelivered event (or a second worker) finds the mail sent: nothing goes twice.
    await deliverQueuedMail(runtime.deps, scope, queued.id!);
    expect(await sentMails(runtime, a)).toHaveLength(1);
    expect((await getQueuedMail(runtime.deps.store, scope, queued.id!))?.status).toBe('sent');

    // Another account and mode cannot reach the mail.
    const stranger = await createTestAccount(runtime);
    expect(await getSentMail(runtime.deps.store, { accountId: stranger.accountId, mode: 'test' }, queued.id!)).toBeUndefined();
    expect(await getSentMail(runtime.deps.store, { ...scope, mode: 'live' }, queued.id!)).toBeUndefined();
    await deliverQueuedMail(runtime.deps, { accountId: stranger.accountId, mode: 'test' }, queued.id!);
    expect(await sentMails(runtime, a)).toHaveLength(1);
  });

  it('retries a provider fault through the bus, dead-letters it, and sends it once on redrive', { timeout: 90_000 }, async () => {
    const account = await createTestAccount(runtime);
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const refused = unique('refused');
    await ctl.post('/_local/emails/refuse', { emails: [refused] });
    const queued = await queueTransactional(runtime.deps, scope, { to: [refused], subject: 'Receipt', text: 'Thanks' });
    await settle();
    expect(await sentMails(runtime, refused)).toEqual([]);
    const held = await getQueuedMail(runtime.deps.store, scope, queued.id!);
    // The first attempt and the bus's retries each reached the provider and put the mail back.
    expect(held).toMatchObject({ status: 'queued' });
    expect(held!.attempts).toBe(4); // locally: the first delivery and three retries (0.2, 1, 3 s)
    const letters = (await ctl.get('/_local/dead-letters')).body.deadLetters as { queue: string; eventId?: string }[];
    expect(letters.some((d) => d.queue === 'consumer:email-transactional' && d.eventId === queued.id)).toBe(true);

    await ctl.post('/_local/emails/refuse', { emails: [refused], refuse: false });
    // A worker holding it (its lease running), as after a crash mid-send: another delivery of the
    // event sends nothing and sets a timer at the lease's end; that timer finds the holder gone and
    // takes the mail over.
    const now = runtime.deps.clock.nowMs();
    const claim = (leaseUntil: number) =>
      claimQueuedMail(runtime.deps.store, scope, queued.id!, { nowMs: now, leaseUntil, updatedAt: new Date(now).toISOString(), takeOver: true });
    expect(await claim(now + 60_000)).toBe(true);
    expect(await claim(now + 1)).toBe(false);
    await deliverQueuedMail(runtime.deps, scope, queued.id!);
    await settle();
    expect(await sentMails(runtime, refused)).toEqual([]);
    await ctl.post('/_local/clock/advance', { seconds: 62 });
    await settle();
    expect(await sentMails(runtime, refused)).toHaveLength(1);
    expect((await getQueuedMail(runtime.deps.store, scope, queued.id!))?.status).toBe('sent');
    // The dead-lettered event, redriven, finds it sent.
    await ctl.post('/_local/dead-letters/redrive', { queue: 'consumer:email-transactional' });
    await settle();
    expect(await sentMails(runtime, refused)).toHaveLength(1);
    expect(await getSentMail(runtime.deps.store, scope, queued.id!)).toMatchObject({ sent: 1 });
  });

  it('never sends an at-most-once mail twice: a delivery a crash interrupted is failed, not taken over', { timeout: 90_000 }, async () => {
    const account = await createTestAccount(runtime);
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const [to, other] = [unique('once'), unique('again')];
    const queued = await queueTransactional(runtime.deps, scope, { to: [to], subject: 'New post', text: 'Hello', source: 'membership', once: true });
    // A worker claimed it and died before recording the outcome (the provider may have accepted it).
    const now = runtime.deps.clock.nowMs();
    const claim = (id: string, takeOver: boolean) =>
      claimQueuedMail(runtime.deps.store, scope, id, { nowMs: now, leaseUntil: now + 60_000, updatedAt: new Date(now).toISOString(), takeOver });
    expect(await claim(queued.id!, false)).toBe(true);
    await settle();
    expect(await sentMails(runtime, to)).toEqual([]);
    expect((await getQueuedMail(runtime.deps.store, scope, queued.id!))?.status).toBe('sending');

    // Once the lease is over, the takeover timer finds it interrupted: failed, never sent again.
    await ctl.post('/_local/clock/advance', { seconds: 62 });
    await settle();
    expect(await sentMails(runtime, to)).toEqual([]);
    expect(await getQueuedMail(runtime.deps.store, scope, queued.id!)).toMatchObject({ status: 'failed', failureReason: INTERRUPTED_REASON, once: true });
    // A claim without takeover cannot reach a mail another worker is sending, even past its lease.
    const held = await queueTransactional(runtime.deps, scope, { to: [other], subject: 'Held', text: 'x', once: true });
    expect(await claim(held.id!, false)).toBe(true);
    const later = runtime.deps.clock.nowMs() + 120_000;
    expect(
      await claimQueuedMail(runtime.deps.store, scope, held.id!, {
        nowMs: later,
        leaseUntil: later + 60_000,
        updatedAt: new Date(later).toISOString(),
        takeOver: false,
      }),
    ).toBe(false);
  });

  it('records the rest of a mail as failed, not retried, when the provider refuses a call after an earlier one was accepted', { timeout: 90_000 }, async () => {
    const account = await createTestAccount(runtime);
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const recipients = Array.from({ length: 100 }, (_, i) => unique(`part${i}`));
    const email = runtime.deps.ports.email;
    const sendBulk = email.sendBulk.bind(email);
    let calls = 0;
    email.sendBulk = async (message) => {
      calls += 1;
      if (calls === 2) throw new Error('Throttling: maximum sending rate exceeded');
      return sendBulk(message);
    };
    try {
      const queued = await queueTransactional(runtime.deps, scope, { to: recipients, subject: 'Half', text: 'x' });
      await settle();
      expect(calls).toBe(2);
      const received = await Promise.all(recipients.map(async (to) => (await sentMails(runtime, to)).length));
      // The first call's 50 got it once; the refused call's 50 are not retried (a retry would repeat the first 50).
      expect(received.filter((n) => n === 1)).toHaveLength(50);
      expect(received.filter((n) => n === 0)).toHaveLength(50);
      expect(await getSentMail(runtime.deps.store, scope, queued.id!)).toMatchObject({ sent: 50 });
      expect((await getQueuedMail(runtime.deps.store, scope, queued.id!))?.status).toBe('sent');
    } finally {
      email.sendBulk = sendBulk;
    }
  });

  it('fails a mail for good when the sender is not verified, without retrying it', { timeout: 60_000 }, async () => {
    const account = await createTestAccount(runtime);
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const to = unique('unverified');
    await ctl.patch(`/_local/accounts/${account.accountId}`, { senderVerified: false });
    const queued = await queueTransactional(runtime.deps, scope, { to: [to], subject: 'Hi', text: 'Hello' });
    await settle();
    expect(await sentMails(runtime, to)).toEqual([]);
    expect(await getQueuedMail(runtime.deps.store, scope, queued.id!)).toMatchObject({ status: 'failed', attempts: 0 });
    expect(await getSentMail(runtime.deps.store, scope, queued.id!)).toBeUndefined();
  });

  it('a mail taken over while its first worker, only slow, records it is recorded and counted once', { timeout: 60_000 }, async () => {
    const account = await createTestAccount(runtime);
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const to = unique('slow');
    const deps = runtime.deps;
    const id = objectId(deps.clock);
    const nowMs = deps.clock.nowMs();
    const at = new Date(nowMs).toISOString();
    // Queued without the event that wakes the worker: only this test's two workers deliver it.
    const mail = {
      _id: id,
      to: [to],
      subject: 'Receipt',
      html: null,
      text: 'Thanks',
      preview: null,
      fromName: null,
      replyTo: null,
      source: 'receipt' as const,
    };
    const queued = {
      ...mail,
      baseUrl: null,
      track: true,
      once: false,
      status: 'queued' as const,
      failureReason: null,
      attempts: 0,
      createdAt: at,
      updatedAt: at,
    };
    await deps.store.transact([queuedMailPut(scope, queued, {}, Math.floor(nowMs / 1000))]);
    // The first worker claimed it and is still sending when its lease runs out.
    expect(await claimQueuedMail(deps.store, scope, id, { nowMs, leaseUntil: nowMs - 1, updatedAt: at, takeOver: false })).toBe(true);
    const before = (await account.test.get('/newsletters/settings')).body.totalEmailsSent as number;
    // A second worker takes it over; right after its claim, the first one records its send.
    let recorded = false;
    const store = new Proxy(deps.store, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (property !== 'update' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
        return async (...args: Parameters<Store['update']>) => {
          const result = await target.update(...args);
          if (!recorded) {
            recorded = true;
            const sent = { _id: id, subject: 'Receipt', source: 'receipt' as const, sent: 1, opened: 0, clicked: 0, sentAt: at };
            await target.transact([sentMailPut(scope, sent), countSentOp(scope, 1)]);
          }
          return result;
        };
      },
    });
    await deliverQueuedMail({ ...deps, store }, scope, id);
    expect(recorded).toBe(true);
    // The taker's copy went out (the one case of a second copy, see deliverQueuedMail); it is not counted again.
    expect(await sentMails(runtime, to)).toHaveLength(1);
    expect((await account.test.get('/newsletters/settings')).body.totalEmailsSent).toBe(before + 1);
    expect(await getSentMail(deps.store, scope, id)).toMatchObject({ sent: 1 });
    expect((await getQueuedMail(deps.store, scope, id))?.status).toBe('sent');
    await deliverQueuedMail(deps, scope, id);
    expect(await sentMails(runtime, to)).toHaveLength(1);
  });
});
