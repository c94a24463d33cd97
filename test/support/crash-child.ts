/**
 * A local runtime in its own process, for the crash-injection test: it starts on the data folder,
 * table and port named in the environment, prints `READY <url>` and runs until it is killed.
 */
import { startLocalRuntime } from '../../shared/local/runtime';

const runtime = await startLocalRuntime({
  port: Number(process.env.CRASH_PORT),
  dataDir: process.env.CRASH_DATA_DIR,
  dynamoEndpoint: process.env.CRASH_DYNAMO_ENDPOINT,
  tableName: process.env.CRASH_TABLE,
  allowLoopbackWebhooks: true,
});
process.stdout.write(`READY ${runtime.url}\n`);
