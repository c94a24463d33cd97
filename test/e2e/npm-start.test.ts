import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../shared/composition/function-entries';
import { freePort } from '../../shared/local/dynamodb';
import { ApiClient } from '../support/runtime';

// What a new user does: `npm start` with nothing in the environment (only PATH and HOME), in a
// fresh data folder, then the dashboard the banner points to. No secret, no switch, no fake.
let child: ChildProcess;
let output = '';
let dataDir: string;
let url: string;

async function started(process: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not come up in ${timeoutMs / 1000} s:\n${output}`)), timeoutMs);
    const watch = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const found = /Creator Commerce is running at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    };
    process.stdout!.on('data', watch);
    process.stderr!.on('data', watch);
    process.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${output}`));
    });
  });
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'npm-start-'));
  const port = await freePort();
  child = spawn('npm', ['start', '--', '--port', String(port), '--data', dataDir], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME! },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: npm, tsx, node and DynamoDB Local's JVM are stopped together.
    detached: true,
  });
  // The first start may build the dashboard (prestart) and starts DynamoDB Local.
  url = await started(child, 300_000);
}, 320_000);

afterAll(async () => {
  if (child?.pid && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
    if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  }
  await rm(dataDir, { recursive: true, force: true });
});

const anon = () => new ApiClient(url);
async function lastMail(to: string, pattern: RegExp): Promise<string> {
  const mails = (await anon().get(`/_local/emails?to=${encodeURIComponent(to)}`)).body.emails as { text: string }[];
  const link = mails
    .map((m) => pattern.exec(m.text)?.[1])
    .filter(Boolean)
    .at(-1);
  if (!link) throw new Error(`no mail to ${to} with ${pattern}`);
  return link;
}

/** Asks for a sign-in link, opens it, and exchanges its token as the dashboard's sign-in page does. */
async function signIn(email: string) {
  const asked = await anon().post('/dashboard/auth/magic-link', { email });
  expect(asked.status).toBe(202);
  const link = await lastMail(email, /(http:\/\/\S+\/dashboard\/sign-in\?token=[^\s"<]+)/);
  expect(link.startsWith(`${url}/dashboard/sign-in?token=`)).toBe(true);
  const page = await fetch(link);
  expect(page.status).toBe(200);
  expect(await page.text()).toMatch(/<div id="root">|<script/);
  const session = await anon().post('/dashboard/auth/session', { token: new URL(link).searchParams.get('token') });
  expect(session.status).toBe(200);
  return session.body as { email: string; stores: { accountId: string; mode: string; role: string; token: string }[] };
}

describe('npm start with an empty environment', () => {
  it('names the dashboard and how to sign in, and keeps its generated secrets in the data folder', async () => {
    expect(output).toContain(`Dashboard      ${url}/dashboard`);
    expect(output).toContain(`${url}/_local/emails?to=demo@example.com`);
    const secrets = JSON.parse(await readFile(join(dataDir, 'secrets.json'), 'utf8')) as Record<string, string>;
    expect(secrets.sessionSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stat(join(dataDir, 'secrets.json'))).mode & 0o077).toBe(0);
  });

  it('signs in to the dashboard by the mailed link, invites a team member, and the invite link lets them in', { timeout: 120_000 }, async () => {
    const owner = await signIn('demo@example.com');
    const live = owner.stores.find((s) => s.mode === 'live')!;
    expect(live.role).toBe('owner');
    const dashboard = new ApiClient(url, live.token);
    expect((await dashboard.get('/users/me')).status).toBe(200);

    const invited = await dashboard.post('/team/invites', { email: 'mate@example.com', role: 'admin', teamIds: [] });
    expect(invited.status).toBe(201);
    const join = await lastMail('mate@example.com', /(http:\/\/\S+\/team\/join\?token=[^\s"<]+)/);
    const page = await fetch(join);
    expect(page.status).toBe(200);
    const accepted = await fetch(`${url}/team/join`, {
      method: 'POST',
      body: new URLSearchParams({ token: decodeURIComponent(new URL(join).searchParams.get('token')!), name: 'Mate' }),
      redirect: 'manual',
    });
    expect(accepted.status).toBeLessThan(400);

    const team = (await dashboard.get('/team')).body as { members: { email: string; status: string; role: string }[] };
    expect(team.members.find((m) => m.email === 'mate@example.com')).toMatchObject({ status: 'active', role: 'admin' });
    // The member signs in to the store they joined, as a member.
    const member = await signIn('mate@example.com');
    const store = member.stores.find((s) => s.accountId === live.accountId && s.mode === 'live')!;
    expect(store.role).toBe('admin');
    expect((await new ApiClient(url, store.token).get('/users/me')).status).toBe(200);
  });
});
