import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestRuntime, type TestAccount } from '../support/runtime';
import { createProduct, openCheckout, pay } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';

// Large product files uploaded in parts straight to the blob store (the local runtime serves the
// part URLs as S3 does presigned ones), over HTTP as a seller's browser would: the declared file
// checked before a byte moves, the parts PUT, the upload completed by ETags, and a buyer
// downloading exactly the bytes uploaded.

let runtime: LocalRuntime;
let seller: TestAccount;
let other: TestAccount;
const MiB = 1024 * 1024;

type Begun = { uploadId: string; partSize: number; parts: { partNumber: number; url: string }[]; expiresAt: string };

/** PUTs each part's slice to its URL, as a browser would (no key: the URL is the permission). */
async function putParts(begun: Begun, bytes: Buffer): Promise<{ partNumber: number; etag: string }[]> {
  const parts: { partNumber: number; etag: string }[] = [];
  for (const part of begun.parts) {
    const slice = bytes.subarray((part.partNumber - 1) * begun.partSize, part.partNumber * begun.partSize);
    const put = await fetch(part.url, { method: 'PUT', body: new Uint8Array(slice) });
    expect(put.status).toBe(200);
    parts.push({ partNumber: part.partNumber, etag: put.headers.get('etag')! });
  }
  return parts;
}

const fileNames = async (account: TestAccount, productId: string) =>
  ((await account.test.get(`/products/${productId}/files`)).body as { name: string }[]).map((f) => f.name);

beforeAll(async () => {
  runtime = await startTestRuntime();
  seller = await createTestAccount(runtime, 'tier2');
  other = await createTestAccount(runtime, 'tier2');
}, 120_000);
afterAll(async () => {
  await runtime?.stop();
});

