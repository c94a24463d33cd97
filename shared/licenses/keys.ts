import { createHash, randomBytes } from 'node:crypto';

/**
 * Licence keys as plain functions: six groups of five characters from a 32-letter alphabet without
 * look-alikes (150 random bits: unguessable), stored only as a SHA-256 hash plus the first group
 * (the readable prefix a seller and a buyer recognise it by).
 */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const KEY_PATTERN = /^[A-HJ-NP-Z2-9]{5}(-[A-HJ-NP-Z2-9]{5}){5}$/;
export const INSTANCE_PATTERN = /^inst_[0-9A-Za-z]{24}$/;

export function newLicenseKey(): string {
  const bytes = randomBytes(30);
  const chars = [...bytes].map((b) => ALPHABET[b & 31]!);
  return Array.from({ length: 6 }, (_, i) => chars.slice(i * 5, i * 5 + 5).join('')).join('-');
}

/** The key as typed: trimmed and upper-cased; undefined when it cannot be a key. */
export function normalizeKey(key: string): string | undefined {
  const k = key.trim().toUpperCase();
  return KEY_PATTERN.test(k) ? k : undefined;
}

export const keyHash = (key: string) => createHash('sha256').update(key).digest('hex');
export const keyPrefix = (key: string) => key.slice(0, 5);

export type LicenseStatus = 'active' | 'revoked' | 'refunded' | 'expired';

/** The status a buyer's app sees: stored status, or expired once past its end. */
export function effectiveStatus(license: { status: 'active' | 'revoked' | 'refunded'; endsAt?: string | null }, nowMs: number): LicenseStatus {
  if (license.status !== 'active') return license.status;
  if (license.endsAt && Date.parse(license.endsAt) <= nowMs) return 'expired';
  return 'active';
}
