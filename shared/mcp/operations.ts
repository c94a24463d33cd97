import { defineOperation, rawReply, type AnyOperation } from '../platform/operation';
import { handleMcpRequest } from './server';

const mcp = (method: 'GET' | 'POST' | 'DELETE', tools: () => AnyOperation[]) =>
  defineOperation({
    operationId: `mcp${method[0]}${method.slice(1).toLowerCase()}`,
    summary: 'Model Context Protocol endpoint (Streamable HTTP, stateless): every tool of this API for AI agents',
    tags: ['MCP'],
    method,
    path: '/mcp',
    auth: 'key',
    handler: async (ctx) => {
      const response = await handleMcpRequest(ctx, tools());
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return rawReply(response.status, await response.text(), headers['content-type'] ?? 'application/json', headers);
    },
  });

/** The MCP endpoint, offering `tools()` (the operations with a tool name) to agents. */
export const mcpOperations = (tools: () => AnyOperation[]): AnyOperation[] => [mcp('POST', tools), mcp('GET', tools), mcp('DELETE', tools)];
