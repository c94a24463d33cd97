import { defineOperation } from '../platform/operation';
import { auditPageSchema, auditQuery } from './schemas';
import { readAuditLog } from './service';

export const auditOperations = [
  defineOperation({
    operationId: 'listAuditLog',
    tool: 'list_audit_log',
    summary:
      'Audit log, newest first: every write by an API key, a team member or staff (who, what, which record, when, from where); filter by actor, action, target and time; kept 400 days',
    tags: ['Audit log'],
    area: 'admin',
    method: 'GET',
    path: '/audit-log',
    auth: 'key',
    query: auditQuery,
    output: auditPageSchema,
    handler: (ctx, { query }) => readAuditLog(ctx, query),
  }),
];
