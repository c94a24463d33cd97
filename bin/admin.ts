/**
 * Admin CLI: accounts, API keys and plans, against the local runtime's table or a deployed one.
 *
 *   npm run admin -- --local create-account --email me@example.com --plan tier2
 *   npm run admin -- --table CreatorCommerce-prod-Table... --region eu-west-1 list-accounts
 *
 * Commands: create-account, list-accounts, set-plan, create-key, list-keys, revoke-key, session-token,
 * set-processor (the secrets are encrypted with the stack's KMS key, `--kms-key-id` or KMS_KEY_ID,
 * or locally with the runtime's key under --data; they can be read back by nothing but the API).
 *
 * Developer commands (through the API with a key; --api defaults to the local runtime):
 *   npm run admin -- listen --key sk_test_... --forward-to http://localhost:4242/webhooks
 *   npm run admin -- trigger order.completed --key sk_test_...
 *
 * Dead letters (see docs/operations.md): a deployed stack's, named in its DeadLetterQueues output,
 * or the running local runtime's without --outputs:
 *   npm run admin -- redrive --outputs cdk-outputs.json [--queue webhooks] [--dry-run]
 *   npm run admin -- redrive [--queue consumer:webhooks-fanout] [--dry-run]
 *
 * Store imports run by staff for an account (recorded as createdBy.type `admin`), through the API
 * with a staff session token signed with the API's session secret: JWT_SECRET when set, else the
 * local runtime's (its data folder, --data), else a deployed stack's read from Secrets Manager
 * (--session-secret-arn, the Api stack's SessionSecretArn output); --api defaults to the local runtime:
 *   npm run admin -- start-import --account ID --mode live --source shopify \
 *     --file products=products_export.csv --file customers=customers_export.csv [--token T --shop S]
 *
 *   npm run admin -- --local set-processor --account ID --mode live --provider stripe \
 *     --secret-key rk_live_... --webhook-secret whsec_... [--automatic-tax]
 *   (--automatic-tax: Stripe Tax on checkouts; the sandbox takes --tax-rate <percent> to simulate a rate)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { KMSClient } from '@aws-sdk/client-kms';
import { SignJWT } from 'jose';
import { KmsEncryption } from '../shared/adapters/aws/encryption';
import { LocalEncryption } from '../shared/adapters/local/encryption';
import { SECRETS_FILE } from '../shared/adapters/local/secrets';
import { SESSION_SECRET } from '../shared/platform/settings';
import type { EncryptionPort } from '../shared/platform/ports';
import { PROCESSOR_PROVIDERS, setProcessorSettings, type ProcessorProviderName } from '../shared/processor/settings';
import { createAccount, createApiKey, getAccount, listAccounts, listApiKeys, revokeApiKey, updateAccount } from '../shared/platform/accounts';
import { systemClock } from '../shared/platform/clock';
import { PLANS, type Plan } from '../shared/platform/plans';
import { documentClient } from '../shared/store/client';
import { Store } from '../shared/store/store';
import { listen, trigger, TRIGGERS } from './cli/developer';
import { readStackOutputs, redrive, regionOf } from './cli/redrive';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    local: { type: 'boolean', default: false },
    data: { type: 'string', default: '.data' },
    endpoint: { type: 'string' },
    table: { type: 'string' },
    region: { type: 'string' },
    email: { type: 'string' },
    name: { type: 'string' },
    plan: { type: 'string' },
    account: { type: 'string' },
    mode: { type: 'string' },
    'key-id': { type: 'string' },
    ttl: { type: 'string', default: '3600' },
    api: { type: 'string' },
    key: { type: 'string' },
    'forward-to': { type: 'string' },
    secret: { type: 'string' },
    provider: { type: 'string' },
    'secret-key': { type: 'string' },
    'webhook-secret': { type: 'string' },
    'automatic-tax': { type: 'boolean' },
    'tax-rate': { type: 'string' },
    'kms-key-id': { type: 'string' },
    queue: { type: 'string' },
    outputs: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    source: { type: 'string' },
    file: { type: 'string', multiple: true },
    token: { type: 'string' },
    shop: { type: 'string' },
    'session-secret-arn': { type: 'string' },
  },
});

function fail(message: string): never {
  console.error(`admin: ${message}`);
  process.exit(2);
}

function target(): { store: Store; where: string } {
  let endpoint = values.endpoint ?? process.env.DYNAMODB_ENDPOINT;
  let table = values.table ?? process.env.TABLE_NAME;
  if (values.local) {
    try {
      const runtime = JSON.parse(readFileSync(join(values.data!, 'runtime.json'), 'utf8')) as { dynamoEndpoint: string; tableName: string };
      endpoint = runtime.dynamoEndpoint;
      table = runtime.tableName;
    } catch {
      fail(`no running local runtime found in ${values.data}/runtime.json: start it with npm start`);
    }
  }
  if (!table) fail('name the table: --local, or --table NAME (and --region, with AWS credentials in the environment)');
  const region = values.region ?? process.env.AWS_REGION ?? 'us-east-1';
  if (endpoint) {
    process.env.AWS_ACCESS_KEY_ID ??= 'local';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  }
  return { store: new Store(documentClient({ region, endpoint }), table), where: endpoint ? `${table} at ${endpoint}` : `${table} in ${region}` };
}

/** The running local runtime's address (written by npm start), if there is one. */
function localApiUrl(): string | undefined {
  try {
    const runtime = JSON.parse(readFileSync(join(values.data!, 'runtime.json'), 'utf8')) as { url?: string; baseUrl?: string };
    return runtime.url ?? runtime.baseUrl;
  } catch {
    return undefined;
  }
}

