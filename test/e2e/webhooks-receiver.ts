import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../shared/webhooks/receiver';

/** A request as a webhook receiver on 127.0.0.1 saw it, with its arrival time. */
export interface Received {
  path: string;
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Behaviour = (request: Received, countOnPath: number, response: ServerResponse) => void | Promise<void>;

/**
 * A real HTTP receiver. Each path can be given its own behaviour (status, delay, redirect);
 * the default answers 200.
 */
export async function startReceiver(): Promise<{
  url: string;
  port: number;
  on(path: string, behaviour: Behaviour): void;
  received(path?: string): Received[];
  close(): Promise<void>;
}> {
  const behaviours = new Map<string, Behaviour>();
  const all: Received[] = [];
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const entry: Received = { path, at: Date.now(), headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
    all.push(entry);
    const count = all.filter((r) => r.path === path).length;
    const behaviour = behaviours.get(path);
    if (behaviour) await behaviour(entry, count, response);
    else response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    on: (path, behaviour) => behaviours.set(path, behaviour),
    received: (path) => (path ? all.filter((r) => r.path === path) : [...all]),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The receiver-side check done independently of the service's signer: plain node:crypto. */
export function independentlyVerified(received: Received, secret: string): boolean {
  const header = String(received.headers['x-service-signature-v2'] ?? '');
  const t = /t=(\d+)/.exec(header)?.[1];
  const v1 = /v1=([0-9a-f]{64})/.exec(header)?.[1];
  if (!t || !v1) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${received.body}`).digest();
  const legacy = createHmac('sha256', secret).update(received.body).digest('hex');
  return timingSafeEqual(expected, Buffer.from(v1, 'hex')) && legacy === received.headers['x-service-signature'];
}

/** The same check through the helper we give sellers. */
export const helperVerified = (received: Received, secret: string) =>
  verifyWebhook({ rawBody: received.body, headers: received.headers, secret, now: Date.now() }).ok;

export async function waitFor<T>(probe: () => T | Promise<T>, timeoutMs = 15_000, what = 'condition', intervalMs = 50): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
