import type { Clock } from '../platform/clock';
import type { EncryptionPort } from '../platform/ports';
import { toItem } from '../store/items';
import { keys, type Scope } from '../store/keys';
import { toRecord, type Store } from '../store/store';

/** The providers a scope can use. `sandbox` needs no settings; others bring their secrets. */
export const PROCESSOR_PROVIDERS = ['sandbox', 'stripe'] as const;
export type ProcessorProviderName = (typeof PROCESSOR_PROVIDERS)[number];

/**
 * Which processor one account+mode uses, with that provider's secrets encrypted by the encryption
 * port (KMS in AWS). The ciphertexts are bound to their scope and name by the encryption context,
 * so a copied ciphertext decrypts for no other account, mode or secret. No route returns them.
 */
export interface ProcessorSettingsRecord {
  provider: ProcessorProviderName;
  /** Secret name → ciphertext (base64). */
  secrets: Record<string, string>;
  /** Secret name → the first characters, so a person can tell which key is stored. */
  hints: Record<string, string>;
  updatedAt: string;
}

const SETTINGS = 'PROCESSOR_SETTINGS';
const settingsKey = (scope: Scope) => keys.entity(scope, SETTINGS, 'current');
const context = (scope: Scope, provider: string, name: string) => ({ accountId: scope.accountId, mode: scope.mode, purpose: `processor:${provider}:${name}` });
const hint = (secret: string) => `${secret.slice(0, Math.min(12, Math.floor(secret.length / 3)))}...`;

export async function setProcessorSettings(
  deps: { store: Store; clock: Clock; encryption: EncryptionPort },
  scope: Scope,
  input: { provider: ProcessorProviderName; secrets?: Record<string, string> },
): Promise<ProcessorSettingsRecord> {
  const secrets: Record<string, string> = {};
  const hints: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.secrets ?? {})) {
    secrets[name] = await deps.encryption.encrypt(value, context(scope, input.provider, name));
    hints[name] = hint(value);
  }
  const record: ProcessorSettingsRecord = { provider: input.provider, secrets, hints, updatedAt: deps.clock.now().toISOString() };
  await deps.store.put(toItem(settingsKey(scope), 'ProcessorSettings', record));
  return record;
}

export async function getProcessorSettings(store: Store, scope: Scope): Promise<ProcessorSettingsRecord | undefined> {
  return toRecord<ProcessorSettingsRecord>(await store.get(settingsKey(scope)));
}

export async function decryptProcessorSecrets(encryption: EncryptionPort, scope: Scope, settings: ProcessorSettingsRecord): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, ciphertext] of Object.entries(settings.secrets)) out[name] = await encryption.decrypt(ciphertext, context(scope, settings.provider, name));
  return out;
}