describe('product files uploaded in parts', () => {
  it('refuses before any byte moves: over the plan (413 naming the limit), empty, a disallowed type; nothing changes', { timeout: 120_000 }, async () => {
    const product = await createProduct(seller, { name: 'Course videos', price: 40 });
    const begin = (body: Record<string, unknown>) => seller.test.post(`/products/${product._id}/files/uploads`, body);

    const tooBig = await begin({ name: 'lesson.mp4', size: 600 * MiB, contentType: 'video/mp4' });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toContain('at most 512 MB on your plan');
    expect(tooBig.body.details).toEqual({ maxBytes: 512 * MiB });
    expect((await begin({ name: 'lesson.mp4', size: 3 * 1024 * MiB })).status).toBe(413);
    const empty = await begin({ name: 'lesson.mp4', size: 0 });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('empty');
    const program = await begin({ name: 'setup.exe', size: 10 * MiB });
    expect(program.status).toBe(400);
    expect(program.body.message).toContain('".exe" files are not allowed');
    const page = await begin({ name: 'notes.pdf', size: 10 * MiB, contentType: 'text/html' });
    expect(page.status).toBe(400);
    expect(page.body.message).toContain('text/html is a page or a program');
    expect((await begin({ name: 'notes.pdf', size: 1.5 })).status).toBe(400);
    expect((await begin({ name: 'notes.pdf' })).status).toBe(400);
    // A small free plan names its own limit.
    const free = await createTestAccount(runtime, 'free');
    const freeProduct = await createProduct(free, { name: 'Zine', price: 3 });
    const overFree = await free.test.post(`/products/${freeProduct._id}/files/uploads`, { name: 'zine.pdf', size: 20 * MiB });
    expect(overFree.status).toBe(413);
    expect(overFree.body.message).toContain('at most 16 MB on your plan');

    // The API form takes small files only, and says where larger ones go.
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(5 * MiB)]), 'big.pdf');
    const viaForm = await seller.test.post(`/products/${product._id}/files`, form);
    expect(viaForm.status).toBe(413);
    expect(viaForm.body.message).toContain('files over 4 MB upload in parts');

    expect(await fileNames(seller, product._id)).toEqual([]);
  });

  it('a 9 MB file in two parts: completed by ETags, listed, and downloaded byte for byte by a buyer; other accounts get 404', {
    timeout: 240_000,
  }, async () => {
    const product = await createProduct(seller, { name: 'Sample library', price: 15 });
    const bytes = Buffer.alloc(9 * MiB + 12_345);
    for (let i = 0; i < bytes.length; i += 4096) bytes.writeUInt32BE((i * 2654435761) >>> 0, i);

    const begun = await seller.test.post(`/products/${product._id}/files/uploads`, { name: 'samples.zip', size: bytes.length, contentType: 'application/zip' });
    expect(begun.status).toBe(201);
    expect(begun.body).toMatchObject({
      uploadId: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'samples.zip',
      size: bytes.length,
      contentType: 'application/zip',
      partSize: 8 * MiB,
    });
    expect(begun.body.parts.map((p: { partNumber: number }) => p.partNumber)).toEqual([1, 2]);
    const uploadId = begun.body.uploadId as string;

    // Another account cannot see, complete or abort it; a part URL edited to another part is refused.
    expect((await other.test.post(`/products/${product._id}/files/uploads`, { name: 'x.zip', size: 10 })).status).toBe(404);
    expect((await other.test.post(`/products/${product._id}/files/uploads/${uploadId}/complete`, { parts: [{ partNumber: 1, etag: 'x' }] })).status).toBe(404);
    expect((await other.test.delete(`/products/${product._id}/files/uploads/${uploadId}`)).status).toBe(404);
    expect((await seller.live.post(`/products/${product._id}/files/uploads/${uploadId}/complete`, { parts: [{ partNumber: 1, etag: 'x' }] })).status).toBe(404);
    expect((await fetch(begun.body.parts[0].url.replace('/parts/1?', '/parts/3?'), { method: 'PUT', body: 'x' })).status).toBe(403);

    // A page on another origin may PUT the parts: the preflight is answered and the ETag exposed.
    const preflight = await fetch(begun.body.parts[0].url, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('PUT');
    expect(preflight.headers.get('access-control-expose-headers')).toBe('etag');

    const parts = await putParts(begun.body, bytes);
    // Wrong ETags or a missing part: 400 with the reason, and the upload stays open to try again.
    const wrong = await seller.test.post(`/products/${product._id}/files/uploads/${uploadId}/complete`, {
      parts: [parts[0], { partNumber: 2, etag: parts[0]!.etag }],
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('ETag of part 2 does not match');
    const short = await seller.test.post(`/products/${product._id}/files/uploads/${uploadId}/complete`, { parts: [parts[0]] });
    expect(short.status).toBe(400);
    expect(short.body.message).toContain('2 part(s)');
    expect(await fileNames(seller, product._id)).toEqual([]);

    const done = await seller.test.post(`/products/${product._id}/files/uploads/${uploadId}/complete`, { parts });
    expect(done.status).toBe(201);
    expect(done.body).toEqual({ _id: uploadId, name: 'samples.zip', size: bytes.length, contentType: 'application/zip', createdAt: expect.any(String) });
    expect(await fileNames(seller, product._id)).toEqual(['samples.zip']);
    // Completing twice attaches nothing more.
    expect((await seller.test.post(`/products/${product._id}/files/uploads/${uploadId}/complete`, { parts })).status).toBe(404);

    const session = await openCheckout(seller, product._id);
    const { saleId } = await pay(runtime, session.id, { email: 'buyer-parts@example.com' });
    const order = (await seller.test.get(`/orders/${saleId}`)).body;
    expect(order.downloads).toEqual([expect.objectContaining({ name: 'samples.zip', size: bytes.length })]);
    const downloaded = await fetch(order.downloads[0].url);
    expect(downloaded.status).toBe(200);
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('parts that do not add up to the declared size end the upload; an aborted upload is gone', { timeout: 120_000 }, async () => {
    const product = await createProduct(seller, { name: 'Stems', price: 9 });
    const bytes = Buffer.from('%PDF-1.4 a short file');
    const begun = await seller.test.post(`/products/${product._id}/files/uploads`, { name: 'stems.pdf', size: bytes.length + 5 });
    expect(begun.status).toBe(201);
    const parts = await putParts(begun.body, bytes);
    const mismatch = await seller.test.post(`/products/${product._id}/files/uploads/${begun.body.uploadId}/complete`, { parts });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toContain(`add up to ${bytes.length} bytes, not the ${bytes.length + 5} declared`);
    expect((await seller.test.post(`/products/${product._id}/files/uploads/${begun.body.uploadId}/complete`, { parts })).status).toBe(404);

    const dropped = await seller.test.post(`/products/${product._id}/files/uploads`, { name: 'stems.pdf', size: bytes.length });
    expect((await seller.test.delete(`/products/${product._id}/files/uploads/${dropped.body.uploadId}`)).body).toEqual({
      uploadId: dropped.body.uploadId,
      aborted: true,
    });
    expect((await fetch(dropped.body.parts[0].url, { method: 'PUT', body: new Uint8Array(bytes) })).status).toBe(404);
    expect(
      (await seller.test.post(`/products/${product._id}/files/uploads/${dropped.body.uploadId}/complete`, { parts: [{ partNumber: 1, etag: '"x"' }] })).status,
    ).toBe(404);
    expect(await fileNames(seller, product._id)).toEqual([]);
  });
});
