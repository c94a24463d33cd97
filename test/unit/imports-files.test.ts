import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverableType, linkProblem } from '../../shared/imports/product-files';
import { downloadPublicFile } from '../../shared/webhooks/public-fetch';

// A loopback file server; the download is allowed to reach it only with the local runtime's
// loopback allowance, which is how the happy path is tested (production never allows loopback).
let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/book.pdf') return res.writeHead(200, { 'content-type': 'application/pdf' }).end(Buffer.from('%PDF-1.4 tiny'));
    if (req.url === '/big.zip') return res.writeHead(200, { 'content-type': 'application/zip' }).end(Buffer.alloc(2048, 1));
    if (req.url === '/to-private') return res.writeHead(302, { location: 'https://10.0.0.7/book.pdf' }).end();
    if (req.url === '/to-book') return res.writeHead(301, { location: '/book.pdf' }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const loopback = { allowLoopback: true };

describe('product file downloads', () => {
  it('downloads a file within the size, following a redirect', async () => {
    const result = await downloadPublicFile({ url: `${base}/to-book`, maxBytes: 1024, policy: loopback });
    expect(result).toMatchObject({ ok: true, contentType: 'application/pdf', finalUrl: `${base}/book.pdf` });
    expect(result.ok && result.body.toString()).toBe('%PDF-1.4 tiny');
  });

  it('refuses a file over the size limit', async () => {
    expect(await downloadPublicFile({ url: `${base}/big.zip`, maxBytes: 1024, policy: loopback })).toEqual({
      ok: false,
      reason: 'the file is larger than 1024 bytes',
    });
  });

  it('re-checks every redirect: a public start that redirects to a private address is refused', async () => {
    expect(await downloadPublicFile({ url: `${base}/to-private`, maxBytes: 1024, policy: loopback })).toEqual({
      ok: false,
      reason: 'redirect refused: url host 10.0.0.7 is a private address (10.0.0.0/8), not a public address',
    });
  });

  it('without the loopback allowance refuses loopback, private and plain http links before connecting', async () => {
    expect(await downloadPublicFile({ url: `${base}/book.pdf`, maxBytes: 1024 })).toEqual({ ok: false, reason: 'url must use https' });
    expect(linkProblem('https://127.0.0.1/a.pdf')).toBe('url host 127.0.0.1 is a loopback address, not a public address');
    expect(linkProblem('https://[::ffff:10.0.0.1]/a.pdf')).toMatch(/not a public address/);
    expect(linkProblem('https://files.example.com/a.pdf')).toBeNull();
  });

  it('refuses a host name that resolves to a private address, at connect time', async () => {
    const resolver = ((_host: string, _options: unknown, callback: (error: null, addresses: { address: string; family: number }[]) => void) =>
      callback(null, [{ address: '192.168.1.10', family: 4 }])) as never;
    const result = await downloadPublicFile({ url: 'https://files.example.com/a.pdf', maxBytes: 1024, resolver });
    expect(result).toEqual({ ok: false, reason: 'files.example.com resolves to 192.168.1.10, a private address (192.168.0.0/16); refused' });
  });

  it('accepts deliverable types only', () => {
    expect(deliverableType('book.pdf', 'application/pdf')).toMatchObject({ ok: true, contentType: 'application/pdf' });
    expect(deliverableType('setup.exe', 'application/octet-stream')).toMatchObject({ ok: false });
    expect(deliverableType('book.pdf', 'text/html; charset=utf-8')).toEqual({ ok: false, reason: 'the link answered text/html, not a deliverable file' });
  });
});
