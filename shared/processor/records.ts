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
  /**
   * Tax on checkouts: Stripe computes it (Stripe Tax, `automatic`; the seller registers where they
   * collect in the Stripe dashboard); the sandbox simulates one rate for tests (`simulatedRatePercent`).
   */
  tax?: TaxSettings | null;
  updatedAt: string;
}

export interface TaxSettings {
  automatic?: boolean;
  simulatedRatePercent?: number;
}
