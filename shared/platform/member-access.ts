import { keys, type Scope } from '../store/keys';
import { toItem } from '../store/items';
import { toRecord, type Store, type TransactOp } from '../store/store';
import type { Area, Role } from './permissions';

/**
 * What a team member's session token may do, as one small item the kernel reads on each request
 * made with that token (one GetItem, never cached, so a suspension or removal applies at once).
 * The team capability owns members and teams and keeps this grant in step with them, writing it in
 * the same transaction as the change; the kernel only reads it. No grant: the token is refused.
 */
export interface MemberAccess {
  memberId: string;
  email: string;
  role: Role;
  /** Union of the areas of the member's teams. */
  areas: Area[];
  status: 'active' | 'suspended';
}

const MEMBER_ACCESS = 'MEMBER_ACCESS';

export async function getMemberAccess(store: Store, scope: Scope, memberId: string): Promise<MemberAccess | undefined> {
  return toRecord<MemberAccess>(await store.get(keys.entity(scope, MEMBER_ACCESS, memberId)));
}

export const memberAccessPut = (scope: Scope, access: MemberAccess): TransactOp => ({
  put: toItem(keys.entity(scope, MEMBER_ACCESS, access.memberId), 'MemberAccess', access),
});

export const memberAccessDelete = (scope: Scope, memberId: string): TransactOp => ({ delete: keys.entity(scope, MEMBER_ACCESS, memberId) });
