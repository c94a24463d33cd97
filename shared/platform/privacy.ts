import { createHash } from 'node:crypto';
import type { Deps } from './context';
import { erasedEmailEntity, type ErasedEmailRecord } from './entities';
import type { Scope } from '../store/keys';
import type { TransactOp } from '../store/store';

/**
 * A buyer's personal data, as each capability holds its own part of it. The privacy capability
 * (shared/privacy/) answers a data-access request and an erasure request by asking every part,
 * never by reading another capability's records: a capability that holds personal data declares
 * `privacy: PrivacyPart` in its manifest (contract here), and the composition hands the list to
 * the privacy capability as the `privacy` port. A new capability plugs in with one field.
 */
export interface PrivacySubject {
  /** The sales customer id: kept on the books after erasure, as the pseudonymous id. */
  customerId: string;
  /** Lower-cased email. */
  email: string;
}

export interface PrivacyPart {
  /** The section of the export and the step of an erasure (unique across the app). */
  name: string;
  /**
   * The part that owns customers resolves a customer id to the subject (the email every other
   * part finds its records by). Exactly one part declares it.
   */
  subject?(deps: Deps, scope: Scope, customerId: string): Promise<PrivacySubject | undefined>;
  /** This part's records about the subject, one page at a time (never the whole list at once). */
  export?(deps: Deps, scope: Scope, subject: PrivacySubject): AsyncIterable<unknown[]>;
  /**
   * Why the subject cannot be erased yet (an active subscription the processor would go on
   * charging), or undefined. Asked before an erasure starts; a reason answers 409 with it.
   */
  check?(deps: Deps, scope: Scope, subject: PrivacySubject): Promise<string | undefined>;
  /**
   * Erases the subject's personal data from this part, keeping what the books need under the
   * customer id. Must be idempotent: a crash makes it run again from the start.
   */
  erase?(deps: Deps, scope: Scope, subject: PrivacySubject): Promise<void>;
  /**
   * Run inside the erasure request itself (a few writes at most), so that lists stop showing the
   * buyer at once; the other parts run in the erasure queue.
   */
  immediate?: boolean;
}

/** The port through which the privacy capability reaches every part. */
export interface PrivacyRegistry {
  parts: PrivacyPart[];
}

declare module './ports' {
  interface Ports {
    privacy: PrivacyRegistry;
  }
}

/** The port's factories (the same list in AWS and locally). */
export const privacyPort = (parts: PrivacyPart[]) => {
  const registry: PrivacyRegistry = { parts };
  return { aws: () => registry, local: () => registry };
};

// ---- the do-not-recreate list ----

/**
 * Erased emails, by the SHA-256 of the lower-cased address (the address itself is not kept): an
 * old import or an event committed before the erasure must not bring the buyer back. The kernel
 * owns the list, as it owns the outbox, so that every capability can consult it without an
 * import of the privacy capability.
 */
export const emailHash = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

export function erasedEmailPut(scope: Scope, email: string, erasedAt: string): TransactOp {
  const hash = emailHash(email);
  return { put: erasedEmailEntity.item(erasedEmailEntity.declaration.key(scope, hash), { hash, erasedAt }) };
}

/** When the email was erased, or undefined if it never was. */
export async function emailErasedAt(deps: Pick<Deps, 'store'>, scope: Scope, email: string): Promise<string | undefined> {
  return (await erasedEmailEntity.get(deps.store, 'byHash', scope, emailHash(email)))?.erasedAt;
}

/**
 * Whether something dated `at` (an event's time, an imported row's) would bring back a buyer that
 * was erased after it. A purchase made after the erasure is a new relationship and is let through.
 */
export async function erasedSince(deps: Pick<Deps, 'store'>, scope: Scope, email: string, at: string): Promise<boolean> {
  const erasedAt = await emailErasedAt(deps, scope, email);
  return erasedAt !== undefined && at <= erasedAt;
}

/** The addresses among `emails` that were erased (an import checks its rows at once). */
export async function erasedAmong(deps: Pick<Deps, 'store'>, scope: Scope, emails: string[]): Promise<Set<string>> {
  const byHash = new Map(emails.map((email) => [emailHash(email), email] as const));
  if (!byHash.size) return new Set();
  const found = await deps.store.batchGet<ErasedEmailRecord>([...byHash.keys()].map((hash) => erasedEmailEntity.declaration.key(scope, hash)));
  return new Set(found.map((record) => byHash.get(record.hash)!).filter(Boolean));
}

// ---- logs that copy personal data (the outbox, the webhook delivery log) ----

/** Fields that name the person in the same object as their address (a customer or buyer block). */
const PERSON_FIELDS = new Set(['firstName', 'lastName', 'name', 'first_name', 'last_name', 'fullName']);

/**
 * A JSON text (an event, a webhook body) without an erased address: every string equal to it
 * becomes empty, and the names beside it in the same object become null. Undefined when the text
 * does not mention the address (nothing to write). Text that is not JSON has the address removed
 * wherever it occurs.
 */
export function withoutEmail(text: string, email: string): string | undefined {
  const target = email.trim().toLowerCase();
  if (!target || !text.toLowerCase().includes(target)) return undefined;
  const isTarget = (value: unknown) => typeof value === 'string' && value.trim().toLowerCase() === target;
  const walk = (value: unknown): unknown => {
    if (isTarget(value)) return '';
    if (typeof value === 'string') return value.replace(new RegExp(target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '');
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      const names = entries.some(([, v]) => isTarget(v));
      return Object.fromEntries(entries.map(([k, v]) => [k, names && PERSON_FIELDS.has(k) && typeof v === 'string' ? null : walk(v)]));
    }
    return value;
  };
  try {
    return JSON.stringify(walk(JSON.parse(text)));
  } catch {
    return walk(text) as string;
  }
}
