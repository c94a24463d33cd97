import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { ApiClient, control, createTestAccount, startTestRuntime } from '../support/runtime';

const run = promisify(execFile);
let runtime: LocalRuntime;
let data: string;
// A runtime with a data folder, as `npm start` leaves one: the CLI finds the API and the session
// secret there by itself.
beforeAll(async () => {
  data = await mkdtemp(join(tmpdir(), 'imports-admin-data-'));
  runtime = await startTestRuntime({}, { dataDir: data });
});
afterAll(async () => {
  await runtime?.stop();
  await rm(data, { recursive: true, force: true });
});

const admin = async (...args: string[]) => run('npx', ['tsx', 'bin/admin.ts', '--data', data, ...args]);

describe('admin-started imports', () => {
  it("the admin CLI starts an import for an account, recorded as createdBy admin; the account's own imports stay user", async () => {
    const account = await createTestAccount(runtime, 'volume');
    const dir = await mkdtemp(join(tmpdir(), 'imports-admin-'));
    const tag = Date.now().toString(36);
    const path = join(dir, 'subscribers.csv');
    await writeFile(path, `email,status\nadm1-${tag}@example.com,subscribed\nadm2-${tag}@example.com,unsubscribed\n`);
    const { stdout } = await admin('start-import', '--account', account.accountId, '--mode', 'test', '--source', 'csv', '--file', `subscribers=${path}`);
    const answer = JSON.parse(stdout);
    expect(answer).toMatchObject({ status: 'running', createdBy: { type: 'admin' }, dryRun: { subscribers: { create: 2 } } });
    expect((await control(runtime).post('/_local/settle', {})).status).toBe(200);
    const record = (await account.test.get(`/migrations/${answer.importId}`)).body;
    expect(record).toMatchObject({ status: 'completed', createdBy: { type: 'admin' } });
    expect(record.progress.subscribers).toMatchObject({ created: 2 });

    // The account's key, and an ordinary session token, create `user` imports.
    expect((await account.test.post('/migrations', { source: 'csv' })).body.createdBy).toEqual({ type: 'user' });
    const session = (await admin('session-token', '--account', account.accountId, '--mode', 'test')).stdout.trim();
    expect((await new ApiClient(runtime.url, session).post('/migrations', { source: 'csv' })).body.createdBy).toEqual({ type: 'user' });
  }, 120_000);

  it('refuses bad arguments with a reason', async () => {
    const account = await createTestAccount(runtime, 'volume');
    await expect(admin('start-import', '--account', account.accountId, '--mode', 'test', '--source', 'csv')).rejects.toMatchObject({
      stderr: expect.stringContaining('--file kind=path'),
    });
    await expect(
      admin('start-import', '--account', account.accountId, '--mode', 'test', '--source', 'csv', '--file', 'subscribers=/nonexistent.csv'),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('ENOENT') });
    const free = await createTestAccount(runtime, 'free');
    await expect(
      admin('start-import', '--account', free.accountId, '--mode', 'test', '--source', 'csv', '--file', `subscribers=${__filename}`),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('403') });
  }, 120_000);
});
