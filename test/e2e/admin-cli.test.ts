import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { ApiClient, startTestRuntime } from '../support/runtime';

const run = promisify(execFile);
let runtime: LocalRuntime;
let data: string;

// A runtime with a data folder, as `npm start` leaves one: the CLI finds the table, the session
// secret and the encryption key there by itself, with no settings passed.
beforeAll(async () => {
  data = await mkdtemp(join(tmpdir(), 'admin-cli-'));
  runtime = await startTestRuntime({}, { dataDir: data });
});
afterAll(async () => {
  await runtime?.stop();
  await rm(data, { recursive: true, force: true });
});

async function admin(...args: string[]) {
  const { stdout } = await run('npx', ['tsx', 'bin/admin.ts', '--local', '--data', data, ...args]);
  return stdout.trim();
}

describe('admin CLI', () => {
  it('creates an account with keys, sets its plan, mints and revokes keys, signs session tokens', async () => {
    const created = JSON.parse(await admin('create-account', '--email', 'cli@example.com', '--plan', 'tier2'));
    expect(created.liveKey).toMatch(/^pk_live_/);
    expect(await admin('set-plan', '--account', created.accountId, '--plan', 'tier3')).toMatch(/tier3/);
    const me = await new ApiClient(runtime.url, created.testKey).get('/users/me');
    expect(me.body).toMatchObject({ _id: created.accountId, plan: 'tier3', mode: 'test' });

    const extra = JSON.parse(await admin('create-key', '--account', created.accountId, '--mode', 'live'));
    expect(await admin('list-keys', '--account', created.accountId)).toContain(extra.keyId);
    await admin('revoke-key', '--account', created.accountId, '--key-id', extra.keyId);
    expect((await new ApiClient(runtime.url, extra.key).get('/users/me')).status).toBe(401);
    expect(await admin('list-accounts')).toContain(created.accountId);

    const token = await admin('session-token', '--account', created.accountId, '--mode', 'live');
    expect((await new ApiClient(runtime.url, token).get('/users/me')).body.mode).toBe('live');
  }, 240_000);

  it('refuses bad arguments with a reason', async () => {
    await expect(admin('set-plan', '--account', 'x', '--plan', 'gold')).rejects.toMatchObject({ stderr: expect.stringMatching(/--plan must be one of/) });
  }, 60_000);

  it('refuses the sandbox for live mode against a deployed table, before touching it; allows it locally', async () => {
    // A deployed table: no endpoint, no --local. Refused before any AWS call (no credentials here).
    const env = { PATH: process.env.PATH!, HOME: process.env.HOME! };
    const deployed = run(
      'npx',
      [
        'tsx',
        'bin/admin.ts',
        '--table',
        'CreatorCommerce-prod-Table',
        '--region',
        'eu-west-1',
        'set-processor',
        '--account',
        'acc_1',
        '--mode',
        'live',
        '--provider',
        'sandbox',
      ],
      { env },
    );
    await expect(deployed).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/--provider sandbox cannot serve live mode in a deployed stack/) });
    // The local runtime keeps the sandbox for live mode (development).
    const created = JSON.parse(await admin('create-account', '--email', 'sbx-live@example.com'));
    const local = JSON.parse(await admin('set-processor', '--account', created.accountId, '--mode', 'live', '--provider', 'sandbox'));
    expect(local).toMatchObject({ provider: 'sandbox', mode: 'live' });
  }, 120_000);
});
