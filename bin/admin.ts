/**
 * Admin CLI: accounts, API keys and plans, against the local runtime's table or a deployed one.
 *
 *   npm run admin -- --local create-account --email me@example.com --plan tier2
 *   npm run admin -- --table CreatorCommerce-prod-Table... --region eu-west-1 list-accounts
 *
 * Commands: create-account, list-accounts, set-plan, create-key, list-keys, revoke-key, session-token.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';
import { createAccount, createApiKey, getAccount, listAccounts, listApiKeys, revokeApiKey, updateAccount } from '../shared/platform/accounts';
import { systemClock } from '../shared/platform/clock';
import { PLANS, type Plan } from '../shared/platform/plans';
import { documentClient } from '../shared/store/client';
import { Store } from '../shared/store/store';

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

const plan = (): Plan => {
  if (!values.plan || !(PLANS as readonly string[]).includes(values.plan)) fail(`--plan must be one of ${PLANS.join(', ')}`);
  return values.plan as Plan;
};
const mode = (): 'live' | 'test' => {
  if (values.mode !== 'live' && values.mode !== 'test') fail('--mode must be live or test');
  return values.mode;
};
const accountId = () => values.account ?? fail('--account ID is required');

async function main() {
  const command = positionals[0];
  if (!command) fail('a command is required: create-account, list-accounts, set-plan, create-key, list-keys, revoke-key, session-token');
  if (command === 'session-token') {
    const secret = process.env.JWT_SECRET;
    if (!secret || secret.length < 32) fail('JWT_SECRET (32+ characters, the same the API runs with) must be set');
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
      for (const key of await listApiKeys(store, accountId())) console.log(`${key.keyId}  ${key.mode}  ${key.hint}...  ${key.revokedAt ? `revoked ${key.revokedAt}` : 'active'}`);
      return;
    case 'revoke-key': {
      const keyId = values['key-id'] ?? fail('--key-id is required (see list-keys)');
      if (!(await revokeApiKey(store, clock, accountId(), keyId))) fail(`no key ${keyId} for account ${accountId()}`);
      console.log(`revoked ${keyId} (running functions refuse it within a minute)`);
      return;
    }
    default:
      fail(`unknown command ${command}`);
  }
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
