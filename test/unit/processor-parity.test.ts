import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SandboxProcessor } from '../../shared/adapters/processor-sandbox/sandbox';
import { StripeProcessor } from '../../shared/adapters/processor-stripe/stripe';
import { ProcessorRouter } from '../../shared/processor/router';

/**
 * Issue 39's "done when" lines that read from the code: every port method the sandbox offers to
 * the service, Stripe offers too; no router or adapter path refuses a feature for a processor;
 * the `stripe` package is a runtime dependency and no hand-written Stripe client or signature
 * check is left.
 */
const methods = (cls: { prototype: object }) =>
  Object.getOwnPropertyNames(cls.prototype).filter(
    (n) => n !== 'constructor' && typeof Object.getOwnPropertyDescriptor(cls.prototype, n)?.value === 'function',
  );
/** The sandbox's own hooks: its hosted pages, its timers and the local control API. */
const SANDBOX_ONLY = ['getCheckout', 'getCardUpdate', 'cardUpdateMembership', 'updateCard', 'onRenewalDue', 'renewNow', 'setCardDeclining', 'refuseNext'];
const sources = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: join(dir, f), text: readFileSync(join(dir, f), 'utf8') }));

describe('processor parity', () => {
  it('Stripe implements every port method the sandbox does, and the router forwards each', () => {
    const port = methods(SandboxProcessor).filter((m) => !SANDBOX_ONLY.includes(m));
    expect(port.length).toBeGreaterThan(15);
    expect(port.filter((m) => !methods(StripeProcessor).includes(m))).toEqual([]);
    expect(port.filter((m) => !methods(ProcessorRouter).includes(m))).toEqual([]);
  });

  it('no router or adapter path answers that a processor cannot do something', () => {
    const files = [...sources('shared/processor'), ...sources('shared/adapters/processor-stripe'), ...sources('shared/adapters/processor-sandbox')];
    const refusals = files.flatMap(({ file, text }) =>
      [...text.matchAll(/new ProcessorError\(\s*'[^']*(?:processor cannot|not supported|unsupported|does not support|offers no)[^']*'/gi)].map(
        (m) => `${file}: ${m[0]}`,
      ),
    );
    expect(refusals).toEqual([]);
    expect(readFileSync('shared/processor/router.ts', 'utf8')).not.toMatch(/cannot/i);
  });

  it('the official stripe package runs the adapter: a runtime dependency, no hand-written HTTP or signature code', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(pkg.dependencies.stripe).toMatch(/^\d+\.\d+\.\d+$/);
    for (const { file, text } of sources('shared/adapters/processor-stripe')) {
      expect(text, file).not.toMatch(/createHmac|timingSafeEqual|\bfetch\(|node:https?['"]|api\.stripe\.com/);
    }
  });
});
