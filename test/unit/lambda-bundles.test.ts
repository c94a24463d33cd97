import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildMailTemplate } from '../../shared/email/mail-builder';
import { sanitizePostHtml } from '../../shared/memberships/posts/sanitiser';
import { GoogleSpreadsheets } from '../../shared/adapters/spreadsheet-google/index';
import type { SpreadsheetError } from '../../shared/sheets/port';
import { handleMcpRequest } from '../../shared/mcp/server';
import type { ToolEntry } from '../../shared/mcp/tool-entry';
import type { Deps, OperationContext } from '../../shared/platform/context';
import { sheets } from '../../shared/sheets/index';
import { LocalSpreadsheets } from '../../shared/adapters/spreadsheet-local/index';
import { ESBUILD_OPTIONS } from '../../shared/composition/esbuild-options';
import { PROJECT_ROOT, entrySource, writeFunctionEntry, type FunctionSpec } from '../../shared/composition/function-entries';
import { prebuiltDocsGroup } from '../../shared/composition/docs-prebuilt';
import { APP } from '../../shared/app';
import { startFakeS3 } from '../support/fake-s3';
import { startRecordingEndpoint, type JsonAnswer, type RecordedRequest } from '../support/recording-endpoint';
import * as unbundledClients from '../support/aws-json-clients';
import { productCreateBody } from '../../shared/catalog/schemas';
import { parseOrThrow } from '../../shared/platform/http/validation';
import type { AnyOperation } from '../../shared/platform/operation';
import type { RenderRequest } from '../../shared/adapters/aws/render';
import { renderFunction } from '../../shared/composition/render';
import type { InvoiceDocument } from '../../shared/platform/invoice-document';
import { pdfText } from '../support/pdf-text';