const plan = (): Plan => {
  if (!values.plan || !(PLANS as readonly string[]).includes(values.plan)) fail(`--plan must be one of ${PLANS.join(', ')}`);
  return values.plan as Plan;
};
const mode = (): 'live' | 'test' => {
  if (values.mode !== 'live' && values.mode !== 'test') fail('--mode must be live or test');
  return values.mode;
};
/** A table of the local runtime or DynamoDB Local (an endpoint), not a deployed stack's. */
const isLocalTable = () => Boolean(values.local || values.endpoint || process.env.DYNAMODB_ENDPOINT);

/** The stack's KMS key in AWS; the local runtime's own key file otherwise (the API decrypts with it). */
function encryption(): EncryptionPort {
  if (isLocalTable()) return new LocalEncryption(join(values.data!, 'master.key'));
  const keyId = values['kms-key-id'] ?? process.env.KMS_KEY_ID ?? fail("--kms-key-id (the stack's secrets key) is required for a deployed table");
  return new KmsEncryption(new KMSClient({ region: values.region ?? process.env.AWS_REGION ?? 'us-east-1' }), keyId);
}
const accountId = () => values.account ?? fail('--account ID is required');

/**
 * The secret the API signs sessions with: the environment's JWT_SECRET, a deployed stack's from
 * Secrets Manager (--session-secret-arn), or the one the local runtime generated in its data folder.
 */
async function sessionSecret(): Promise<string> {
  const given = process.env.JWT_SECRET;
  if (given) {
    if (given.length < 32) fail('JWT_SECRET must be 32+ characters, the same the API runs with');
    return given;
  }
  const arn = values['session-secret-arn'];
  if (arn) {
    const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
    const region = values.region ?? process.env.AWS_REGION ?? arn.split(':')[3];
    const out = await new SecretsManagerClient({ region }).send(new GetSecretValueCommand({ SecretId: arn }));
    return out.SecretString ?? fail(`secret ${arn} has no string value`);
  }
  try {
    const kept = JSON.parse(readFileSync(join(values.data!, SECRETS_FILE), 'utf8')) as Record<string, string>;
    if (kept[SESSION_SECRET.name]) return kept[SESSION_SECRET.name]!;
  } catch {
    /* no local data folder */
  }
  return fail(
    `no session secret: run the local runtime (npm start, data in ${values.data}), or pass --session-secret-arn (a deployed stack's SessionSecretArn output), or set JWT_SECRET`,
  );
}

