/**
 * `npm start`: the whole service on this machine. Flags: --memory (nothing persists),
 * --port N (or PORT), --data DIR (default .data).
 */
import { parseArgs } from 'node:util';
import { startLocalRuntime } from '../shared/local/runtime';

process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
process.env.POWERTOOLS_DEV ??= 'true';
// Lambda runs Node.js 22; on a Node 20 laptop the SDK's upgrade notice is noise.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { values } = parseArgs({
  options: {
    memory: { type: 'boolean', default: false },
    port: { type: 'string' },
    data: { type: 'string' },
  },
});

async function main() {
  const runtime = await startLocalRuntime({
    port: Number(values.port ?? process.env.PORT ?? 3000),
    memory: values.memory,
    dataDir: values.data,
    demo: true,
  });
  const demo = runtime.demo!;
  console.log(`
Creator Commerce is running at ${runtime.url}
  Dashboard      ${runtime.url}/dashboard
                 sign in as demo@example.com: the sign-in link is mailed to
                 ${runtime.url}/_local/emails?to=demo@example.com (no mail leaves this machine)
  API explorer   ${runtime.url}/docs
  OpenAPI        ${runtime.url}/docs.json
  MCP            ${runtime.url}/mcp
  Data           ${values.memory ? 'in memory (gone when stopped)' : (values.data ?? '.data/')}
  Secrets        ${values.memory ? 'generated for this process' : `generated on first start into ${values.data ?? '.data'}/secrets.json`} (an environment value overrides)
  Webhooks to    ${runtime.config.WEBHOOK_ALLOW_LOOPBACK === '1' ? 'http://127.0.0.1 and localhost allowed (WEBHOOK_ALLOW_LOOPBACK=1)' : 'public https only; start with WEBHOOK_ALLOW_LOOPBACK=1 to deliver to http://127.0.0.1'}

Demo account ${demo.accountId}
  test key  ${demo.testKey}
  live key  ${demo.liveKey}

Try: curl -H "Authorization: Bearer ${demo.testKey}" ${runtime.url}/users/me
`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping (DynamoDB Local too)...`);
    await runtime.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error) => {
  console.error(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