// The Lambda bundles swap some packages for lighter ones (esbuild aliases): what the bundle runs
// must answer exactly what the local runtime (unbundled) answers.
const dir = mkdtempSync(join(tmpdir(), 'lambda-bundles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The inputs of a deployed function's bundle, built from its generated entry as the CDK builds it. */
async function functionInputs(spec: FunctionSpec) {
  const entry = writeFunctionEntry(APP, spec, { tracing: false });
  const out = await build({
    ...ESBUILD_OPTIONS,
    entryPoints: [entry],
    outfile: join(dir, `${spec.kind}-${spec.appFunction}.mjs`),
    bundle: true,
    platform: 'node',
    metafile: true,
    logLevel: 'error',
  });
  return Object.keys(out.metafile.inputs);
}

const RENDERER = /node_modules\/(sanitize-html|html-to-text|juice|cheerio)\/|shared\/(email\/mail-builder|memberships\/posts\/sanitiser)\.ts$/;

async function bundle(name: string, source: string) {
  mkdirSync(join(PROJECT_ROOT, 'build'), { recursive: true });
  const entry = join(PROJECT_ROOT, 'build', `bundle-test-${name}.ts`);
  writeFileSync(entry, source);
  const outfile = join(dir, `${name}.mjs`);
  const out = await build({ ...ESBUILD_OPTIONS, entryPoints: [entry], outfile, bundle: true, platform: 'node', metafile: true, logLevel: 'error' });
  rmSync(entry);
  const bytes = Object.fromEntries(
    Object.values(out.metafile.outputs).flatMap((output) =>
      Object.entries(output.inputs)
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([path, input]) => [path, input.bytesInOutput] as const),
    ),
  );
  return { module: await import(pathToFileURL(outfile).href), inputs: Object.keys(out.metafile.inputs), emitted: Object.keys(bytes), bytes };
}

/** Runs `body` with Lambda's credential variables set (`undefined` unsets one), then puts them back. */
async function withAwsEnv(
  vars: Record<'AWS_ACCESS_KEY_ID' | 'AWS_SECRET_ACCESS_KEY' | 'AWS_SESSION_TOKEN', string | undefined>,
  body: (set: (name: keyof typeof vars, value: string | undefined) => void) => Promise<void>,
) {
  const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  const set = (name: string, value: string | undefined) => {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  try {
    for (const [name, value] of Object.entries(vars)) set(name, value);
    await body(set);
  } finally {
    for (const [name, value] of Object.entries(saved)) set(name, value);
  }
}

/**
 * Runs `exercise` with the bundled implementation, then the unbundled one, against one recording
 * endpoint, which it closes: each run's results beside the requests it made.
 */
async function bundledThenUnbundled<T, R>(
  endpoint: Awaited<ReturnType<typeof startRecordingEndpoint>>,
  [bundledImpl, unbundledImpl]: [T, T],
  exercise: (impl: T) => Promise<R>,
) {
  try {
    const bundled = { results: await exercise(bundledImpl), requests: endpoint.requests.splice(0) };
    const unbundled = { results: await exercise(unbundledImpl), requests: endpoint.requests.splice(0) };
    return { bundled, unbundled };
  } finally {
    await endpoint.close();
  }
}

describe('Lambda bundles', () => {
  it('render mail and sanitise posts exactly as unbundled, without parse5, undici, the resource inliner, postcss or a second build of the HTML packages', {
    timeout: 60_000,
  }, async () => {
    const { module, inputs, emitted } = await bundle(
      'mail',
      "export { buildMailTemplate } from '../shared/email/mail-builder';\nexport { sanitizePostHtml } from '../shared/memberships/posts/sanitiser';",
    );
    const contents = [
      {
        subject: 'Hello {{x}}',
        html: '<style>p.lead { color: #c00; font-weight: bold } a:hover { color: red } @media (max-width: 600px) { p { font-size: 14px } }</style><p class="lead">Hi &amp; welcome&nbsp;— <a href="https://example.com/a?b=1&c=2">read</a></p><table><tr><td>é ✓</td></tr></table>',
        preview: 'Preview',
      },
      { subject: 'Text', text: 'Line one\nline two\n\nhttps://example.com and {{u}}' },
      { subject: 'Img', html: '<div><img src="https://example.com/x.png" alt="x"><br><span style="color: blue">blue</span><!-- comment --></div>' },
      // Style attributes as written: with postcss parsing them (it is left out of the bundle) these would be re-printed or dropped.
      {
        subject: 'Styles',
        html: '<p style="color:red;;font-weight : bold">a</p><p style="color: red; {">b</p><p style="position: fixed /*# sourceMappingURL=data:application/json;base64,e30= */">c</p>',
      },
    ];
    for (const content of contents) {
      const footer = { physicalAddress: '1 Main St\nTown', footerText: 'Thanks' };
      expect(module.buildMailTemplate(content, footer)).toEqual(buildMailTemplate(content, footer));
      expect(module.buildMailTemplate(content, footer, { track: false })).toEqual(buildMailTemplate(content, footer, { track: false }));
    }
    expect(
      inputs.filter((p) => /node_modules\/(parse5|undici|encoding-sniffer|whatwg-encoding|web-resource-inliner|mime|postcss|source-map-js)\//.test(p)),
    ).toEqual([]);
    const posts = [
      '<p onclick="x()">Hi <script>alert(1)</script><a href="javascript:alert(2)">x</a> &eacute;&#x2713;&nbsp;&amp;</p>',
      '<h1 style="color: red; position: fixed /*# sourceMappingURL=data:application/json;base64,e30= */">T</h1><img src="https://e.x/i.png" onerror="y()"><iframe src="https://e.x"></iframe>',
    ];
    for (const post of posts) expect(module.sanitizePostHtml(post)).toBe(sanitizePostHtml(post));
    // One build of each HTML package (ESM, one copy per version) and no postcss
    // (shared/composition/esbuild-plugins.ts).
    expect(
      emitted.filter((p) =>
        /node_modules\/(source-map-js|(.+\/)?(entities|htmlparser2|domhandler|domutils|dom-serializer)\/(lib|dist\/commonjs)\/(?!esm\/))|juice\/node_modules\/entities/.test(
          p,
        ),
      ),
    ).toEqual([]);
  });

  it('take the AWS credentials from the environment Lambda sets, without the default chain', { timeout: 60_000 }, async () => {
    const { module, inputs } = await bundle(
      'credentials',
      "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nexport const credentials = () => new DynamoDBClient({ region: 'us-east-1' }).config.credentials();",
    );
    await withAwsEnv({ AWS_ACCESS_KEY_ID: 'AKIDLAMBDA', AWS_SECRET_ACCESS_KEY: 'secret-lambda', AWS_SESSION_TOKEN: 'token-lambda' }, async (set) => {
      expect(await module.credentials()).toMatchObject({ accessKeyId: 'AKIDLAMBDA', secretAccessKey: 'secret-lambda', sessionToken: 'token-lambda' });
      set('AWS_ACCESS_KEY_ID', undefined);
      await expect(module.credentials()).rejects.toThrow(/environment variable credentials/);
    });
    expect(
      inputs.filter((p) => /node_modules\/@aws-sdk\/(nested-clients|credential-provider-(node|ini|sso|login|process|http|web-identity))\//.test(p)),
    ).toEqual([]);
  });

  it('store files on S3 signed with the environment credentials, without the S3 client', { timeout: 60_000 }, async () => {
    const { module, emitted } = await bundle('blob', "export { S3Blob } from '../shared/adapters/aws/blob';");
    const credentials = { accessKeyId: 'AKIDLAMBDA', secretAccessKey: 'secret-lambda', sessionToken: 'token-lambda' };
    const s3 = await startFakeS3(credentials);
    try {
      await withAwsEnv(
        { AWS_ACCESS_KEY_ID: credentials.accessKeyId, AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey, AWS_SESSION_TOKEN: credentials.sessionToken },
        async () => {
          const blob = new module.S3Blob({ bucket: 'files', region: 'us-east-1', kmsKeyId: 'alias/test', endpoint: s3.endpoint });
          await blob.put('a/b c.txt', new TextEncoder().encode('hi'), 'text/plain');
          expect(await blob.get('a/b c.txt')).toEqual({ body: new TextEncoder().encode('hi'), contentType: 'text/plain' });
          expect(s3.requests.map((r) => r.signatureValid)).toEqual([true, true]);
        },
      );
    } finally {
      await s3.close();
    }
    expect(emitted.filter((p) => /node_modules\/@aws-sdk\/client-s3\//.test(p))).toEqual([]);
    const catalog = await functionInputs({ kind: 'api', appFunction: 'catalog' });
    expect(catalog.filter((p) => /node_modules\/@aws-sdk\/client-s3\//.test(p))).toEqual([]);
  });

  it('call KMS, SQS, EventBridge, SESv2, Scheduler and Lambda exactly as the unbundled clients do', { timeout: 60_000 }, async () => {
    // The bundled adapters (credentials from the environment, minified) send the same requests
    // and read the same answers, typed errors included.
    const { module } = await bundle('aws-json', "export * from '../test/support/aws-json-clients';");
    const aws = await startRecordingEndpoint(answerAwsJson);
    const { bundled, unbundled } = await bundledThenUnbundled(aws, [module as typeof unbundledClients, unbundledClients], (clients) =>
      exerciseAwsJsonAdapters(clients, aws.endpoint),
    );
    expect(bundled).toEqual(unbundled);
    expect(unbundled.requests.map((r) => r.target ?? `${r.method} ${r.path}`)).toEqual([
      'POST /v2/email/outbound-emails',
      'POST /v2/email/outbound-bulk-emails',
      'GET /v2/email/identities/ann%40example.com',
      'GET /v2/email/identities/example.com',
      'TrentService.Encrypt',
      'TrentService.Decrypt',
      'AmazonSQS.SendMessage',
      'POST /schedules/job-1',
      'PUT /schedules/job-1',
      'DELETE /schedules/job-1?clientToken=<uuid>&groupName=jobs',
      'AWSEvents.PutEvents',
      'POST /2015-03-31/functions/render/invocations',
      'POST /2015-03-31/functions/render/invocations',
      'POST /2015-03-31/functions/render/invocations',
    ]);
    expect(unbundled.results.rendered).toEqual({ subject: 'S', html: '<p>x</p>', text: 'x', links: [] });
    expect(unbundled.results.renderFailure).toEqual({ status: 502, code: 'RENDER_FAILED' });
    expect(unbundled.results.identity).toEqual({ verified: true, status: 'SUCCESS' });
  });

  it("reach Google through Node's fetch as the unbundled spreadsheet adapter does, without node-fetch or the generated Sheets client", {
    timeout: 60_000,
  }, async () => {
    const { module, emitted } = await bundle('sheets', "export { GoogleSpreadsheets } from '../shared/adapters/spreadsheet-google/index';");
    const google = await startRecordingEndpoint(answerGoogle, ['authorization', 'user-agent']);
    // A proxy that answers nothing: gaxios hands its agent to Node's fetch, which ignores it, so
    // both go direct.
    const proxy = process.env.HTTPS_PROXY;
    process.env.HTTPS_PROXY = 'http://127.0.0.1:9';
    const { bundled, unbundled } = await bundledThenUnbundled(
      google,
      [module.GoogleSpreadsheets as typeof GoogleSpreadsheets, GoogleSpreadsheets],
      async (Adapter) => {
        const adapter = new Adapter({
          clientId: 'cid',
          clientSecret: 'secret',
          tokenUrl: `${google.endpoint}/token`,
          revokeUrl: `${google.endpoint}/revoke`,
          sheetsRootUrl: `${google.endpoint}/`,
          backoff: { retries: 0 },
        });
        const session = { tokens: { accessToken: 'at-1', refreshToken: 'rt-1', expiresAt: 4_102_444_800_000 } };
        return {
          // The expiry is the answer's `expires_in` from now: kept to the minute.
          tokens: await adapter
            .exchangeCode({ code: 'c-1', redirectUri: 'https://app.example/cb' })
            .then((t) => ({ ...t, expiresAt: Math.round((t.expiresAt! - Date.now()) / 60_000) })),
          created: await adapter.createSpreadsheet(session, { title: 'Sales', tabs: [{ title: 'Sales', header: ['Order ID', 'Total'] }] }),
          appended: await adapter.append(session, 'ss1', 'Sales', [['o1', 12.5]]),
          column: await adapter.readColumn(session, 'ss1', 'Sales', 'A'),
          missing: await adapter.readColumn(session, 'gone', 'Sales', 'A').catch((error: SpreadsheetError) => ({ code: error.code, status: error.status })),
        };
      },
    ).finally(() => {
      if (proxy === undefined) delete process.env.HTTPS_PROXY;
      else process.env.HTTPS_PROXY = proxy;
    });
    expect(bundled).toEqual(unbundled);
    expect(unbundled.results.missing).toEqual({ code: 'not_found', status: 404 });
    expect(unbundled.results.tokens).toEqual({ accessToken: 'at-2', refreshToken: 'rt-2', expiresAt: 60, scope: 'https://www.googleapis.com/auth/drive.file' });
    expect(unbundled.requests.map((r) => `${r.method} ${r.path.split('?')[0]} ${r.headers!.authorization ?? ''}`)).toEqual([
      'POST /token ',
      'POST /v4/spreadsheets Bearer at-1',
      'POST /v4/spreadsheets/ss1/values/Sales%21A1:append Bearer at-1',
      'GET /v4/spreadsheets/ss1/values/Sales%21A%3AA Bearer at-1',
      'GET /v4/spreadsheets/gone/values/Sales%21A%3AA Bearer at-1',
    ]);
    expect(
      emitted.filter((p) => /node_modules\/(node-fetch|fetch-blob|web-streams-polyfill|formdata-polyfill|@googleapis\/sheets|googleapis-common|qs)\//.test(p)),
    ).toEqual([]);
  });

  it('answer MCP initialize, tools/list and tools/call as the unbundled server does, without ajv', { timeout: 60_000 }, async () => {
    const { module, emitted } = await bundle('mcp', "export { handleMcpRequest } from '../shared/mcp/server';");
    const api = await startRecordingEndpoint(
      (request) =>
        request.path === '/products/p1' ? { body: { id: 'p1', name: 'Guide' } } : { status: 404, body: { error: 'Not found', message: 'no such product' } },
      ['authorization'],
    );
    const catalog: ToolEntry[] = [
      {
        name: 'get_product',
        title: 'Get a product',
        description: 'One product',
        inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        annotations: { readOnlyHint: true, destructiveHint: false },
        method: 'GET',
        path: '/products/{id}',
        params: ['id'],
        query: [],
        body: 'none',
      },
    ];
    const messages = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_product', arguments: { id: 'p1' } } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get_product', arguments: { id: 'p2' } } },
    ];
    const { bundled, unbundled } = await bundledThenUnbundled(api, [module.handleMcpRequest as typeof handleMcpRequest, handleMcpRequest], async (handle) => {
      const answers = [];
      for (const message of messages) {
        const request = {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer sk_test_1' },
          rawBody: JSON.stringify(message),
          baseUrl: 'https://api.example',
          path: '/mcp',
          requestId: 'req-1',
        };
        const response = await handle({ config: { API_URL: api.endpoint }, request } as unknown as OperationContext, catalog);
        answers.push({ status: response.status, body: await response.json() });
      }
      return answers;
    });
    expect(bundled).toEqual(unbundled);
    expect(unbundled.results.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(unbundled.results[1]!.body.result.tools.map((t: { name: string }) => t.name)).toEqual(['get_product']);
    expect(unbundled.results[2]!.body.result.structuredContent).toEqual({ id: 'p1', name: 'Guide' });
    expect(unbundled.results[3]!.body.result.isError).toBe(true);
    expect(unbundled.requests.map((r) => `${r.method} ${r.path} ${r.headers!.authorization}`)).toEqual([
      'GET /products/p1 Bearer sk_test_1',
      'GET /products/p2 Bearer sk_test_1',
    ]);
    expect(emitted.filter((p) => /node_modules\/(ajv|ajv-formats|fast-uri)\//.test(p))).toEqual([]);
    // A server given no validator would need ajv: in the bundle it fails at once, saying so.
    const { module: bare } = await bundle(
      'mcp-bare',
      "import { Server } from '@modelcontextprotocol/sdk/server/index.js';\nexport const make = () => new Server({ name: 'x', version: '1' }, { capabilities: {} });",
    );
    expect(() => bare.make()).toThrow(/ajv is not in the Lambda bundle/);
  });

  it('serve from the docs function the very contract the local runtime builds, prebuilt and without any capability', { timeout: 60_000 }, async () => {
    const source = entrySource(APP, { kind: 'api', appFunction: 'docs' }, { tracing: false })!;
    const contract = /prebuiltDocsGroup\("([A-Za-z0-9+/=]+)"\)/.exec(source)![1]!;
    expect(source.match(/from '[^']+'/g)!.filter((m) => /shared\/(?!composition\/)/.test(m))).toEqual([]);
    const serve = async (operations: AnyOperation[], baseUrl: string) => {
      const operation = operations.find((o) => o.operationId === 'getOpenApi')!;
      return (operation.handler as (ctx: unknown, input: unknown) => Promise<{ body: string }>)({ request: { baseUrl } }, {});
    };
    const local = APP.groups.find((g) => g.name === 'docs')!.operations;
    const deployed = prebuiltDocsGroup(contract);
    for (const baseUrl of ['https://api.example.com/prod', 'http://127.0.0.1:3000']) {
      const [mine, theirs] = [await serve(deployed, baseUrl), await serve(local, baseUrl)];
      expect(mine).toEqual(theirs);
      expect(JSON.parse(mine.body).servers).toEqual([{ url: baseUrl }]);
    }
  });

  it('reach a capability providing a port through its ports module only, never its consumers and operations', () => {
    // The buyer portal's cancel asks retention for save offers; the subscribers function gets the port alone.
    const source = entrySource(APP, { kind: 'api', appFunction: 'subscribers' }, { tracing: false })!;
    expect(source).toContain("import { ports as retentionPorts } from '../../shared/retention/ports';");
    expect(source).not.toContain('shared/retention/index');
    // A consumer that charges through the processor gets the router and both providers, without
    // their operations, hosted checkout page or Stripe webhook route.
    const sync = entrySource(APP, { kind: 'consumer', appFunction: 'subscription-processor-sync' }, { tracing: false })!;
    for (const module of ['shared/processor/ports', 'shared/adapters/processor-sandbox/ports', 'shared/adapters/processor-stripe/ports'])
      expect(sync).toContain(`../../${module}'`);
    expect(sync).not.toMatch(/shared\/(processor|adapters\/processor-(sandbox|stripe))\/index/);
    // One that only folds counters gets no processor at all.
    expect(entrySource(APP, { kind: 'consumer', appFunction: 'usage-fold' }, { tracing: false })).not.toContain('processor');
    // The capability's own API function runs its operations module and gets its ports the same way.
    const retention = entrySource(APP, { kind: 'api', appFunction: 'retention' }, { tracing: false })!;
    expect(retention).toContain("import { ports as retentionPorts } from '../../shared/retention/ports';");
    expect(retention).toContain("import { retentionOperations } from '../../shared/retention/operations';");
    expect(retention).not.toContain('shared/retention/index');
  });

  it('leave rendering to the render function: no other function bundles the renderer, and it bundles nothing else', { timeout: 180_000 }, async () => {
    // The functions that send mail or save member posts reach the renderer through the render
    // port (shared/adapters/aws/render.ts), and the ones that queue mail through the outbox.
    for (const spec of [
      { kind: 'api', appFunction: 'email' },
      { kind: 'api', appFunction: 'memberships' },
      { kind: 'consumer', appFunction: 'email-transactional' },
      { kind: 'queue', appFunction: 'email-sends' },
      { kind: 'jobs', appFunction: 'email' },
      { kind: 'consumer', appFunction: 'buyer-receipts' },
      { kind: 'consumer', appFunction: 'memberships-member-area' },
    ] as FunctionSpec[]) {
      const inputs = await functionInputs(spec);
      expect(
        inputs.filter((p) => RENDERER.test(p)),
        `${spec.kind}:${spec.appFunction}`,
      ).toEqual([]);
    }
    // The render function: the renderer, and no store, AWS client or capability beyond it.
    const entry = writeFunctionEntry(APP, { kind: 'render' }, { tracing: true });
    const outfile = join(dir, 'render.mjs');
    const out = await build({ ...ESBUILD_OPTIONS, entryPoints: [entry], outfile, bundle: true, platform: 'node', metafile: true, logLevel: 'error' });
    const inputs = Object.keys(out.metafile.inputs);
    expect(inputs.filter((p) => /node_modules\/(sanitize-html|html-to-text|juice)\//.test(p)).length).toBeGreaterThan(0);
    expect(
      inputs.filter(
        (p) => /node_modules\/(@aws-sdk|@smithy|@aws-lambda-powertools|aws-xray-sdk)/.test(p) || /shared\/(store|platform\/(?!ports|html))/.test(p),
      ),
    ).toEqual([]);
    // Bundled, its handler answers as the unbundled one.
    const { handler } = (await import(pathToFileURL(outfile).href)) as { handler: typeof renderFunction };
    const requests: RenderRequest[] = [
      {
        op: 'mailTemplate',
        content: { subject: 'Hi', html: '<style>p { color: red }</style><p>Hi <a href="https://e.x/a">a</a></p>', preview: 'P' },
        footer: { physicalAddress: '1 Main St', footerText: 'Thanks' },
      },
      { op: 'mailTemplate', content: { subject: 'Text', text: 'One\n\nTwo' }, footer: { physicalAddress: '1 Main St' }, options: { track: false } },
      { op: 'sanitizePost', html: '<p onclick="x()">Hi<script>y()</script></p>' },
    ];
    for (const request of requests) expect(await handler(request)).toEqual(await renderFunction(request));
    await expect(handler({ op: 'nothing' } as never)).rejects.toThrow('Unknown render request: nothing');
  });

  it("draw invoices in the render function only, with pdfkit's fonts inside its bundle, as the unbundled renderer does", { timeout: 180_000 }, async () => {
    const PDF = /node_modules\/(pdfkit|fontkit)\//;
    // The invoices' routes ride on the sales function; they reach pdfkit through the render port.
    for (const spec of [
      { kind: 'api', appFunction: 'sales' },
      { kind: 'api', appFunction: 'team' },
      { kind: 'consumer', appFunction: 'buyer-receipts' },
    ] as FunctionSpec[]) {
      expect(
        (await functionInputs(spec)).filter((p) => PDF.test(p)),
        `${spec.kind}:${spec.appFunction}`,
      ).toEqual([]);
    }
    const entry = writeFunctionEntry(APP, { kind: 'render' }, { tracing: false });
    const outfile = join(dir, 'render-invoices.mjs');
    const out = await build({ ...ESBUILD_OPTIONS, entryPoints: [entry], outfile, bundle: true, platform: 'node', metafile: true, logLevel: 'error' });
    const inputs = Object.keys(out.metafile.inputs);
    // pdfkit's browser build and its font modules, by resolution only: no package code rewritten.
    const pdfkitInputs = inputs.filter((p) => /node_modules\/pdfkit\//.test(p));
    expect(pdfkitInputs).toHaveLength(4);
    expect(pdfkitInputs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/node_modules\/pdfkit\/js\/standard-fonts\/chunks\/standardGlyphNames-[\w-]+\.mjs$/),
        expect.stringMatching(/node_modules\/pdfkit\/js\/pdfkit\.browser\.mjs$/),
        expect.stringMatching(/node_modules\/pdfkit\/js\/standard-fonts\/Helvetica\.mjs$/),
        expect.stringMatching(/node_modules\/pdfkit\/js\/standard-fonts\/HelveticaBold\.mjs$/),
      ]),
    );
    expect(
      Object.values(out.metafile.inputs).some((input) => (input as { imports: { path: string }[] }).imports.some((i) => i.path.endsWith('pdfkit.node.mjs'))),
    ).toBe(false);
    const { handler } = (await import(pathToFileURL(outfile).href)) as { handler: typeof renderFunction };
    const document: InvoiceDocument = {
      kind: 'invoice',
      number: 'INV-000007',
      issuedAt: '2026-11-27T08:00:00.000Z',
      orderId: 'o1',
      language: 'en',
      seller: { name: 'Ada Books GmbH', address: 'Hauptstr. 1, Berlin', taxId: 'DE811907980', email: 'hi@ada.example' },
      buyer: { name: 'Bea', email: 'bea@example.com', companyName: 'Bea Ltd', address: null, vatId: 'IE6388047V', country: 'IE' },
      lines: [{ description: 'Course', amountCents: 4900 }],
      discount: null,
      subtotalCents: 4900,
      taxCents: 0,
      totalCents: 4900,
      currency: 'EUR',
      state: 'paid',
      refundedCents: 0,
      testMode: false,
    };
    const bundled = Buffer.from(((await handler({ op: 'invoicePdf', document })) as { pdf: string }).pdf, 'base64');
    const unbundled = Buffer.from(((await renderFunction({ op: 'invoicePdf', document })) as { pdf: string }).pdf, 'base64');
    expect(bundled.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The same text and fonts (the browser build compresses with fflate rather than zlib, so the
    // bytes of the page streams differ).
    expect(await pdfText(bundled)).toEqual(await pdfText(unbundled));
    expect(await pdfText(bundled)).toContain('IE6388047V');
    const fonts = (pdf: Buffer) => [...pdf.toString('latin1').matchAll(/\/BaseFont \/([\w-]+)/g)].map((m) => m[1]).sort();
    expect(fonts(bundled)).toEqual(['Helvetica', 'Helvetica-Bold']);
    expect(fonts(bundled)).toEqual(fonts(unbundled));
    await expect(handler({ op: 'invoicePdf', document: { number: 1 } } as never)).rejects.toThrow('invoicePdf needs a document');
  });

  it("leave a capability's local adapter out (LOCAL_RUNTIME): the sheets manifest without the CSV adapter and csv-parse", { timeout: 60_000 }, async () => {
    const { module, emitted, bytes } = await bundle('local-adapters', "export { sheets } from '../shared/sheets/index';");
    const factory = (module.sheets as typeof sheets).ports!.spreadsheet!;
    const host = { baseUrl: () => 'http://127.0.0.1:1' } as unknown as Parameters<typeof factory.local>[1];
    expect(() => factory.local({} as Deps, host)).toThrow(/not in the Lambda bundles/);
    // Unbundled, the same factory builds the local adapter.
    expect(sheets.ports!.spreadsheet!.local({} as Deps, host)).toBeInstanceOf(LocalSpreadsheets);
    expect(emitted.filter((p) => p.includes('spreadsheet-local'))).toEqual([]);
    // csv-parse and csv-stringify leave a few top-level constants (~200 bytes), not their 40 KiB.
    const csv = Object.entries(bytes).filter(([p]) => /node_modules\/csv-(parse|stringify)\//.test(p));
    expect(csv.reduce((sum, [, n]) => sum + n, 0)).toBeLessThan(1024);
    expect(emitted.some((p) => p.endsWith('spreadsheet-google/index.ts'))).toBe(true);
  });

  it('validate with zod/mini and English messages, as the unbundled schemas do, without classic zod or other locales', { timeout: 60_000 }, async () => {
    const { module, inputs, emitted } = await bundle(
      'schemas',
      "export { productCreateBody } from '../shared/catalog/schemas';\nexport { parseOrThrow } from '../shared/platform/http/validation';\nexport { emailSchemas } from '../shared/email/schemas';",
    );
    const bodies = [
      { name: '  Course  ', price: 29.99, creditAmount: 3, imageIds: [] },
      { name: 'x'.repeat(500), price: 1 },
      { name: 'Course', price: 10, productType: 'bundle', creditAmount: 1.5 },
      { name: 'Course', price: 10, creditAutoRefill: { enabled: true, topOffCents: 100_000_001 } },
      { price: 'free' },
    ];
    const answer = (parse: typeof parseOrThrow, body: unknown) => {
      try {
        return { ok: parse(productCreateBody, body, 'body') };
      } catch (error) {
        return { message: (error as Error).message, details: (error as { details?: unknown }).details };
      }
    };
    const bundled = (body: unknown) => {
      try {
        return { ok: module.parseOrThrow(module.productCreateBody, body, 'body') };
      } catch (error) {
        return { message: (error as Error).message, details: (error as { details?: unknown }).details };
      }
    };
    for (const body of bodies) expect(bundled(body)).toEqual(answer(parseOrThrow, body));
    // zod's own English message where the schema gives none.
    expect(() => module.parseOrThrow(module.emailSchemas().tokenParams, { token: 'short' }, 'params')).toThrow(
      'token: Too small: expected string to have >=10 characters',
    );
    expect(inputs.filter((p) => /node_modules\/zod\/v4\/classic\//.test(p))).toEqual([]);
    expect(emitted.filter((p) => /node_modules\/zod\/v4\/locales\//.test(p))).toEqual([expect.stringMatching(/locales\/en\.js$/)]);
  });
});

/** The answers of the recording endpoint to the adapters' calls (exerciseAwsJsonAdapters). */
function answerAwsJson(request: RecordedRequest): JsonAnswer {
  const body = (request.body ? JSON.parse(request.body) : {}) as Record<string, string>;
  switch (request.target) {
    case 'TrentService.Encrypt':
      return { body: { CiphertextBlob: Buffer.from(`sealed:${Buffer.from(body.Plaintext!, 'base64')}`).toString('base64'), KeyId: body.KeyId } };
    case 'TrentService.Decrypt':
      return {
        body: { Plaintext: Buffer.from(Buffer.from(body.CiphertextBlob!, 'base64').toString().replace('sealed:', '')).toString('base64'), KeyId: body.KeyId },
      };
    case 'AmazonSQS.SendMessage':
      return { body: { MessageId: 'q-1', MD5OfMessageBody: createHash('md5').update(body.MessageBody!).digest('hex') } };
    case 'AWSEvents.PutEvents':
      return { body: { FailedEntryCount: 0, Entries: [{ EventId: 'e-1' }] } };
  }
  if (request.path === '/2015-03-31/functions/render/invocations') {
    const op = (body as unknown as RenderRequest).op;
    if (op === 'sanitizePost') return { headers: { 'x-amz-function-error': 'Unhandled' }, body: { errorType: 'Error', errorMessage: 'refused' } };
    return { body: op === 'mailTemplate' ? { subject: 'S', html: '<p>x</p>', text: 'x', links: [] } : null };
  }
  if (request.path === '/v2/email/outbound-emails') return { body: { MessageId: 'm-1' } };
  if (request.path === '/v2/email/outbound-bulk-emails')
    return {
      body: {
        BulkEmailEntryResults: [
          { Status: 'SUCCESS', MessageId: 'b-1' },
          { Status: 'MESSAGE_REJECTED', Error: 'rejected' },
        ],
      },
    };
  if (request.path === '/v2/email/identities/example.com') return { body: { VerifiedForSendingStatus: true, VerificationStatus: 'SUCCESS' } };
  if (request.path.startsWith('/v2/email/identities/')) return { status: 404, errorType: 'NotFoundException', body: { message: 'no such identity' } };
  if (request.path.startsWith('/schedules/') && request.method === 'POST') return { status: 409, errorType: 'ConflictException', body: { Message: 'exists' } };
  if (request.path.startsWith('/schedules/') && request.method === 'PUT')
    return { body: { ScheduleArn: 'arn:aws:scheduler:us-east-1:123456789012:schedule/jobs/job-1' } };
  if (request.path.startsWith('/schedules/') && request.method === 'DELETE')
    return { status: 404, errorType: 'ResourceNotFoundException', body: { Message: 'gone' } };
  return { status: 400, errorType: 'UnknownOperationException', body: { message: `unexpected ${request.method} ${request.path} ${request.target}` } };
}

/** Every call the KMS, SQS, EventBridge, SESv2, Scheduler and render adapters make, against `endpoint`. */
async function exerciseAwsJsonAdapters(m: typeof unbundledClients, endpoint: string) {
  const config = { region: 'us-east-1', endpoint, credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' } };
  const email = new m.SesEmail(new m.SESv2Client(config), 'shop@example.com', 'mail-events');
  const kms = new m.KmsEncryption(new m.KMSClient(config), 'key-1');
  const queue = new m.SqsQueue(new m.SQSClient(config), { orders: `${endpoint}/123456789012/orders` });
  const scheduler = new m.EventBridgeScheduler(new m.SchedulerClient(config), {
    group: 'jobs',
    roleArn: 'arn:aws:iam::123456789012:role/s',
    jobsQueueArn: (type) => `arn:aws:sqs:us-east-1:123456789012:jobs-${type}`,
  });
  const bus = new m.EventBridgeBus(new m.EventBridgeClient(config), 'bus');
  const render = new m.LambdaRender(new m.LambdaClient({ ...config, maxAttempts: 1 }), 'render');
  const message = {
    subject: 'Hi {{name}}',
    html: '<p>Hi</p>',
    text: 'Hi',
    fromName: 'Shop "One"',
    headers: { 'List-Unsubscribe': '<https://u.example/x>' },
    tags: { kind: 'broadcast' },
  };
  const sent = await email.send({ ...message, to: ['ann@example.com'], replyTo: 'help@example.com' });
  const bulk = await email.sendBulk({
    ...message,
    destinations: [
      { to: 'a@example.com', data: { name: 'A' } },
      { to: 'b@example.com', data: { name: 'B' }, headers: { 'X-Id': '2' } },
    ],
  });
  const identity = await email.senderIdentity('ann@example.com');
  const sealed = await kms.encrypt('card on file', { account: 'acct-1' });
  const opened = await kms.decrypt(sealed, { account: 'acct-1' });
  await queue.send('orders', { type: 'order.paid', id: 'o-1' }, { delaySeconds: 30 });
  await scheduler.schedule('job-1', new Date('2030-01-02T03:04:05.678Z'), { type: 'renew', payload: { id: 's-1' } });
  await scheduler.cancel('job-1');
  await bus.publish([{ id: 'evt-1', type: 'sale.created', accountId: 'acct-1', mode: 'test', created: 1_900_000_000, data: { amount: 100 } }]);
  const rendered = await render.mailTemplate({ subject: 'S', html: '<p>x</p>' }, { physicalAddress: '1 Main St' });
  await render.mailTemplate({ subject: 'S', text: 'x' }, { physicalAddress: '1 Main St' }, { track: false });
  const renderFailure = await render.sanitizePost('<p>x</p>').catch((error: { status: number; code: string }) => ({ status: error.status, code: error.code }));
  return { sent, bulk, identity, sealed, opened, rendered, renderFailure };
}

/** The answers of the recording endpoint to the spreadsheet adapter's calls, as Google gives them. */
function answerGoogle(request: RecordedRequest): JsonAnswer {
  const path = request.path.split('?')[0]!;
  if (path === '/token')
    return {
      body: { access_token: 'at-2', refresh_token: 'rt-2', expires_in: 3600, scope: 'https://www.googleapis.com/auth/drive.file', token_type: 'Bearer' },
    };
  if (path === '/v4/spreadsheets') return { body: { spreadsheetId: 'ss1', spreadsheetUrl: 'https://docs.example/ss1', properties: { title: 'Sales' } } };
  if (path.startsWith('/v4/spreadsheets/gone/'))
    return { status: 404, body: { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } } };
  if (path.endsWith(':append')) return { body: { updates: { updatedRows: 1 } } };
  if (request.method === 'GET') return { body: { values: [['Order ID', 'o1', 'o2']] } };
  return { status: 400, body: { error: { code: 400, message: `unexpected ${request.method} ${request.path}` } } };
}
