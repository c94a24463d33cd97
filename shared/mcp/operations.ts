import { defineOperation, rawReply, type AnyOperation } from '../platform/operation';
import { apiOperations } from '../registry';
import { handleMcpRequest } from './server';

const mcp = (method: 'GET' | 'POST' | 'DELETE') =>
  defineOperation({
    operationId: `mcp${method[0]}${method.slice(1).toLowerCase()}`,
    summary: 'Model Context Protocol endpoint (Streamable HTTP, stateless): every tool of this API for AI agents',
    tags: ['MCP'],
    method,
    path: '/mcp',
    auth: 'key',
    handler: async (ctx) => {
      const response = await handleMcpRequest(ctx, apiOperations());
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return rawReply(response.status, await response.text(), headers['content-type'] ?? 'application/json', headers);
    },
  });

export const mcpOperations: AnyOperation[] = [mcp('POST'), mcp('GET'), mcp('DELETE')];
