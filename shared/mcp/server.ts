import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { OperationContext } from '../platform/context';
import { isApiError } from '../platform/errors';
import { executeOperation } from '../platform/http/execute';
import type { AnyOperation } from '../platform/operation';
import { splitToolArguments, toolInputSchema } from './tools';

/**
 * A stateless MCP server for one HTTP request: every tool is an operation of the registry, run
 * through the same validation, plan gates and services as the HTTP API, as the key's owner.
 */
function buildServer(ctx: OperationContext, operations: AnyOperation[]): Server {
  const tools = new Map(operations.filter((op) => op.tool).map((op) => [op.tool!, op]));
  const server = new Server({ name: 'creator-commerce', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...tools.entries()].map(([name, op]) => ({
      name,
      title: op.summary,
      description: [op.summary, op.description, `(${op.method} ${op.path}${op.plan ? `; needs plan ${op.plan}` : ''})`].filter(Boolean).join('\n'),
      inputSchema: toolInputSchema(op) as { type: 'object' },
      annotations: { readOnlyHint: op.method === 'GET', destructiveHint: op.method === 'DELETE' },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const operation = tools.get(request.params.name);
    if (!operation) return { isError: true, content: [{ type: 'text' as const, text: `Unknown tool ${request.params.name}` }] };
    try {
      const reply = await executeOperation(operation, ctx, splitToolArguments(operation, request.params.arguments ?? {}));
      const body = reply.body ?? null;
      const structured = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : { result: body };
      return { content: [{ type: 'text' as const, text: JSON.stringify(body) }], structuredContent: structured, isError: reply.status >= 400 };
    } catch (error) {
      const shown = isApiError(error) && error.status < 500
        ? { status: error.status, error: error.message, code: error.code, field: error.field, details: error.details }
        : { status: 500, error: 'Internal error', requestId: ctx.request.requestId };
      return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify(shown) }] };
    }
  });
  return server;
}

export async function handleMcpRequest(ctx: OperationContext, operations: AnyOperation[]): Promise<Response> {
  const server = buildServer(ctx, operations);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  const { method, headers, rawBody, baseUrl, path } = ctx.request;
  const request = new Request(`${baseUrl}${path}`, {
    method,
    headers: Object.entries(headers).filter(([name]) => !['content-length', 'host', 'connection'].includes(name)),
    body: method === 'POST' ? rawBody : undefined,
  });
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
