import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { ApiClient } from './runtime';
import type { LocalRuntime } from '../../shared/local/runtime';

const AXE = readFileSync(fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url)), 'utf8');

/** Asks for a magic link as the sign-in page would and reads it from the local mail outbox. */
export async function magicLinkToken(runtime: LocalRuntime, email: string): Promise<string> {
  const api = new ApiClient(runtime.url);
  const asked = await api.post('/dashboard/auth/magic-link', { email });
  if (asked.status !== 202) throw new Error(`magic link: ${asked.status} ${asked.text}`);
  const mails = (await api.get(`/_local/emails?to=${encodeURIComponent(email)}`)).body.emails as { text?: string; html?: string }[];
  for (const mail of [...mails].reverse()) {
    const match = /sign-in\?token=([^\s"&<]+)/.exec(mail.text ?? mail.html ?? '');
    if (match) return decodeURIComponent(match[1]!);
  }
  throw new Error(`no sign-in mail for ${email}`);
}

/** Signs `page` in through the mailed link and waits for the dashboard shell. */
export async function signInToDashboard(runtime: LocalRuntime, page: Page, email: string): Promise<void> {
  const token = await magicLinkToken(runtime, email);
  await page.goto(`${runtime.url}/dashboard/sign-in?token=${encodeURIComponent(token)}`);
  // The app moves on by client-side navigation (no load event): watch the address instead.
  try {
    await page.waitForFunction(() => !window.location.pathname.endsWith('/sign-in'), undefined, { timeout: 15_000 });
  } catch (error) {
    throw new Error(`still on sign-in: ${(await page.textContent('body'))?.slice(0, 300)}`, { cause: error });
  }
  await page.locator('main h1').first().waitFor();
}

/** Opens a dashboard page and waits until its content (not the loading note) is shown. */
export async function openDashboardPage(runtime: LocalRuntime, page: Page, path: string): Promise<void> {
  await page.goto(`${runtime.url}/dashboard/${path}`);
  await page.locator('main h1').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('main [role=status] .mantine-Loader-root'), undefined, { timeout: 10_000 });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core on the page; answers the serious and critical violations. */
export async function axeSerious(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const result = (await page.evaluate(() => (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: AxeViolation[] }> } }).axe.run(document, { resultTypes: ['violations'] }))) as { violations: AxeViolation[] };
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })) }));
}
