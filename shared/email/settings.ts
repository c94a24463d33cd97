import { randomBytes } from 'node:crypto';
import type { Account, Deps } from '../platform/context';
import type { Scope } from '../store/keys';
import type { EmailSettingsRecord } from './records';
import * as repo from './repository';

export const DEMO_PHYSICAL_ADDRESS = '1 Demo Street, Springfield, 00000, US';

const secretContext = (scope: Scope) => ({ purpose: 'email-token-secret', accountId: scope.accountId, mode: scope.mode });

/** The account's settings with defaults filled in: sender is the account email until set. */
export function withDefaults(stored: Partial<EmailSettingsRecord> | undefined, account: Pick<Account, 'email' | 'name'> | undefined): EmailSettingsRecord {
  return {
    senderEmail: stored?.senderEmail ?? account?.email ?? null,
    fromName: stored?.fromName ?? account?.name ?? null,
    replyTo: stored?.replyTo ?? null,
    physicalAddress: stored?.physicalAddress ?? null,
    footerText: stored?.footerText ?? null,
    checkoutOptIn: stored?.checkoutOptIn ?? 'unchecked',
    checkoutOptInWording: stored?.checkoutOptInWording ?? null,
    saleNotifications: stored?.saleNotifications ?? true,
    tokenSecretCiphertext: stored?.tokenSecretCiphertext,
    totalEmailsSent: stored?.totalEmailsSent ?? 0,
    updatedAt: stored?.updatedAt ?? null,
  };
}

const secretCache = new Map<string, string>();

/** The account and mode's token secret, made on first use (encrypted at rest, cached decrypted). */
export async function tokenSecret(deps: Deps, scope: Scope, stored?: Partial<EmailSettingsRecord>): Promise<string> {
  let ciphertext = stored?.tokenSecretCiphertext ?? (await repo.getSettings(deps.store, scope))?.tokenSecretCiphertext;
  if (!ciphertext) {
    const made = await deps.ports.encryption.encrypt(randomBytes(32).toString('base64'), secretContext(scope));
    ciphertext = await repo.saveTokenSecret(deps.store, scope, made);
  }
  const cached = secretCache.get(ciphertext);
  if (cached) return cached;
  const secret = await deps.ports.encryption.decrypt(ciphertext, secretContext(scope));
  if (secretCache.size > 1000) secretCache.clear();
  secretCache.set(ciphertext, secret);
  return secret;
}

/**
 * Local runtime only: accounts made by the control API and the demo account can send at once, with
 * a demo physical address in both modes (docs/architecture.md, "The local runtime").
 */
export async function provisionLocalSender(deps: Deps, accountId: string): Promise<void> {
  for (const mode of ['live', 'test'] as const) {
    const scope = { accountId, mode };
    const stored = await repo.getSettings(deps.store, scope);
    if (!stored?.physicalAddress)
      await repo.saveSettings(deps.store, scope, { physicalAddress: DEMO_PHYSICAL_ADDRESS, updatedAt: deps.clock.now().toISOString() });
  }
}