async function main() {
  const command = positionals[0];
  if (!command)
    fail(
      'a command is required: create-account, list-accounts, set-plan, create-key, list-keys, revoke-key, session-token, set-processor, start-import, listen, trigger, redrive',
    );
  if (command === 'listen' || command === 'trigger') {
    const local = localApiUrl();
    const api = {
      baseUrl: values.api ?? local ?? fail('--api URL is required (no local runtime is running)'),
      key: values.key ?? process.env.API_KEY ?? fail('--key (or API_KEY) is required'),
    };
    if (command === 'listen') {
      const forwardTo = values['forward-to'] ?? fail('--forward-to URL is required');
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      process.once('SIGTERM', () => stop.abort());
      await listen(api, { forwardTo, secret: values.secret, signal: stop.signal });
      return;
    }
    const type = positionals[1] ?? fail(`an event type is required: ${TRIGGERS.join(', ')}`);
    // The payment step of a purchase can be driven only on the local runtime.
    const isLocal = /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?(\/|$)/.test(api.baseUrl);
    await trigger(api, type, { localControlUrl: isLocal ? api.baseUrl : undefined });
    return;
  }
  if (command === 'redrive') {
    await redriveCommand();
    return;
  }
  if (command === 'start-import') {
    await startImportCommand();
    return;
  }
  if (command === 'session-token') {
    const secret = await sessionSecret();
    const token = await new SignJWT({ mode: mode() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(accountId())
      .setIssuer('creator-commerce')
      .setIssuedAt()
      .setExpirationTime(`${Number(values.ttl)}s`)
      .sign(new TextEncoder().encode(secret));
    console.log(token);
    return;
  }
  const { store, where } = target();
  const clock = systemClock;
  switch (command) {
    case 'create-account': {
      if (!values.email) fail('--email is required');
      const account = await createAccount(store, clock, { email: values.email, name: values.name, plan: values.plan ? plan() : 'free' });
      const live = await createApiKey(store, clock, account.accountId, 'live');
      const test = await createApiKey(store, clock, account.accountId, 'test');
      console.log(JSON.stringify({ accountId: account.accountId, plan: account.plan, liveKey: live.key, testKey: test.key }, null, 2));
      console.error(`Created in ${where}. The keys are shown once; only their hashes are stored.`);
      return;
    }
    case 'list-accounts':
      for (const account of await listAccounts(store)) console.log(`${account.accountId}  ${account.plan.padEnd(6)}  ${account.email}`);
      return;
    case 'set-plan': {
      const newPlan = plan();
      if (!(await getAccount(store, accountId()))) fail(`no account ${accountId()} in ${where}`);
      const account = await updateAccount(store, accountId(), { plan: newPlan });
      console.log(`${account.accountId} is now on ${account.plan} (running functions pick it up within a minute)`);
      return;
    }
    case 'create-key': {
      mode();
      if (!(await getAccount(store, accountId()))) fail(`no account ${accountId()} in ${where}`);
      const { key, record } = await createApiKey(store, clock, accountId(), mode());
      console.log(JSON.stringify({ keyId: record.keyId, mode: record.mode, key }, null, 2));
      return;
    }
    case 'list-keys':
      for (const key of await listApiKeys(store, accountId()))
        console.log(`${key.keyId}  ${key.mode}  ${key.hint}...  ${key.revokedAt ? `revoked ${key.revokedAt}` : 'active'}`);
      return;
    case 'revoke-key': {
      const keyId = values['key-id'] ?? fail('--key-id is required (see list-keys)');
      if (!(await revokeApiKey(store, clock, accountId(), keyId))) fail(`no key ${keyId} for account ${accountId()}`);
      console.log(`revoked ${keyId} (running functions refuse it within a minute)`);
      return;
    }
    case 'set-processor': {
      const provider = values.provider as ProcessorProviderName;
      if (!(PROCESSOR_PROVIDERS as readonly string[]).includes(provider)) fail(`--provider must be one of ${PROCESSOR_PROVIDERS.join(', ')}`);
      const scope = { accountId: accountId(), mode: mode() };
      // The sandbox moves no money: a deployed stack never lets it serve live mode (its router
      // refuses it too), so the setting would only look like a working live store.
      if (provider === 'sandbox' && scope.mode === 'live' && !isLocalTable())
        fail('--provider sandbox cannot serve live mode in a deployed stack: live payments need a real provider (--provider stripe)');
      if (!(await getAccount(store, scope.accountId))) fail(`no account ${scope.accountId} in ${where}`);
      let secrets: Record<string, string> = {};
      if (provider === 'stripe') {
        const secretKey = values['secret-key'] ?? fail('--secret-key (a Stripe restricted key rk_... or secret key sk_...) is required');
        const webhookSecret = values['webhook-secret'] ?? fail('--webhook-secret (the endpoint signing secret whsec_...) is required');
        const prefix = scope.mode === 'live' ? '_live_' : '_test_';
        if (!/^(rk|sk)_(live|test)_/.test(secretKey) || !secretKey.includes(prefix))
          fail(`--secret-key must be a Stripe ${scope.mode}-mode key (rk${prefix}... or sk${prefix}...)`);
        if (!webhookSecret.startsWith('whsec_')) fail('--webhook-secret must start with whsec_');
        secrets = { secretKey, webhookSecret };
      }
      const taxRate = values['tax-rate'] === undefined ? undefined : Number(values['tax-rate']);
      if (taxRate !== undefined && (provider !== 'sandbox' || !Number.isFinite(taxRate) || taxRate < 0 || taxRate > 100))
        fail("--tax-rate is the sandbox's simulated rate, a percent from 0 to 100");
      if (values['automatic-tax'] && provider !== 'stripe') fail('--automatic-tax is Stripe Tax: use it with --provider stripe');
      const tax = values['automatic-tax'] ? { automatic: true } : taxRate !== undefined ? { simulatedRatePercent: taxRate } : null;
      const saved = await setProcessorSettings({ store, clock, encryption: encryption() }, scope, { provider, secrets, tax });
      console.log(
        JSON.stringify({ accountId: scope.accountId, mode: scope.mode, provider: saved.provider, hints: saved.hints, updatedAt: saved.updatedAt }, null, 2),
      );
      console.error(
        `Stored in ${where}. Running functions pick it up within a minute. Stripe webhook endpoint: <API base>/processor/stripe/webhooks/${scope.accountId}/${scope.mode}`,
      );
      return;
    }
    default:
      fail(`unknown command ${command}`);
  }
}

/** A session token for the account that marks its holder as the service's staff. */
async function staffToken(account: string, tokenMode: 'live' | 'test'): Promise<string> {
  const secret = await sessionSecret();
  return new SignJWT({ mode: tokenMode, staff: true })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(account)
    .setIssuer('creator-commerce')
    .setIssuedAt()
    .setExpirationTime('15m')
    .sign(new TextEncoder().encode(secret));
}

/** Creates the import (files from disk, or pulled with --token), dry-runs it and starts it. */
async function startImportCommand() {
  const baseUrl = (values.api ?? localApiUrl() ?? fail('--api URL is required (no local runtime is running)')).replace(/\/$/, '');
  const source = values.source ?? fail('--source is required (csv, gumroad, shopify, mailchimp)');
  const files = (values.file ?? []).map((entry) => {
    const [kind, ...rest] = entry.split('=');
    const path = rest.join('=');
    if (!kind || !path) fail(`--file ${entry}: write it as kind=path (kinds: products, customers, orders, subscribers)`);
    let csv: string;
    try {
      csv = readFileSync(path, 'utf8');
    } catch (error) {
      fail(`--file ${entry}: ${(error as Error).message}`);
    }
    return { kind, filename: path.split('/').pop()!, csv };
  });
  if (!files.length && !values.token) fail('give at least one --file kind=path, or --token to pull from the platform API');
  const bearer = await staffToken(accountId(), mode());
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) fail(`${method} ${path} answered ${response.status}: ${answer.message ?? JSON.stringify(answer)}`);
    return answer;
  };
  const created = await call('POST', '/migrations', { source, ...(files.length ? { files } : {}) });
  if (values.token) await call('POST', `/migrations/${created._id}/connect`, { token: values.token, ...(values.shop ? { shop: values.shop } : {}) });
  // A large file is stored by a worker (`processing`) and a large import's dry run is computed by one
  // (202): both are waited for here, polling the import.
  const until = async (done: (record: Record<string, unknown>) => boolean) => {
    for (;;) {
      const record = await call('GET', `/migrations/${created._id}`);
      if (done(record)) return record;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  };
  await until((record) => (record.files as { status: string }[]).every((file) => file.status === 'ready'));
  let dry = await call('POST', `/migrations/${created._id}/dry-run`);
  if (dry.status === 'computing') dry = (await until((record) => !!record.dryRun)).dryRun as Record<string, unknown>;
  if (!dry.canStart) fail(`import ${created._id} cannot start: ${(dry.notes as string[]).join('; ')}`);
  if (values['dry-run']) {
    console.log(JSON.stringify({ importId: created._id, dryRun: dry }, null, 2));
    return;
  }
  const started = await call('POST', `/migrations/${created._id}/start`);
  console.log(JSON.stringify({ importId: started._id, status: started.status, createdBy: started.createdBy, dryRun: dry.kinds }, null, 2));
}

async function redriveCommand() {
  const dryRun = values['dry-run'];
  if (!values.outputs) {
    const baseUrl = values.api ?? localApiUrl() ?? fail('--outputs cdk-outputs.json (a deployed stack), or a running local runtime (npm start)');
    const response = await fetch(`${baseUrl.replace(/\/$/, '')}/_local/dead-letters/redrive`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ queue: values.queue, dryRun }),
    });
    const answer = (await response.json()) as { message?: string; deadLetters?: { queue: string; id: string; error: string; type?: string }[] };
    if (!response.ok) fail(answer.message ?? `redrive answered ${response.status}`);
    for (const dead of answer.deadLetters ?? []) console.log(`${dead.queue}  ${dead.type ?? ''}  ${dead.id}  (failed: ${dead.error})`);
    console.error(
      `${answer.deadLetters?.length ?? 0} dead letter(s) ${dryRun ? 'would be redriven (dry run)' : 'redriven'} on the local runtime at ${baseUrl}`,
    );
    return;
  }
  const { queues, busName } = readStackOutputs(values.outputs);
  const first = Object.values(queues)[0];
  const region = values.region ?? process.env.AWS_REGION ?? (first ? regionOf(first.dlqArn) : undefined);
  const [{ SQSClient }, { EventBridgeClient }, { DynamoDBStreamsClient }] = await Promise.all([
    import('@aws-sdk/client-sqs'),
    import('@aws-sdk/client-eventbridge'),
    import('@aws-sdk/client-dynamodb-streams'),
  ]);
  const reports = await redrive(
    queues,
    { queue: values.queue, dryRun, busName },
    {
      sqs: new SQSClient({ region }),
      events: new EventBridgeClient({ region }),
      streams: new DynamoDBStreamsClient({ region }),
    },
  );
  for (const report of reports) {
    console.log(`${report.queue} (${report.kind}): ${report.moved} ${dryRun ? 'to redrive (dry run)' : 'redriven'}`);
    for (const line of report.lines) console.log(`  ${line}`);
    for (const line of report.left) console.log(`  left: ${line}`);
  }
  if (reports.some((r) => r.left.length)) process.exitCode = 1;
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
