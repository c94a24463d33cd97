import type { Area, Role } from '../platform/permissions';
import type { Mode } from '../store/keys';

/** A sign-in link, found by the SHA-256 of its token (the token itself is never stored). */
export interface SignInLinkRecord {
  email: string;
  createdAt: string;
  /** Stored under this name: `expiresAt` is the table's TTL attribute. */
  validUntil: string;
  usedAt?: string;
}

/** One store and mode a person can open the dashboard on. */
export interface StoreAccess {
  accountId: string;
  storeName: string;
  mode: Mode;
  role: Role;
  areas: Area[];
  /** null for the account's owner. */
  memberId: string | null;
}
