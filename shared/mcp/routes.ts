import type { OperationContext } from '../platform/context';
import { defineOperation, rawReply, type AnyOperation } from '../platform/operation';
import type { ToolEntry } from './tool-entry';

/** Answers one MCP request over the given tools (shared/mcp/server.ts, with the official SDK). */
export type McpServe = (ctx: OperationContext, tools: ToolEntry[]) => Promise<Response>;

const mcp = (method: 'GET' | 'POST' | 'DELETE', tools: () => ToolEntry[], serve: McpServe) =>
  defineOperation({
    operationId: `mcp${method[0]}${method.slice(1).toLowerCase()}`,
    noTool: 'the MCP endpoint itself, through which the tools are called',
    summary: 'Model Context Protocol endpoint (Streamable HTTP, stateless): every tool of this API for AI agents',
    tags: ['MCP'],
    method,
    path: '/mcp',
    auth: 'key',
    handler: async (ctx) => {
      const response = await serve(ctx, tools());
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return rawReply(response.status, await response.text(), headers['content-type'] ?? 'application/json', headers);
    },
  });

/**
 * The MCP endpoint's routes, given what serves them. The docs function describes them without
 * serving them, so it does not carry the MCP SDK; only the MCP function passes the real server.
 */
export const mcpRoutes = (tools: () => ToolEntry[], serve: McpServe): AnyOperation[] => [
  mcp('POST', tools, serve),
  mcp('GET', tools, serve),
  mcp('DELETE', tools, serve),
];
