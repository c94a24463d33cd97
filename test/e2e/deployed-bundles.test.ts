import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { App } from 'aws-cdk-lib';
import { SignJWT } from 'jose';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStacks } from '../../lib/app';
import { SANDBOX_NOTIFICATION_SECRET, SIGNATURE_HEADER, sign } from '../../shared/adapters/processor-sandbox/signing';
import { APP } from '../../shared/app';
import { ensureTable } from '../../shared/local/dynamodb-table';
import { createAccount, createApiKey } from '../../shared/platform/accounts';
import { systemClock } from '../../shared/platform/clock';
import { randomHex } from '../../shared/platform/ids';
import type { AnyOperation } from '../../shared/platform/operation';
import { setProcessorSettings } from '../../shared/processor/settings';
import { documentClient } from '../../shared/store/client';
import { Store } from '../../shared/store/store';
import { TEST_DEPLOY_SETTINGS } from '../support/deploy-settings';
import { testDynamoEndpoint } from '../support/dynamo-endpoint';
import { hostBundle, type HostedFunction } from '../support/lambda-host';
import { startRecordingEndpoint } from '../support/recording-endpoint';
import { resolveIntrinsics, type CfnTemplate } from '../support/template-values';

// The API functions exactly as `cdk deploy` ships them: the stacks are synthesized with bundling on,
// each function's asset is loaded from cdk.out in a Node process of its own with exactly the
// environment its template gives it (values resolved as CloudFormation would), plus only what
// Lambda itself sets (region, credentials, function name) and where its AWS clients connect:
// DynamoDB to DynamoDB Local, every service without a local engine (Secrets Manager, SQS, SES, ...)
// to a recording endpoint. Each answers one request in its API Gateway event shape.
const STAGE = 'prod';
const REGION = 'eu-west-1';
const ACCOUNT = '123456789012';
const DEPLOYED_SANDBOX_SECRET = `deployed-${randomHex(24)}`;
const DEPLOYED_SESSION_SECRET = `session-${randomHex(24)}`;

const outdir = mkdtempSync(join(tmpdir(), 'cdk-out-'));
const tableName = `t_${randomHex(6)}`;
let templates: Record<string, CfnTemplate>;
let aws: Awaited<ReturnType<typeof startRecordingEndpoint>>;
let store: Store;
let keys: { accountId: string; testKey: string; liveKey: string };
const hosted = new Map<string, HostedFunction>();

interface ApiFunction {
  group: string;
  /** The template of its stack (an API route stack, lib/layout.ts). */
  stack: CfnTemplate;
  asset: string;
  variables: Record<string, unknown>;
}
let functions: ApiFunction[];

