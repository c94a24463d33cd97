import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { logger } from '../../shared/platform/logger';
import { randomHex } from '../../shared/platform/ids';
import { control, createTestAccount, settleWithRetries, startTestRuntime } from '../support/runtime';
import { sentMails } from '../support/local';

// The platform's own mails (sign-in links, invites) when the mail service refuses them: seen
// (logged with the reason), retried on the platform-mail queue, dead-lettered after its last
// attempt; the sign-in route still answers 202, as for any address.
let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(async () => runtime?.stop());

const unique = (name: string) => `${name}-${randomHex(4)}@example.com`;
const refusals = (spy: { mock: { calls: unknown[][] } }, kind: string) =>
  spy.mock.calls.filter(([message, fields]) => message === 'platform mail refused' && (fields as { kind: string }).kind === kind);

describe('a refused platform mail', () => {
  it('is logged with the reason and retried: the sign-in link arrives once the mailbox takes it, and the route said 202 all along', {
    timeout: 120_000,
  }, async () => {
    const email = unique('owner');
    await createTestAccount(runtime, 'tier3', email);
    const spy = vi.spyOn(logger, 'error');
    try {
      runtime.adapters.email.failFor.add(email);
      const asked = await control(runtime).post('/dashboard/auth/magic-link', { email });
      expect(asked.status).toBe(202);
      expect(asked.body).toEqual({ sent: true });
      expect(await sentMails(runtime, email)).toEqual([]);
      const [[, fields]] = refusals(spy, 'sign-in') as [[string, { reason: string; retry: boolean }]];
      expect(fields).toMatchObject({ retry: false, reason: expect.stringMatching(/Mailbox unavailable/) });
      // Neither the address nor the link is in the log line.
      expect(JSON.stringify(fields)).not.toContain(email);

      runtime.adapters.email.failFor.delete(email);
      await settleWithRetries(runtime);
      const [mail] = await sentMails(runtime, email);
      expect(mail?.text).toMatch(/\/dashboard\/sign-in\?token=/);
      expect(mail?.from).toBe('no-reply@creator-commerce.localhost');
    } finally {
      spy.mockRestore();
    }
  });

  it('dead-letters an invite mail refused on every attempt, each refusal logged; the invite stands', { timeout: 150_000 }, async () => {
    const owner = await createTestAccount(runtime, 'tier3', unique('boss'));
    const mate = unique('mate');
    const spy = vi.spyOn(logger, 'error');
    try {
      runtime.adapters.email.failFor.add(mate);
      const invited = await owner.live.post('/team/invites', { email: mate, role: 'admin', teamIds: [] });
      expect(invited.status, invited.text).toBe(201);
      expect(invited.body.emailSent).toBe(false);
      await settleWithRetries(runtime);
      // The first send and the queue's five receives.
      expect(refusals(spy, 'invite').map(([, fields]) => (fields as { retry: boolean }).retry)).toEqual([false, true, true, true, true, true]);
      const dead = runtime.adapters.queue.deadLetters.filter((d) => d.queue === 'platform-mail' && (d.message as { kind: string }).kind === 'invite');
      expect(dead).toHaveLength(1);
      expect(dead[0]!.message).toMatchObject({ kind: 'invite', message: { to: [mate] } });
      expect((await owner.live.get('/team')).body.invites.map((i: { email: string }) => i.email)).toContain(mate);
    } finally {
      runtime.adapters.email.failFor.delete(mate);
      spy.mockRestore();
    }
  });
});
