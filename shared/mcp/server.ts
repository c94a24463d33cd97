import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { OperationContext } from '../platform/context';
import { ApiError } from '../platform/errors';
import { toolRequest, type ToolEntry } from './tool-entry';

/** The API gateway's own limit is 29 s; a tool call gives up a little earlier so the agent hears why. */
const TOOL_CALL_TIMEOUT_MS = 27_000;

type ToolResult = { isError: boolean; content: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown> };

const failure = (shown: Record<string, unknown>): ToolResult => ({ isError: true, content: [{ type: 'text', text: JSON.stringify(shown) }] });

/**
 * A tool call is one request to the HTTP API, made with the caller's own credentials: it passes
 * the same authentication, rate limit, validation, plan gates and services as any client's request,
 * and the MCP function carries no capability (only the tool catalog), so it stays small.
 */
async function callTool(ctx: OperationContext, entry: ToolEntry, args: Record<string, unknown>): Promise<ToolResult> {
  const base = ctx.config.API_URL;
  if (!base) throw new ApiError(500, 'API_URL is not configured for the MCP endpoint');
  const request = toolRequest(entry, args);
  let response: Response;
  try {
    response = await fetch(`${base.replace(/\/$/, '')}${request.target}`, {
      method: request.method,
      redirect: 'manual',
      headers: {
        authorization: ctx.request.headers.authorization ?? '',
        accept: 'application/json',
        'user-agent': 'creator-commerce-mcp',
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(TOOL_CALL_TIMEOUT_MS),
    });
  } catch {
    return failure({ status: 504, error: 'The API did not answer the tool call in time; retry later', requestId: ctx.request.requestId });
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (response.status >= 400) {
    const answer = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const { message: _message, ...shown } = answer;
    return failure(
      response.status >= 500 && response.status !== 501 && response.status !== 502 && response.status !== 503
        ? { status: 500, error: 'Internal error', requestId: answer.requestId ?? ctx.request.requestId }
        : { status: response.status, ...shown },
    );
  }
  const structured = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : { result: body };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: structured, isError: false };
}

/**
 * The server checks a client's answer to an elicitation (a form it asked the user to fill) against
 * the form's JSON Schema, with ajv by default. This server never elicits: tools take their input
 * from the agent. So it names a validator that says so, and the Lambda bundle leaves ajv out
 * (shared/composition/esbuild-plugins.ts: -130 KiB).
 */
export const NO_ELICITATION: jsonSchemaValidator = {
  getValidator() {
    throw new Error('This MCP server makes no elicitation requests, so it validates no elicitation answers');
  },
};

/** A stateless MCP server for one HTTP request, offering the catalog's tools. */
function buildServer(ctx: OperationContext, catalog: ToolEntry[]): Server {
  const tools = new Map(catalog.map((entry) => [entry.name, entry]));
  const server = new Server({ name: 'creator-commerce', version: '1.0.0' }, { capabilities: { tools: {} }, jsonSchemaValidator: NO_ELICITATION });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: catalog.map(({ name, title, description, inputSchema, annotations }) => ({ name, title, description, inputSchema, annotations })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const entry = tools.get(request.params.name);
    if (!entry) return failure({ status: 404, error: `Unknown tool ${request.params.name}` });
    return callTool(ctx, entry, request.params.arguments ?? {});
  });
  return server;
}

export async function handleMcpRequest(ctx: OperationContext, catalog: ToolEntry[]): Promise<Response> {
  const server = buildServer(ctx, catalog);
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
