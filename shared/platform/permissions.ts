import { forbidden } from './errors';

/**
 * Who may run which operation. An API key acts as the store's owner. A team member acting through
 * a session token is an `owner`, an `admin` or a `member`; owners and admins may run every
 * operation, a member only the operations of the areas their teams grant. Every operation of the
 * registry resolves to one access level (`operationAccess`): an area, `admin` (the store's own
 * administration: account, team) or `any` (transports such as MCP, whose tools are checked one by
 * one). An operation states it with `area` in its declaration, or inherits it from its first tag
 * through AREA_BY_TAG; one that resolves to nothing is closed to members (fail closed).
 */
export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export const AREAS = ['products', 'orders', 'emails', 'marketing', 'analytics', 'developers'] as const;
export type Area = (typeof AREAS)[number];

export type OperationAccess = Area | 'admin' | 'any';

/**
 * The area of each documentation tag. A new capability either uses one of these tags or declares
 * `area` on its operations; test/unit/team-permissions.test.ts proves every operation resolves.
 */
export const AREA_BY_TAG: Record<string, OperationAccess> = {
  Products: 'products',
  'Subscription offers': 'products',
  Images: 'products',
  'Refund policies': 'products',
  Reviews: 'products',
  'Creator pages': 'products',
  Memberships: 'products',
  Imports: 'products',
  Orders: 'orders',
  Customers: 'orders',
  Subscribers: 'orders',
  Payments: 'orders',
  Checkout: 'orders',
  Credits: 'orders',
  Usage: 'orders',
  Retention: 'orders',
  Email: 'emails',
  Emails: 'emails',
  Audience: 'emails',
  'Newsletter subscribers': 'emails',
  Newsletters: 'emails',
  'Email links': 'any',
  Automations: 'emails',
  'Signup forms': 'emails',
  Segments: 'emails',
  Discounts: 'marketing',
  Partners: 'marketing',
  Upsells: 'marketing',
  Funnels: 'marketing',
  Links: 'marketing',
  Analytics: 'analytics',
  'Attribution survey': 'analytics',
  Survey: 'analytics',
  Webhooks: 'developers',
  Events: 'developers',
  'Spreadsheet sync': 'developers',
  Sheets: 'developers',
  'API keys': 'developers',
  Account: 'admin',
  Team: 'admin',
  'Dashboard sign-in': 'any',
  MCP: 'any',
  Docs: 'any',
};

export function operationAccess(operation: { area?: OperationAccess; tags?: string[] }): OperationAccess | undefined {
  if (operation.area) return operation.area;
  for (const tag of operation.tags ?? []) if (AREA_BY_TAG[tag]) return AREA_BY_TAG[tag];
  return undefined;
}

/** Who is acting: the owner through an API key, or a team member through a session token. */
export type Actor =
  /** `staff`: the service's own operators acting for the account (a session token minted by the admin CLI). */
  | { type: 'owner_key'; staff?: true /** The API key it came through (absent for an owner's session token). */; keyId?: string }
  | { type: 'member'; memberId: string; email: string; role: Role; areas: Area[] };

export const OWNER_KEY: Actor = { type: 'owner_key' };

export const actsAsOwner = (actor: Actor) => actor.type === 'owner_key' || actor.role === 'owner';

/** Whether `actor` may run an operation of `access` (undefined: an operation with no area). */
export function permits(actor: Actor, access: OperationAccess | undefined): boolean {
  if (actor.type === 'owner_key' || actor.role === 'owner' || actor.role === 'admin') return true;
  if (access === 'any') return true;
  if (!access || access === 'admin') return false;
  return actor.areas.includes(access);
}

/** Refuses an operation the actor's role and teams do not allow (403 AREA_FORBIDDEN). */
export function authorize(actor: Actor, operation: { operationId: string; area?: OperationAccess; tags?: string[] }): void {
  const access = operationAccess(operation);
  if (permits(actor, access)) return;
  const role = actor.type === 'member' ? actor.role : 'owner';
  throw forbidden(
    access === 'admin' || !access
      ? `${operation.operationId} is for the store's owners and admins`
      : `${operation.operationId} needs access to the ${access} area, which none of your teams grants`,
    { code: 'AREA_FORBIDDEN', details: { area: access ?? null, role } },
  );
}
