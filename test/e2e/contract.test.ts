import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { APP } from '../../shared/app';

const allOperations = () => APP.allOperations;
const apiOperations = () => APP.apiOperations;
import type { LocalRuntime } from '../../shared/local/runtime';
import { ApiClient, createTestAccount, startTestRuntime, type TestAccount } from '../support/runtime';
import { routeShape, specRoutes, SPEC_DIR } from '../support/spec-paths';

let runtime: LocalRuntime;
let account: TestAccount;

beforeAll(async () => {
  runtime = await startTestRuntime();
  account = await createTestAccount(runtime, 'tier2');
});
afterAll(async () => runtime?.stop());

describe('OpenAPI contract', () => {
  it('is valid OpenAPI 3.1 and lists every registered operation once', async () => {
    const response = await new ApiClient(runtime.url).get('/docs.json');
    expect(response.status).toBe(200);
    const validator = new Validator();
    const result = await validator.validate(response.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    const operationIds: string[] = [];
    for (const item of Object.values(response.body.paths as Record<string, Record<string, { operationId: string }>>)) {
      for (const operation of Object.values(item)) operationIds.push(operation.operationId);
    }
    const registered = allOperations().map(({ operation }) => operation.operationId);
    expect(operationIds.sort()).toEqual([...registered].sort());
    expect(new Set(registered).size).toBe(registered.length);
  });

  it('marks key routes with the bearer scheme and public ones without', async () => {
    const spec = (await new ApiClient(runtime.url).get('/docs.json')).body;
    expect(spec.paths['/users/me'].get.security).toEqual([{ bearerKey: [] }]);
    expect(spec.paths['/docs.json'].get.security).toEqual([]);
  });
});

describe('routes', () => {
  it('points a newcomer at the docs from GET /: a browser is redirected, an API client gets the links', async () => {
    const browser = await fetch(`${runtime.url}/`, { headers: { accept: 'text/html,application/xhtml+xml' }, redirect: 'manual' });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe(`${runtime.url}/docs`);
    const client = await new ApiClient(runtime.url).get('/');
    expect(client.status).toBe(200);
    expect(client.body).toMatchObject({ docs: `${runtime.url}/docs`, openapi: `${runtime.url}/docs.json`, mcp: `${runtime.url}/mcp` });
  });

  it('serves every registered operation at its method and path (no router miss)', async () => {
    const client = new ApiClient(runtime.url, account.testKey);
    for (const { operation } of allOperations()) {
      if (operation.path === '/mcp') continue;
      const path = operation.path.replace(/\{[^}]+\}/g, 'x');
      const response = await client.request(operation.method, path, operation.method === 'GET' || operation.method === 'DELETE' ? undefined : {});
      expect(response.status, `${operation.method} ${operation.path}`).not.toBe(405);
      expect(String(response.body?.error ?? ''), `${operation.method} ${operation.path}`).not.toMatch(/^No route/);
    }
  });

  it('registers every endpoint of the commerce spec', () => {
    expect(SPEC_DIR, 'the shared specs are beside the repository').toBeTruthy();
    const registered = new Set(allOperations().map(({ operation }) => routeShape(`${operation.method} ${operation.path}`)));
    const missing = specRoutes('commerce-and-webhooks.md').filter((route) => !registered.has(routeShape(route)));
    expect(missing).toEqual([]);
  });
});

describe('MCP', () => {
  async function connect(key: string) {
    const client = new Client({ name: 'contract-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${runtime.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    return client;
  }

  it("lists a tool for every operation that has a tool name, and calls one as the key's owner", async () => {
    const client = await connect(account.liveKey);
    const { tools } = await client.listTools();
    const expected = apiOperations()
      .filter((op) => op.tool)
      .map((op) => op.tool!);
    expect(tools.map((t) => t.name).sort()).toEqual([...expected].sort());
    const result = await client.callTool({ name: 'get_current_user', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ _id: account.accountId, mode: 'live' });
    await client.close();
  });

  it('offers every key-authenticated operation but the MCP endpoint and the dashboard sign-in; the newly offered ones work', async () => {
    const client = await connect(account.testKey);
    const names = new Set((await client.listTools()).tools.map((t) => t.name));
    const keyed = allOperations()
      .map(({ operation }) => operation)
      .filter((op) => op.auth === 'key');
    expect(
      keyed
        .filter((op) => !names.has(op.tool ?? ''))
        .map((op) => op.operationId)
        .sort(),
    ).toEqual(['getDashboardSession', 'mcpDelete', 'mcpGet', 'mcpPost', 'signOutDashboard']);
    for (const tool of [
      'upload_image',
      'create_automation',
      'rename_funnel',
      'archive_membership',
      'create_community_thread',
      'create_tracked_link',
      'remove_import_file',
      'create_api_key',
    ])
      expect(names.has(tool), tool).toBe(true);
    // Image upload as an agent sends it: JSON with the bytes in base64.
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const uploaded = await client.callTool({
      name: 'upload_image',
      arguments: { filename: 'dot.png', contentType: 'image/png', contentBase64: png.toString('base64') },
    });
    expect(uploaded.isError, JSON.stringify(uploaded.content)).toBeFalsy();
    expect(uploaded.structuredContent).toMatchObject({ contentType: 'image/png', size: png.length, filename: 'dot.png' });
    const listed = await client.callTool({ name: 'list_images', arguments: {} });
    expect(JSON.stringify(listed.structuredContent)).toContain((uploaded.structuredContent as { _id: string })._id);
    const wrong = await client.callTool({
      name: 'upload_image',
      arguments: { filename: 'dot.png', contentType: 'image/png', contentBase64: Buffer.from('not an image').toString('base64') },
    });
    expect(wrong.isError).toBe(true);
    expect(JSON.stringify(wrong.content)).toContain('UNSUPPORTED_IMAGE_TYPE');
    await client.close();
  });

  it('refuses a request without a valid key', async () => {
    const response = await new ApiClient(runtime.url, 'pk_test_nope').post(
      '/mcp',
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      { accept: 'application/json, text/event-stream' },
    );
    expect(response.status).toBe(401);
  });

  it('reports a validation failure of a tool call as a tool error with the reason', async () => {
    const client = await connect(account.testKey);
    const { tools } = await client.listTools();
    const withRequired = apiOperations().find((op) => op.tool && op.body && tools.find((t) => t.name === op.tool)?.inputSchema.required?.length);
    if (withRequired) {
      const result = await client.callTool({ name: withRequired.tool!, arguments: {} });
      expect(result.isError).toBe(true);
      expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toMatchObject({ status: 400 });
    }
    const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} });
    expect(unknown.isError).toBe(true);
    await client.close();
  });
});
