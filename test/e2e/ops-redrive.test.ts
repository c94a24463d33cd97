import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDynamoEndpoint } from '../support/dynamo-endpoint';
import { CAPABILITIES } from '../../shared/app';
import { assembleApp } from '../../shared/composition/assemble';
import { startLocalRuntime, type LocalRuntime } from '../../shared/local/runtime';
import { defineCapability } from '../../shared/platform/capability';
import { randomHex } from '../../shared/platform/ids';
import { ApiClient, createTestAccount, settleWithRetries, type TestAccount } from '../support/runtime';

// A bus consumer that refuses every delivery until it is "fixed": its deliveries die after the
// local bus's retries, sit in the dead-letter list, and a redrive hands them to it again, once.
const probe = { broken: true, attempts: [] as string[], handled: [] as string[] };
const probeCapability = defineCapability({
  name: 'redrive-probe',
  operations: [],
  consumers: [
    {
      name: 'redrive-probe',
      eventTypes: ['product.created'],
      async handle(event) {
        probe.attempts.push(event.id);
        if (probe.broken) throw new Error('probe is broken');
        // Idempotent on the event id, as every consumer must be.
        if (!probe.handled.includes(event.id)) probe.handled.push(event.id);
      },
    },
  ],
});

let runtime: LocalRuntime;
let control: ApiClient;
let seller: TestAccount;

beforeAll(async () => {
  runtime = await startLocalRuntime({
    port: 0,
    memory: true,
    dynamoEndpoint: testDynamoEndpoint(),
    tableName: `t_${randomHex(6)}`,
    dropTableOnStop: true,
    app: assembleApp([...CAPABILITIES, probeCapability]),
  });
  control = new ApiClient(runtime.url);
  seller = await createTestAccount(runtime);
});
afterAll(async () => {
  await runtime?.stop();
});

describe('local dead letters', () => {
  it('keeps a refused delivery, lists it, and redrives it to its consumer once after the fix', async () => {
    const created = await seller.test.post('/products', { name: 'Ebook', price: 9 });
    expect(created.status).toBe(201);
    expect((await control.post('/_local/settle', {})).status).toBe(200);
    const [event] = (await control.get(`/_local/events?accountId=${seller.accountId}&mode=test&type=product.created`)).body.events;
    // The first delivery and the bus's three retries.
    expect(probe.attempts).toEqual([event.id, event.id, event.id, event.id]);

    const listed = await control.get('/_local/dead-letters?queue=consumer:redrive-probe');
    expect(listed.body.deadLetters).toEqual([
      { queue: 'consumer:redrive-probe', kind: 'rule', id: `redrive-probe~${event.id}`, error: 'probe is broken', eventId: event.id, type: 'product.created' },
    ]);

    // A dry run lists and moves nothing.
    const dry = await control.post('/_local/dead-letters/redrive', { queue: 'consumer:redrive-probe', dryRun: true });
    expect(dry.body).toMatchObject({ dryRun: true, redriven: 0, deadLetters: [{ eventId: event.id }] });
    await settleWithRetries(runtime);
    expect(probe.attempts).toHaveLength(4);

    probe.broken = false;
    const redriven = await control.post('/_local/dead-letters/redrive', { queue: 'consumer:redrive-probe' });
    expect(redriven.status).toBe(200);
    expect(redriven.body).toMatchObject({ dryRun: false, redriven: 1, deadLetters: [{ eventId: event.id, type: 'product.created' }] });
    await settleWithRetries(runtime);
    expect(probe.handled).toEqual([event.id]);
    expect(probe.attempts).toHaveLength(5);
    expect((await control.get('/_local/dead-letters')).body.deadLetters).toEqual([]);

    // Nothing is left to move: a second redrive delivers nothing.
    expect((await control.post('/_local/dead-letters/redrive', {})).body.redriven).toBe(0);
    await settleWithRetries(runtime);
    expect(probe.attempts).toHaveLength(5);
  });

  it('refuses an unknown queue name with the known ones', async () => {
    const answer = await control.post('/_local/dead-letters/redrive', { queue: 'nope' });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('consumer:redrive-probe');
    expect(answer.text).toContain('webhooks');
  });
});
