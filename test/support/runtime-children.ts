import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startDynamoDbLocal } from '../../shared/local/dynamodb';
import { TEST_JAVA_OPTIONS } from './dynamo-pool';
import { randomHex } from '../../shared/platform/ids';

/**
 * Whole local runtimes in child processes on one table and one data folder, for tests that kill
 * one (SIGKILL: nothing flushed) and start another on the same state. They get a fresh DynamoDB
 * Local of their own rather than the pool's: they write thousands of items, and every write costs
 * more the more stream records an instance holds (see dynamo-pool.ts).
 */
export async function runtimeChildren(prefix: string) {
  const dynamo = await startDynamoDbLocal({ javaOptions: TEST_JAVA_OPTIONS });
  const endpoint = dynamo.endpoint;
  const tableName = `t_${randomHex(6)}`;
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  const children: ChildProcess[] = [];

  const start = (): Promise<{ child: ChildProcess; url: string }> => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'runtime-child.ts'), endpoint, tableName, dataDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'ERROR' },
    });
    children.push(child);
    return new Promise((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk) => {
        out += chunk;
        const line = out.split('\n').find((l) => l.startsWith('{"url"'));
        if (line) resolve({ child, url: JSON.parse(line).url });
      });
      child.once('exit', (code) => reject(new Error(`runtime exited with ${code}`)));
    });
  };

  const kill = async (child: ChildProcess) => {
    child.kill('SIGKILL');
    if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
  };

  /** Mails captured so far (the local mail adapter appends one line per recipient). */
  const mailLines = async () => {
    try {
      return (await readFile(join(dataDir, 'emails.jsonl'), 'utf8')).split('\n').filter(Boolean).length;
    } catch {
      return 0;
    }
  };

  const cleanup = async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    const raw = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    await raw.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
    raw.destroy();
    await dynamo.stop();
    await rm(dataDir, { recursive: true, force: true });
  };

  return { endpoint, tableName, dataDir, start, kill, mailLines, cleanup };
}
