import type { Scope } from '../store/keys';
import type { Store, TransactOp } from '../store/store';
import { memberAccessEntity } from './entities';
import type { Area, Role } from './permissions';

/**
 * What a team member's session token may do, as one small item the kernel reads on each request
 * made with that token (one GetItem, never cached, so a suspension or removal applies at once).
 * The team capability owns members and teams and keeps this grant in step with them, writing it in
 * the same transaction as the change; the kernel only reads it. No grant: the token is refused.
 * The grant also carries the person index (email → stores), so dashboard sign-in finds a person's
 * stores with one index query, kept right by the very writes that grant and remove access.
 */
export interface MemberAccess {
  memberId: string;
  email: string;
  role: Role;
  /** Union of the areas of the member's teams. */
  areas: Area[];
  status: 'active' | 'suspended';
}

export async function getMemberAccess(store: Store, scope: Scope, memberId: string): Promise<MemberAccess | undefined> {
  return (await memberAccessEntity.get(store, 'byId', scope, memberId)) as MemberAccess | undefined;
}

export const memberAccessPut = (scope: Scope, access: MemberAccess): TransactOp => ({
  put: memberAccessEntity.item(
    memberAccessEntity.declaration.key(scope, access.memberId),
    { ...access, accountId: scope.accountId, mode: scope.mode },
    {
      indexes: [memberAccessEntity.declaration.indexes!.ofPerson!.key(access.email, scope, access.memberId)],
    },
  ),
});

export const memberAccessDelete = (scope: Scope, memberId: string): TransactOp => ({ delete: memberAccessEntity.declaration.key(scope, memberId) });
