import { queryActivity, type ActivityEntry } from '../platform/activity';
import type { OperationContext } from '../platform/context';
import { badRequest } from '../platform/errors';
import type { AuditRow } from './schemas';

/** How a log entry's actor reads in the audit log: who, by one id. */
export function auditActor(entry: ActivityEntry, accountId: string): AuditRow['actor'] {
  const a = entry.actor;
  if (a.type === 'member') return { type: 'member', id: a.memberId ?? 'unknown', ...(a.email ? { email: a.email } : {}) };
  if (a.type === 'system') return { type: 'system', id: 'system' };
  if (a.staff) return { type: 'staff', id: 'staff' };
  if (a.keyId) return { type: 'api_key', id: a.keyId };
  // An owner's own session token (no key): the owner is the account.
  return { type: 'owner', id: accountId };
}

export const toAuditRow = (entry: ActivityEntry, accountId: string): AuditRow => ({
  id: entry._id,
  at: entry.at,
  actor: auditActor(entry, accountId),
  action: entry.action,
  target: { type: entry.target.type, id: entry.target.id ?? null, ...(entry.target.email ? { email: entry.target.email } : {}) },
  ip: entry.ip ?? null,
  ...(entry.details ? { details: entry.details } : {}),
});

export async function readAuditLog(
  ctx: OperationContext,
  query: { actor?: string; action?: string; target?: string; from?: string; to?: string; cursor?: string; limit: number },
): Promise<{ entries: AuditRow[]; next: string | null }> {
  const from = query.from ? new Date(query.from) : undefined;
  const to = query.to ? new Date(query.to) : undefined;
  if (from && to && from > to) throw badRequest('from must not be after to', { field: 'from' });
  const page = await queryActivity(
    ctx.store,
    ctx.scope,
    { actor: query.actor, action: query.action, target: query.target, from, to },
    { cursor: query.cursor, limit: query.limit },
  );
  return { entries: page.entries.map((entry) => toAuditRow(entry, ctx.scope.accountId)), next: page.next };
}
