import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { control } from './runtime';
import type { LocalRuntime } from '../../shared/local/runtime';

const DIST = fileURLToPath(new URL('../../dashboard/dist/', import.meta.url));
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json', '.png': 'image/png' };

export interface DashboardHost {
  /** Origin serving /dashboard (the app) and everything else (the API). */
  origin: string;
  close(): Promise<void>;
}

/**
 * Where the browser opens the dashboard: the runtime itself when it serves /dashboard, otherwise
 * a same-origin front that serves dashboard/dist under /dashboard and passes every other path to
 * the runtime (as CloudFront does in AWS).
 */
export async function dashboardHost(runtime: LocalRuntime): Promise<DashboardHost> {
  const probe = await fetch(`${runtime.url}/dashboard/`).catch(() => undefined);
  if (probe?.ok && (await probe.text()).includes('id="root"')) return { origin: runtime.url, close: async () => {} };
  const api = new URL(runtime.url);
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    if (url.pathname === '/dashboard' || url.pathname.startsWith('/dashboard/')) {
      if (url.pathname.startsWith('/dashboard/auth/')) return proxy();
      const relative = normalize(decodeURIComponent(url.pathname.slice('/dashboard/'.length))).replace(/^(\.\.[/\\])+/, '');
      const file = join(DIST, relative);
      const target = relative && existsSync(file) && statSync(file).isFile() ? file : join(DIST, 'index.html');
      res.writeHead(200, { 'content-type': TYPES[extname(target)] ?? 'application/octet-stream' });
      createReadStream(target).pipe(res);
      return;
    }
    proxy();
    function proxy() {
      const upstream = httpRequest({ host: api.hostname, port: api.port, path: req.url, method: req.method, headers: { ...req.headers, host: api.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The token of the newest dashboard sign-in link mailed to `email`. */
export async function signInToken(runtime: LocalRuntime, email: string): Promise<string> {
  const mails = (await control(runtime).get(`/_local/emails?to=${encodeURIComponent(email)}`)).body.emails as { text: string }[];
  for (const mail of [...mails].reverse()) {
    const link = /(https?:\/\/\S+\/dashboard\/sign-in\?token=[^\s"<]+)/.exec(mail.text)?.[1];
    if (link) return new URL(link).searchParams.get('token')!;
  }
  throw new Error(`no dashboard sign-in mail to ${email}`);
}

/** Signs in through the page as a person does: email → mailed link → the dashboard. */
export async function signInByMagicLink(page: Page, runtime: LocalRuntime, origin: string, email: string): Promise<void> {
  await page.goto(`${origin}/dashboard/`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByTestId('link-sent').waitFor();
  const token = await signInToken(runtime, email);
  await page.goto(`${origin}/dashboard/sign-in?token=${encodeURIComponent(token)}`);
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

const AXE_SOURCE = () => readFileSync(fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url)), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** axe-core's serious and critical violations on the page as it stands. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE() });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { html: string }[] }[] }> } }).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 8).map((n) => n.html.slice(0, 200)) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Waits until the page has its h1 and no loading indicator. */
export async function pageSettled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('main [role="status"] .mantine-Loader-root'), undefined, { timeout: 15_000 });
}
