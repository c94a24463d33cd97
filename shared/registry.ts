import { accountOperations } from './account/operations';
import { catalogOperations } from './catalog/operations';
import { checkoutOperations } from './checkout/operations';
import { creditOperations } from './credits/operations';
import { processorOperations } from './processor/operations';
import { salesOperations } from './sales/operations';
import { subscriberOperations } from './subscriptions/operations';
import type { AnyOperation } from './platform/operation';
import { storefrontOperations } from './storefront/operations';
import { webhookOperations } from './webhooks/operations';

/** What a group's function may touch in AWS; the CDK grants exactly these (least privilege). */
export type AccessNeed = 'table' | 'queue' | 'scheduler' | 'blob' | 'encryption' | 'email';

/**
 * The resource groups of the API: one Lambda function each, named by `name`, with its entry at
 * functions/api/<name>.ts. A capability adds its operations to its own operations.ts; a new
 * capability adds one line here. Routes, OpenAPI and MCP tools are all derived from this list.
 */
export interface ApiGroup {
  name: string;
  operations: AnyOperation[];
  /** Default: the table only. */
  needs?: AccessNeed[];
}

export const API_GROUPS: ApiGroup[] = [
  { name: 'account', operations: accountOperations },
  { name: 'catalog', operations: catalogOperations, needs: ['table', 'blob'] },
  { name: 'webhooks', operations: webhookOperations, needs: ['table', 'queue', 'encryption'] },
  { name: 'storefront', operations: storefrontOperations, needs: ['table', 'blob'] },
  { name: 'checkout', operations: checkoutOperations, needs: ['table', 'queue', 'scheduler'] },
  { name: 'processor', operations: processorOperations, needs: ['table', 'queue', 'scheduler'] },
  { name: 'sales', operations: salesOperations, needs: ['table'] },
  { name: 'subscribers', operations: subscriberOperations, needs: ['table', 'queue', 'scheduler'] },
  { name: 'credits', operations: creditOperations, needs: ['table', 'queue', 'scheduler', 'email'] },
];

export const apiOperations = (): AnyOperation[] => API_GROUPS.flatMap((group) => group.operations);
