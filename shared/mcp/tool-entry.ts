/**
 * One MCP tool as the MCP function needs it: what agents see (name, title, description, input
 * schema, hints) and how a call becomes a request to the HTTP API (method, path, which arguments
 * are path parameters, query parameters or the body). Plain JSON, so it can be built from the
 * operations at synth time and shipped prebuilt (shared/mcp/catalog.ts builds it).
 */
export interface ToolEntry {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties?: Record<string, unknown>; required?: string[] };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean };
  method: string;
  path: string;
  params: string[];
  query: string[];
  /** `fields`: the other arguments are the JSON body; `value`: the `body` argument is; `none`: no body. */
  body: 'fields' | 'value' | 'none';
}

export interface ToolRequest {
  method: string;
  /** Path with its parameters filled in and the query string, relative to the API's base address. */
  target: string;
  body?: unknown;
}

/** Turns a tool call's arguments back into the HTTP request an API client would have made. */
export function toolRequest(entry: ToolEntry, args: Record<string, unknown>): ToolRequest {
  const rest: Record<string, unknown> = { ...args };
  let path = entry.path;
  for (const name of entry.params) {
    // A missing path parameter stays visibly empty so the API answers it (404 or 400), never another route.
    path = path.replace(`{${name}}`, encodeURIComponent(args[name] === undefined ? '' : String(args[name])));
    delete rest[name];
  }
  const query = new URLSearchParams();
  for (const name of entry.query) {
    if (args[name] !== undefined && args[name] !== null) query.set(name, String(args[name]));
    delete rest[name];
  }
  const search = query.toString();
  const body = entry.body === 'fields' ? rest : entry.body === 'value' ? rest.body : undefined;
  return { method: entry.method, target: `${path}${search ? `?${search}` : ''}`, ...(body === undefined ? {} : { body }) };
}
