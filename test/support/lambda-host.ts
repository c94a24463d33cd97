import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const HOST = join(import.meta.dirname, 'lambda-host-child.mjs');

export interface HostedFunction {
  invoke(event: unknown): Promise<unknown>;
  /** What the function logged (stderr and stdout lines that are not the host's answers). */
  logs(): string;
  stop(): Promise<void>;
}

/**
 * Loads one bundle in a Node process of its own with exactly `environment` (test/support/lambda-host-child.mjs);
 * rejects with the error when the bundle throws at load.
 */
export async function hostBundle(bundle: string, functionName: string, environment: Record<string, string>, timeoutMs = 60_000): Promise<HostedFunction> {
  const child: ChildProcess = spawn(process.execPath, [HOST, bundle, functionName], { env: environment, stdio: ['pipe', 'pipe', 'pipe'] });
  let logs = '';
  child.stderr!.on('data', (chunk: Buffer) => (logs += chunk.toString('utf8')));
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let ready: (value: unknown) => void;
  let failed: (error: Error) => void;
  const loaded = new Promise((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let message: { ready?: true; loadError?: { message: string; stack?: string }; id?: number; result?: unknown; error?: { message: string; stack?: string } };
    try {
      message = JSON.parse(line);
    } catch {
      logs += `${line}\n`;
      return;
    }
    if (typeof message !== 'object' || message === null) {
      logs += `${line}\n`;
      return;
    }
    if (message.ready) return ready(true);
    if (message.loadError) return failed(new Error(`${functionName} threw at load: ${message.loadError.stack ?? message.loadError.message}`));
    if (message.id === undefined) {
      logs += `${line}\n`;
      return;
    }
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) waiter?.reject(new Error(`${functionName} threw: ${message.error.stack ?? message.error.message}`));
    else waiter?.resolve(message.result);
  });
  child.once('exit', (code) => {
    failed?.(new Error(`${functionName}'s host exited with ${code} before loading:\n${logs}`));
    for (const waiter of pending.values()) waiter.reject(new Error(`${functionName}'s host exited with ${code}:\n${logs}`));
  });
  const timer = setTimeout(() => failed(new Error(`${functionName} did not load in ${timeoutMs / 1000} s`)), timeoutMs);
  try {
    await loaded;
  } finally {
    clearTimeout(timer);
  }
  let next = 0;
  return {
    invoke(event) {
      const id = ++next;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.stdin!.write(`${JSON.stringify({ id, event })}\n`);
      });
    },
    logs: () => logs,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin!.end();
      child.kill('SIGTERM');
      await exited;
    },
  };
}
