import { mcpOperations } from '../mcp/operations';
import type { ToolEntry } from '../mcp/tool-entry';
import type { AnyOperation } from '../platform/operation';
import { unpackJson } from './packed-json';

/**
 * The deployed MCP function: the tool catalog was built at synth time from every manifest
 * (function-entries.ts) and travels packed in the bundle (packed-json.ts), so the function carries the MCP SDK and
 * no capability; each tool call goes to the API as a request (shared/mcp/server.ts).
 */
export const prebuiltMcpGroup = (packedCatalog: string): AnyOperation[] => {
  let catalog: ToolEntry[] | undefined;
  return mcpOperations(() => (catalog ??= unpackJson<ToolEntry[]>(packedCatalog)));
};
