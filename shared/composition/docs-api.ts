import { cachedContract } from '../docs/openapi';
import { docsOperations } from '../docs/operations';
import { ApiError } from '../platform/errors';
import type { Capability } from '../platform/capability';
import type { AnyOperation } from '../platform/operation';
import { mcpRoutes } from '../mcp/routes';

/**
 * The two API functions that serve every operation rather than a capability's own: the contract
 * and explorer (docs) and the MCP tools. Their generated entries pass the manifests of shared/app.ts.
 */
export const operationsOf = (capabilities: Capability[]) => capabilities.flatMap((c) => c.operations ?? []);

/** The docs function describes the MCP routes but never serves them (API Gateway sends /mcp elsewhere). */
const notServedHere = async (): Promise<Response> => {
  throw new ApiError(404, 'MCP is served by its own function');
};

export function docsGroup(capabilities: Capability[]): AnyOperation[] {
  const api = operationsOf(capabilities);
  const docs: AnyOperation[] = docsOperations(cachedContract(() => [...api, ...docs, ...mcpRoutes(() => [], notServedHere)]));
  return docs;
}
