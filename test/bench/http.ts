import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

export interface LoadFigures {
  requests: number;
  p50: number;
  p99: number;
  rps: number;
  errors: number;
}

const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/**
 * One autocannon run in its own Node process (so the load generator never shares an event loop
 * with the runtime under test), answering its JSON summary.
 */
export function runLoad(options: {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  connections?: number;
  amount?: number;
  seconds?: number;
}): Promise<LoadFigures> {
  const length = options.seconds !== undefined ? ['-d', String(options.seconds)] : ['-a', String(options.amount ?? 1000)];
  const args = [autocannonBin, '-j', '-c', String(options.connections ?? 16), ...length, '-t', '20', '-m', options.method ?? 'GET'];
  for (const [name, value] of Object.entries({ ...(options.body ? { 'content-type': 'application/json' } : {}), ...(options.headers ?? {}) }))
    args.push('-H', `${name}=${value}`);
  if (options.body) args.push('-b', JSON.stringify(options.body));
  args.push(options.url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}: ${err}`));
      const result = JSON.parse(out);
      resolve({
        requests: result.requests.total,
        p50: result.latency.p50,
        p99: result.latency.p99,
        rps: Math.round(result.requests.total / result.duration),
        errors: result.errors + result.timeouts + result.non2xx,
      });
    });
  });
}
