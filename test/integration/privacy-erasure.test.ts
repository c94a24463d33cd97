import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../shared/platform/accounts';
import type { Deps, OperationContext } from '../../shared/platform/context';
import { emailErasedAt, type PrivacyPart } from '../../shared/platform/privacy';
import { createCustomer } from '../../shared/sales/service';
import { getErasureStatus as getCustomerErasure, requestErasure, runErasure } from '../../shared/privacy/service';
import { createTestDeps } from '../support/store';

let deps: Deps;
let ctx: OperationContext;
beforeAll(async () => {
  ({ deps } = await createTestDeps());
  const account = await createAccount(deps.store, deps.clock, { email: 'seller@example.com' });
  ctx = {
    ...deps,
    account,
    scope: { accountId: account.accountId, mode: 'test' },
    request: { requestId: 't', method: 'DELETE', path: '/', headers: {}, rawBody: '', sourceIp: '127.0.0.1', baseUrl: 'http://127.0.0.1' },
  };
});

describe('erasure', () => {
  it('resumes after a part fails, skipping the parts done, and completes once', async () => {
    const real = deps.ports.privacy.parts;
    const calls: string[] = [];
    let failures = 1;
    // A capability's part that fails on its first run (a crash mid-erasure), after a part that works.
    const steady: PrivacyPart = { name: 'steady', erase: async () => void calls.push('steady') };
    const flaky: PrivacyPart = {
      name: 'flaky',
      erase: async () => {
        calls.push('flaky');
        if (failures-- > 0) throw new Error('the table was busy');
      },
    };
    // The queue's messages are recorded, not run: the test plays the worker, crash included.
    const sent: Record<string, unknown>[] = [];
    const ports = {
      ...deps.ports,
      privacy: { parts: [...real, steady, flaky] },
      queue: { send: async (_queue: string, message: Record<string, unknown>) => void sent.push(message) },
    };
    const worker: Deps = { ...deps, ports };
    ctx = { ...ctx, ports };
    try {
      const customer = await createCustomer(ctx, { email: 'flaky@example.com' });
      const started = await requestErasure(ctx, customer._id);
      expect(started).toMatchObject({ status: 'running', done: ['contact', 'customer'] });
      expect(await emailErasedAt(deps, ctx.scope, 'FLAKY@example.com')).toBeTruthy();

      await expect(runErasure(worker, ctx.scope, customer._id)).rejects.toThrow('the table was busy');
      const halfway = await getCustomerErasure(ctx, customer._id);
      expect(halfway).toMatchObject({ status: 'running', done: expect.arrayContaining(['steady']) });
      expect(halfway.done).not.toContain('flaky');

      await runErasure(worker, ctx.scope, customer._id);
      expect(calls).toEqual(['steady', 'flaky', 'flaky']);
      expect(await getCustomerErasure(ctx, customer._id)).toMatchObject({ status: 'completed', done: expect.arrayContaining(['steady', 'flaky', 'orders']) });
      // Once more: nothing runs again.
      await runErasure(worker, ctx.scope, customer._id);
      expect(calls).toHaveLength(3);
      // A second request answers clearly and changes nothing.
      await expect(requestErasure(ctx, customer._id)).rejects.toMatchObject({ status: 409, code: 'CUSTOMER_ERASED' });
      await expect(requestErasure(ctx, '000000000000000000000000')).rejects.toMatchObject({ status: 404 });
      expect(sent).toEqual([{ accountId: ctx.scope.accountId, mode: 'test', customerId: customer._id }]);
    } finally {
      ctx = { ...ctx, ports: deps.ports };
    }
  });
});
