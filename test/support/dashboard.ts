import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { control } from './runtime';
import type { LocalRuntime } from '../../shared/local/runtime';

/** The dashboard's address on a runtime (it serves dashboard/dist under /dashboard, built by the browser project's setup). */
export const dashboardUrl = (runtime: LocalRuntime, path = '/') => `${runtime.url}/dashboard${path}`;

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
export async function signInByMagicLink(page: Page, runtime: LocalRuntime, email: string): Promise<void> {
  await page.goto(dashboardUrl(runtime));
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByTestId('link-sent').waitFor();
  const token = await signInToken(runtime, email);
  await page.goto(dashboardUrl(runtime, `/sign-in?token=${encodeURIComponent(token)}`));
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
  // Evaluated through the DevTools protocol: the page's CSP (script-src 'self') does not apply.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE());
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { html: string }[] }[] }>;
        };
      }
    ).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 8).map((n) => n.html.slice(0, 200)) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Waits until the page has its h1 and no loading indicator. */
export async function pageSettled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('main [role="status"] .mantine-Loader-root'), undefined, { timeout: 15_000 });
}

const AXE_PATH = fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url));

/**
 * Every axe-core violation on the page as it stands, whatever its impact. axe is injected with
 * page.addScriptTag, so the page's context needs `bypassCSP: true` (the app's CSP allows only its
 * own scripts; the app itself loads nothing from elsewhere).
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { html: string }[] }[] }>;
        };
      }
    ).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 8).map((n) => n.html.slice(0, 200)) }));
  });
}

/** Opens a page from the main nav as a person does: the section folds open, then the page's link. */
export async function navTo(page: Page, section: string, title: string): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const link = nav.getByRole('link', { name: title, exact: true });
  if (!(await link.isVisible())) await nav.getByRole('button', { name: section, exact: true }).click();
  await link.click();
  await pageSettled(page);
}

/** Unfolds every section of the main nav (to list or check all its links). */
export async function unfoldNav(page: Page): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const folded = nav.locator('button[aria-expanded="false"]');
  while ((await folded.count()) > 0) await folded.first().click();
}
