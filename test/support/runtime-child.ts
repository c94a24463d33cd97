import { startLocalRuntime } from '../../shared/local/runtime';

// A local runtime in its own process, on a data folder and a table that outlive it, so a test can
// kill it (SIGKILL, nothing flushed) and start another on the same state.
const [dynamoEndpoint, tableName, dataDir] = process.argv.slice(2);
const runtime = await startLocalRuntime({ port: 0, dataDir, dynamoEndpoint, tableName, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
process.stdout.write(`${JSON.stringify({ url: runtime.url })}\n`);
