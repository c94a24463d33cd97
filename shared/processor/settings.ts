import type { Clock } from '../platform/clock';
import type { EncryptionPort } from '../platform/ports';
import type { Scope } from '../store/keys';
import type { Store } from '../store/store';
import { processorSettingsEntity } from './entities';
import type { ProcessorProviderName, ProcessorSettingsRecord, TaxSettings } from './records';

export { PROCESSOR_PROVIDERS, type ProcessorProviderName, type ProcessorSettingsRecord, type TaxSettings } from './records';

const settingsKey = (scope: Scope) => processorSettingsEntity.declaration.key(scope);
const context = (scope: Scope, provider: string, name: string) => ({ accountId: scope.accountId, mode: scope.mode, purpose: `processor:${provider}:${name}` });
const hint = (secret: string) => `${secret.slice(0, Math.min(12, Math.floor(secret.length / 3)))}...`;

export async function setProcessorSettings(
  deps: { store: Store; clock: Clock; encryption: EncryptionPort },
  scope: Scope,
  input: { provider: ProcessorProviderName; secrets?: Record<string, string>; tax?: TaxSettings | null },
): Promise<ProcessorSettingsRecord> {
  const secrets: Record<string, string> = {};
  const hints: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.secrets ?? {})) {
    secrets[name] = await deps.encryption.encrypt(value, context(scope, input.provider, name));
    hints[name] = hint(value);
  }
  if (input.tax?.simulatedRatePercent !== undefined && (input.tax.simulatedRatePercent < 0 || input.tax.simulatedRatePercent > 100))
    throw new Error('The simulated tax rate must be from 0 to 100 percent');
  if (input.tax?.simulatedRatePercent !== undefined && input.provider !== 'sandbox')
    throw new Error('Only the sandbox simulates a tax rate; Stripe computes tax itself (automatic)');
  const record: ProcessorSettingsRecord = {
    provider: input.provider,
    secrets,
    hints,
    ...(input.tax ? { tax: input.tax } : {}),
    updatedAt: deps.clock.now().toISOString(),
  };
  await deps.store.put(processorSettingsEntity.item(settingsKey(scope), record));
  return record;
}

export async function getProcessorSettings(store: Store, scope: Scope): Promise<ProcessorSettingsRecord | undefined> {
  return processorSettingsEntity.get(store, 'ofTenant', scope);
}

export async function decryptProcessorSecrets(encryption: EncryptionPort, scope: Scope, settings: ProcessorSettingsRecord): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, ciphertext] of Object.entries(settings.secrets)) out[name] = await encryption.decrypt(ciphertext, context(scope, settings.provider, name));
  return out;
}
