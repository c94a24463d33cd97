import { getAccount } from '../../shared/platform/accounts';
import { queryActivity } from '../../shared/platform/activity';
import { APP } from '../../shared/app';
import { startLocalRuntime } from '../../shared/local/runtime';
import type { OperationContext } from '../../shared/platform/context';
import { executeOperation } from '../../shared/platform/http/execute';
import { randomHex } from '../../shared/platform/ids';
import type { AnyOperation } from '../../shared/platform/operation';
import type { CapacityMeter } from '../../shared/store/capacity';

/**
 * What the audit log costs a write: WCU per operation without it (the operation's handler called
 * as is) and with it (the same operation through executeOperation, which records the entry in
 * the write's first transaction), measured on direct calls inside a capacity meter, each averaged
 * over `BENCH_AUDIT_WRITES` (default 20) writes. The goal: at most one small write more (an entry
 * is ~0.4 KiB with no index key: 1 WCU, billed 2 inside a transaction on AWS).
 * Alone: `npx tsx test/bench/audit.ts` (its own DynamoDB Local unless BENCH_DYNAMODB_ENDPOINT).
 */
export async function benchAudit(options: { writes?: number } = {}) {
  const writes = options.writes ?? Number(process.env.BENCH_AUDIT_WRITES ?? 20);
  const runtime = await startLocalRuntime({
    port: 0,
    memory: true,
    dynamoEndpoint: process.env.BENCH_DYNAMODB_ENDPOINT,
    tableName: `bench_audit_${randomHex(6)}`,
  });
  try {
    const created = await fetch(`${runtime.url}/_local/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ plan: 'volume' }),
    });
    const account = (await created.json()) as { accountId: string };
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const ctx: OperationContext = {
      ...runtime.deps,
      scope,
      account: (await getAccount(runtime.deps.store, scope.accountId))!,
      actor: { type: 'owner_key', keyId: 'bench-key' },
      request: { requestId: 'bench', method: 'POST', path: '/', headers: {}, rawBody: '', sourceIp: '127.0.0.1', baseUrl: runtime.url },
    };
    const operation = (id: string) => APP.apiOperations.find((o) => o.operationId === id) as AnyOperation;
    // A request's view of the store meters what the call consumed, as the local API does.
    const meter = async (fn: (metered: OperationContext) => Promise<unknown>) => {
      const m: CapacityMeter = { read: 0, write: 0 };
      await fn({ ...ctx, store: ctx.store.forRequest({ meter: m }) });
      return m.write;
    };
    const cases: { name: string; raw: (i: number, audited: boolean) => Promise<{ params: Record<string, string>; body: unknown }> }[] = [
      { name: 'createProduct', raw: async (i, audited) => ({ params: {}, body: { name: `Bench ${audited ? 'a' : 'b'} ${i}`, price: 9 } }) },
      { name: 'createCustomer', raw: async (i, audited) => ({ params: {}, body: { email: `bench-${audited ? 'a' : 'b'}-${i}@example.com` } }) },
      {
        name: 'deleteProduct',
        raw: async (i, audited) => {
          const made = (
            await executeOperation(operation('createProduct'), ctx, { params: {}, query: {}, body: { name: `Doomed ${audited ? 'a' : 'b'} ${i}`, price: 1 } })
          ).body as { _id: string };
          return { params: { id: made._id }, body: {} };
        },
      },
    ];
    const rows = [];
    for (const c of cases) {
      const op = operation(c.name);
      let without = 0;
      let withAudit = 0;
      for (let i = 0; i < writes; i++) {
        const plain = await c.raw(i, false);
        // The handler alone: what the write cost before the audit log.
        without += await meter((metered) => op.handler(metered as never, { params: plain.params, query: {}, body: plain.body, files: {} } as never));
        const audited = await c.raw(i, true);
        withAudit += await meter((metered) => executeOperation(op, metered, { params: audited.params, query: {}, body: audited.body }));
      }
      const before = without / writes;
      const after = withAudit / writes;
      // DynamoDB Local reports a transaction's capacity loosely (docs/performance-history.md "Capacity per lifecycle
      // step"): the entries themselves are counted and sized too, as DynamoDB bills them
      // (1 WCU per started KiB, 2 inside a transaction).
      const entries = (await queryActivity(runtime.deps.store, scope, { action: c.name }, { limit: 100 })).entries;
      const largest = Math.max(...entries.map((e) => Buffer.byteLength(JSON.stringify(e)) + 120));
      const perWrite = entries.length / writes;
      rows.push({
        operation: c.name,
        'WCU before (Local)': round(before),
        'WCU after (Local)': round(after),
        'audit items per write': round(perWrite),
        'largest entry bytes': largest,
        'audit WCU per write (DynamoDB)': `${round(perWrite * Math.ceil(largest / 1024))} (×2 in a transaction)`,
        goal: 'one small item per write',
        met: perWrite <= 1 && largest <= 1024,
      });
    }
    return { writesPerOperation: writes, rows };
  } finally {
    await runtime.stop();
  }
}

const round = (n: number) => Math.round(n * 100) / 100;

if (process.argv[1]?.endsWith('audit.ts')) {
  const { startDynamoDbLocal } = await import('../../shared/local/dynamodb');
  const own = process.env.BENCH_DYNAMODB_ENDPOINT ? undefined : await startDynamoDbLocal();
  if (own) process.env.BENCH_DYNAMODB_ENDPOINT = own.endpoint;
  try {
    const result = await benchAudit();
    console.table(result.rows);
  } finally {
    await own?.stop();
  }
  process.exit(0);
}