beforeAll(async () => {
  // Only the API route stacks are bundled (their functions, about two minutes here); asset metadata on, as the CLI sets it.
  const routeStacks = ['ApiCommerce', 'ApiGrowth', 'ApiPlatform'];
  const app = new App({
    outdir,
    context: { 'aws:cdk:bundling-stacks': routeStacks.map((name) => `CreatorCommerce-${STAGE}-${name}`), 'aws:cdk:enable-asset-metadata': true },
  });
  const stacks = buildStacks(app, { stage: STAGE, env: { account: ACCOUNT, region: REGION }, settings: TEST_DEPLOY_SETTINGS });
  const assembly = app.synth();
  templates = Object.fromEntries(Object.entries(stacks).map(([name, stack]) => [name, assembly.getStackByName(stack.stackName).template as CfnTemplate]));
  functions = routeStacks.flatMap((name) => {
    const stack = templates[`api${name.slice(3)}`]!;
    return Object.values(stack.Resources)
      .filter((r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Environment?.Variables?.APP_FUNCTION)
      .map((r) => ({
        group: r.Properties.Environment.Variables.APP_FUNCTION as string,
        stack,
        asset: join(outdir, r.Metadata!['aws:asset:path'] as string, 'index.mjs'),
        variables: r.Properties.Environment.Variables,
      }));
  });

  const endpoint = testDynamoEndpoint();
  const raw = new DynamoDBClient({ endpoint, region: REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await ensureTable(raw, tableName);
  raw.destroy();
  store = new Store(documentClient({ region: REGION, endpoint }), tableName);
  const account = await createAccount(store, systemClock, { email: `bundles-${randomHex(4)}@example.com`, plan: 'volume' });
  keys = {
    accountId: account.accountId,
    testKey: (await createApiKey(store, systemClock, account.accountId, 'test')).key,
    liveKey: (await createApiKey(store, systemClock, account.accountId, 'live')).key,
  };

  // Secrets Manager answers each generated secret; everything else is recorded and answered empty.
  aws = await startRecordingEndpoint((request) => {
    if (request.target === 'secretsmanager.GetSecretValue') {
      const { SecretId } = JSON.parse(request.body) as { SecretId: string };
      const value = SecretId.includes('SandboxSigningSecret') ? DEPLOYED_SANDBOX_SECRET : DEPLOYED_SESSION_SECRET;
      return { body: { ARN: SecretId, Name: SecretId, SecretString: value, VersionId: 'v1' } };
    }
    return { body: {} };
  });
}, 600_000);

afterAll(async () => {
  await Promise.all([...hosted.values()].map((fn) => fn.stop()));
  await aws?.close();
  rmSync(outdir, { recursive: true, force: true });
});

/** The function's environment as CloudFormation would set it, and what Lambda and the test add. */
function environmentOf(fn: ApiFunction): Record<string, string> {
  const exports = {
    [`CreatorCommerce-${STAGE}-TableArn`]: `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${tableName}`,
    [`CreatorCommerce-${STAGE}-TableStreamArn`]: `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${tableName}/stream/2026-01-01T00:00:00.000`,
    [`CreatorCommerce-${STAGE}-BucketArn`]: `arn:aws:s3:::uploads-${STAGE}`,
    [`CreatorCommerce-${STAGE}-BucketName`]: `uploads-${STAGE}`,
    [`CreatorCommerce-${STAGE}-KeyArn`]: `arn:aws:kms:${REGION}:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab`,
  };
  const variables = resolveIntrinsics(fn.variables, {
    templates: Object.values(templates),
    exports,
    region: REGION,
    account: ACCOUNT,
    stackOf: fn.stack,
  }) as Record<string, string>;
  return {
    ...variables,
    AWS_REGION: REGION,
    AWS_DEFAULT_REGION: REGION,
    AWS_LAMBDA_FUNCTION_NAME: `creator-commerce-${fn.group}`,
    AWS_ACCESS_KEY_ID: 'AKIDLAMBDA',
    AWS_SECRET_ACCESS_KEY: 'secret-lambda',
    AWS_SESSION_TOKEN: 'token-lambda',
    AWS_ENDPOINT_URL_DYNAMODB: testDynamoEndpoint(),
    AWS_ENDPOINT_URL: aws.endpoint,
    PATH: process.env.PATH!,
  };
}

async function host(group: string): Promise<HostedFunction> {
  let fn = hosted.get(group);
  if (!fn) {
    const deployed = functions.find((f) => f.group === group);
    if (!deployed) throw new Error(`no API function ${group}`);
    fn = await hostBundle(deployed.asset, `creator-commerce-${group}`, environmentOf(deployed));
    hosted.set(group, fn);
  }
  return fn;
}

function apiEvent(
  method: string,
  path: string,
  options: { routeKey?: string; params?: Record<string, string>; headers?: Record<string, string>; body?: string } = {},
) {
  const now = new Date();
  const headers = { host: 'api.example.com', 'user-agent': 'deployed-bundles-test', ...options.headers };
  return {
    version: '2.0',
    routeKey: options.routeKey ?? `${method} ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers,
    pathParameters: options.params && Object.keys(options.params).length ? options.params : undefined,
    requestContext: {
      accountId: ACCOUNT,
      apiId: 'api',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: headers['user-agent'] },
      requestId: randomHex(12),
      routeKey: options.routeKey ?? `${method} ${path}`,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    body: options.body,
    isBase64Encoded: false,
  };
}

/** One request a function's routes take: a key-authenticated read where it has one (it reaches the table). */
function representative(operations: AnyOperation[]): AnyOperation {
  const rank = (o: AnyOperation) => (o.method === 'GET' ? 0 : 2) + (o.auth === 'key' ? 0 : 1) + (o.path.includes('{') ? 0.5 : 0);
  return [...operations].sort((a, b) => rank(a) - rank(b))[0]!;
}

type Answer = { statusCode: number; body?: string; headers?: Record<string, string> };

describe('every API function as deployed', () => {
  it("loads its bundle from cdk.out with the template's environment and answers a request in the API Gateway event shape", { timeout: 300_000 }, async () => {
    expect(functions.map((f) => f.group).sort()).toEqual(APP.groups.map((g) => g.name).sort());
    const failures: string[] = [];
    // A few at a time: each is a Node process loading a bundle.
    const queue = [...APP.groups];
    await Promise.all(
      Array.from({ length: 3 }, async () => {
        for (let group = queue.shift(); group; group = queue.shift()) {
          const operation = representative(group.operations);
          const params = Object.fromEntries([...operation.path.matchAll(/\{(\w+)\+?\}/g)].map((m) => [m[1]!, 'aaaaaaaaaaaaaaaaaaaaaaaa']));
          const path = operation.path.replace(/\{(\w+)\+?\}/g, 'aaaaaaaaaaaaaaaaaaaaaaaa');
          const headers: Record<string, string> = {
            authorization: `Bearer ${keys.testKey}`,
            ...(operation.method === 'GET' ? {} : { 'content-type': 'application/json' }),
          };
          try {
            const fn = await host(group.name);
            const answer = (await fn.invoke(
              apiEvent(operation.method, path, {
                routeKey: `${operation.method} ${operation.path}`,
                params,
                headers,
                body: operation.method === 'GET' ? undefined : '{}',
              }),
            )) as Answer;
            if (!answer || typeof answer.statusCode !== 'number' || answer.statusCode >= 500)
              failures.push(`${group.name} ${operation.method} ${operation.path}: ${JSON.stringify(answer)}\n${fn.logs().slice(-2000)}`);
          } catch (error) {
            failures.push(`${group.name}: ${(error as Error).message}`);
          }
        }
      }),
    );
    expect(failures).toEqual([]);
  });

  it('verifies a session token with the session secret it reads from Secrets Manager by the ARN in its environment', { timeout: 120_000 }, async () => {
    const token = (secret: string) =>
      new SignJWT({ mode: 'live' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(keys.accountId)
        .setIssuer('creator-commerce')
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(secret));
    const fn = await host('account');
    const me = async (secret: string) =>
      ((await fn.invoke(apiEvent('GET', '/users/me', { headers: { authorization: `Bearer ${await token(secret)}` } }))) as Answer).statusCode;
    expect(await me(DEPLOYED_SESSION_SECRET)).toBe(200);
    expect(await me('another-secret-another-secret-another-secret')).toBe(401);
    const read = aws.requests.filter((r) => r.target === 'secretsmanager.GetSecretValue').map((r) => JSON.parse(r.body).SecretId as string);
    expect(read.some((id) => id.includes('SessionSecret'))).toBe(true);
  });
});

describe('the sandbox ingress as deployed (processor function)', () => {
  const notification = (mode: 'live' | 'test', type: string, accountId = keys.accountId) =>
    JSON.stringify({ id: `ntf_${randomHex(8)}`, type, created: Math.floor(Date.now() / 1000), accountId, mode, data: { sessionId: 'cs_x' } });
  const post = async (body: string, secret: string) => {
    const fn = await host('processor');
    return (await fn.invoke(
      apiEvent('POST', '/processor/notifications', {
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: sign(secret, Math.floor(Date.now() / 1000), body) },
        body,
      }),
    )) as Answer;
  };
  const itemCount = async () => {
    const raw = new DynamoDBClient({ endpoint: testDynamoEndpoint(), region: REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    try {
      return (await raw.send(new ScanCommand({ TableName: tableName, Select: 'COUNT', ConsistentRead: true }))).Count;
    } finally {
      raw.destroy();
    }
  };

  it("accepts a test-mode notification signed with the deployment's own secret, read from Secrets Manager", { timeout: 120_000 }, async () => {
    const answer = await post(notification('test', 'something.new'), DEPLOYED_SANDBOX_SECRET);
    expect(answer.statusCode).toBe(200);
    expect(JSON.parse(answer.body!)).toEqual({ received: true, ignored: true });
  });

  it("refuses the repository's constant secret (400), changing nothing", { timeout: 120_000 }, async () => {
    const before = await itemCount();
    const answer = await post(notification('test', 'checkout.completed'), SANDBOX_NOTIFICATION_SECRET);
    expect(answer.statusCode).toBe(400);
    expect(JSON.parse(answer.body!)).toMatchObject({ code: 'INVALID_SIGNATURE' });
    expect(await itemCount()).toBe(before);
  });

  it('answers 404 to a live-mode notification, even validly signed and with settings naming the sandbox, changing nothing', { timeout: 120_000 }, async () => {
    const before = await itemCount();
    for (const type of ['checkout.completed', 'charge.succeeded', 'payment.refunded']) {
      const answer = await post(notification('live', type), DEPLOYED_SANDBOX_SECRET);
      expect(answer.statusCode, type).toBe(404);
    }
    expect(await itemCount()).toBe(before);
    // A live scope whose settings name the sandbox (as `admin set-processor` would once have stored):
    // a deployed stack still never lets the sandbox serve live mode.
    const other = await createAccount(store, systemClock, { email: `sbx-live-${randomHex(4)}@example.com` });
    await setProcessorSettings(
      { store, clock: systemClock, encryption: { encrypt: async () => '', decrypt: async () => '' } },
      { accountId: other.accountId, mode: 'live' },
      { provider: 'sandbox' },
    );
    const settled = await itemCount();
    const answer = await post(notification('live', 'checkout.completed', other.accountId), DEPLOYED_SANDBOX_SECRET);
    expect(answer.statusCode).toBe(404);
    expect(await itemCount()).toBe(settled);
  });
});
