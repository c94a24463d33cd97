import { gunzipSync } from 'node:zlib';
import { mcpOperations } from '../mcp/operations';
import type { ToolEntry } from '../mcp/tool-entry';
import type { AnyOperation } from '../platform/operation';

/**
 * The deployed MCP function: the tool catalog was built at synth time from every manifest
 * (function-entries.ts) and travels gzipped in the bundle, so the function carries the MCP SDK and
 * no capability; each tool call goes to the API as a request (shared/mcp/server.ts).
 */
export const prebuiltMcpGroup = (gzippedCatalog: string): AnyOperation[] => {
  let catalog: ToolEntry[] | undefined;
  return mcpOperations(() => (catalog ??= JSON.parse(gunzipSync(Buffer.from(gzippedCatalog, 'base64')).toString('utf8')) as ToolEntry[]));
};
