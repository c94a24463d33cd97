import type { AnyOperation } from '../platform/operation';
import { mcpRoutes } from './routes';
import type { ToolEntry } from './tool-entry';

/**
 * The MCP endpoint, offering the tools of `catalog()` to agents. The official SDK and the classic
 * zod it is built on (about 25 ms of a cold start's CPU together) load with the container's first
 * MCP request, from a chunk of their own, as the tracer does (shared/composition/tracing.ts): the
 * import itself stays near the DynamoDB client's, and a container started ahead of its first
 * request (provisioned or proactive init) has done nothing it did not need.
 */
export const mcpOperations = (catalog: () => ToolEntry[]): AnyOperation[] =>
  mcpRoutes(catalog, async (ctx, tools) => (await import('./server')).handleMcpRequest(ctx, tools));
