// A Lambda-like host for one deployed bundle: `node lambda-host-child.mjs <bundle.mjs> <function name>`,
// started with exactly the environment the function gets. It imports the bundle (a throw at load
// is reported and ends it), then runs each event it reads from stdin (one JSON line each:
// { id, event }) through the bundle's handler, one at a time as one Lambda container would, and
// writes { id, result } or { id, error } per line to stdout. Plain JavaScript: nothing of the test
// runner or of tsx is loaded beside the bundle.
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const [bundle, functionName] = process.argv.slice(2);
const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const describe = (error) => ({ name: error?.name, message: error?.message ?? String(error), stack: error?.stack });

let handler;
try {
  ({ handler } = await import(pathToFileURL(bundle).href));
  if (typeof handler !== 'function') throw new Error(`${bundle} exports no handler`);
  write({ ready: true });
} catch (error) {
  write({ loadError: describe(error) });
  process.exit(1);
}

let invocation = 0;
const context = () => ({
  functionName,
  functionVersion: '$LATEST',
  invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION}:123456789012:function:${functionName}`,
  memoryLimitInMB: '512',
  awsRequestId: `req-${++invocation}`,
  logGroupName: `/aws/lambda/${functionName}`,
  logStreamName: 'host',
  callbackWaitsForEmptyEventLoop: false,
  getRemainingTimeInMillis: () => 29_000,
});

let queue = Promise.resolve();
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { id, event } = JSON.parse(line);
  queue = queue.then(async () => {
    try {
      write({ id, result: await handler(event, context()) });
    } catch (error) {
      write({ id, error: describe(error) });
    }
  });
}
await queue;
