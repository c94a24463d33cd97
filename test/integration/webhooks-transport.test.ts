import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptDelivery, BlockedAddressError, guardedLookup, type Resolver } from '../../shared/webhooks/transport';

// The connect-time guard with the system resolver: `localhost` resolves (from /etc/hosts) to
// loopback addresses, which is exactly what a rebinding host name would hand back.

let server: ReturnType<typeof createServer>;
let port: number;
let received = 0;
const nowMs = () => performance.now();
beforeAll(async () => {
  server = createServer((req, res) => {
    received++;
    req.resume().on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const lookup = (allowLoopback: boolean, host: string, all: boolean) =>
  new Promise<{ error: Error | null; address: unknown }>((resolve) =>
    guardedLookup({ allowLoopback })(host, { all }, (error, address) => resolve({ error, address })),
  );

describe('connect-time address guard', () => {
  it('refuses a name that resolves to a non-public address, whatever the caller asks for', async () => {
    for (const all of [true, false]) {
      const { error } = await lookup(false, 'localhost', all);
      expect(error).toBeInstanceOf(BlockedAddressError);
      expect(error!.message).toMatch(/localhost resolves to .*loopback address; refused/);
    }
  });

  it('hands the checked addresses to the socket in the shape it asked for', async () => {
    const many = await lookup(true, 'localhost', true);
    expect(many.error).toBeNull();
    expect(Array.isArray(many.address)).toBe(true);
    const one = await lookup(true, 'localhost', false);
    expect(typeof one.address).toBe('string');
  });

  it('a public-looking name that resolves to a private address is refused at connect time, before any byte is sent', async () => {
    let resolved = 0;
    // A DNS answer as a rebinding attacker would give it (the name passes every check on its text).
    const rebinding: Resolver = (host, _options, callback) => {
      resolved++;
      callback(
        null,
        host === 'hooks.attacker.example'
          ? [
              { address: '93.184.216.34', family: 4 },
              { address: '127.0.0.1', family: 4 },
            ]
          : [{ address: '10.0.0.7', family: 4 }],
      );
    };
    const before = received;
    const rebind = await attemptDelivery({
      url: `https://hooks.attacker.example:${port}/x`,
      body: '{}',
      headers: {},
      policy: { allowLoopback: false },
      nowMs,
      resolver: rebinding,
    });
    expect(rebind).toMatchObject({ outcome: 'fail', statusCode: null });
    expect(rebind.error).toMatch(/hooks\.attacker\.example resolves to 127\.0\.0\.1, a loopback address; refused/);
    const internal = await attemptDelivery({
      url: `https://internal-looking.example.com:${port}/x`,
      body: '{}',
      headers: {},
      policy: { allowLoopback: true },
      nowMs,
      resolver: rebinding,
    });
    expect(internal.error).toMatch(/10\.0\.0\.7, a private address/);
    expect(resolved).toBe(2);
    expect(received).toBe(before);
  });

  it('with the local flag, a name resolving to loopback is dialled at the checked address', async () => {
    const toLoopback: Resolver = (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]);
    const before = received;
    const result = await attemptDelivery({
      url: `http://dev-box.example.com:${port}/x`,
      body: '{}',
      headers: {},
      policy: { allowLoopback: true },
      nowMs,
      resolver: toLoopback,
    });
    // The URL policy admits http only for loopback names, so this one is refused on its text...
    expect(result.outcome).toBe('fail');
    const secure = await attemptDelivery({
      url: `http://localhost:${port}/x`,
      body: '{}',
      headers: {},
      policy: { allowLoopback: true },
      nowMs,
      resolver: toLoopback,
    });
    // ...and localhost goes through the guard to the server on 127.0.0.1.
    expect(secure).toMatchObject({ outcome: 'success', statusCode: 204 });
    expect(received).toBe(before + 1);
  });

  it('refuses an IP literal that the socket would dial directly, and reports a refused connection as retryable', async () => {
    const literal = await attemptDelivery({
      url: 'https://10.0.0.1/x',
      body: '{}',
      headers: {},
      policy: { allowLoopback: true },
      nowMs: () => performance.now(),
    });
    expect(literal).toMatchObject({ outcome: 'fail' });
    expect(literal.error).toMatch(/private/);
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const refused = await attemptDelivery({
      url: `http://127.0.0.1:${closedPort}/`,
      body: '{}',
      headers: {},
      policy: { allowLoopback: true },
      nowMs: () => performance.now(),
    });
    expect(refused).toMatchObject({ outcome: 'retry', statusCode: null });
    expect(refused.error).toMatch(/ECONNREFUSED/);
  });
});
