import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalBlob } from '../../shared/adapters/local/blob';
import { MIN_PART_BYTES } from '../../shared/adapters/local/blob-multipart';
import { BlobPartsError } from '../../shared/platform/ports';

// The local blob store's multipart upload on disk (the e2e tests run it in memory): parts kept as
// files, joined by streaming into the object, S3's rules on parts kept, part URLs signed with an expiry.
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function store(nowMs = () => 1_800_000_000_000) {
  const dir = await mkdtemp(join(tmpdir(), 'blob-'));
  dirs.push(dir);
  return { dir, blob: new LocalBlob(dir, { baseUrl: () => 'http://127.0.0.1:3000', clock: { now: () => new Date(nowMs()), nowMs } }) };
}
const query = (url: string) => Object.fromEntries(new URL(url).searchParams);
const ids = (url: string) => /\/_local\/blob-uploads\/([0-9a-f]+)\/parts\/(\d+)/.exec(url)!.slice(1) as [string, string];

describe('local blob multipart', () => {
  it('joins parts on disk into the object, checks ETags and part sizes, and cleans up', async () => {
    const { dir, blob } = await store();
    const uploadId = await blob.multipart.create('products/a/f1', 'application/zip');
    const urls = await blob.multipart.partUrls('products/a/f1', uploadId, [1, 2], 3600);
    const parts = [Buffer.alloc(MIN_PART_BYTES, 3), Buffer.from('end')];
    const etags: string[] = [];
    for (const [i, url] of urls.entries()) etags.push(await blob.multipart.receivePart(...ids(url), query(url), parts[i]!));
    await expect(
      blob.multipart.complete('products/a/f1', uploadId, [
        { partNumber: 2, etag: etags[1]! },
        { partNumber: 1, etag: etags[0]! },
      ]),
    ).rejects.toBeInstanceOf(BlobPartsError);
    await expect(
      blob.multipart.complete('products/a/f1', uploadId, [
        { partNumber: 1, etag: etags[1]! },
        { partNumber: 2, etag: etags[1]! },
      ]),
    ).rejects.toThrow(/ETag of part 1/);
    expect(
      await blob.multipart.complete('products/a/f1', uploadId, [
        { partNumber: 1, etag: etags[0]! },
        { partNumber: 2, etag: etags[1]! },
      ]),
    ).toEqual({ size: MIN_PART_BYTES + 3 });
    const object = await blob.get('products/a/f1');
    expect(object!.contentType).toBe('application/zip');
    expect(Buffer.from(object!.body).equals(Buffer.concat(parts))).toBe(true);
    expect(await readdir(join(dir, '.multipart'))).toEqual([]);
  });

  it('refuses a small part that is not the last, a forged or expired URL, and parts of an aborted upload', async () => {
    let now = 1_800_000_000_000;
    const { blob } = await store(() => now);
    const uploadId = await blob.multipart.create('k', 'application/pdf');
    const urls = await blob.multipart.partUrls('k', uploadId, [1, 2], 60);
    const a = await blob.multipart.receivePart(...ids(urls[0]!), query(urls[0]!), Buffer.from('small'));
    const b = await blob.multipart.receivePart(...ids(urls[1]!), query(urls[1]!), Buffer.from('tail'));
    await expect(
      blob.multipart.complete('k', uploadId, [
        { partNumber: 1, etag: a },
        { partNumber: 2, etag: b },
      ]),
    ).rejects.toThrow(/EntityTooSmall/);
    await expect(blob.multipart.receivePart(uploadId, '2', query(urls[0]!), Buffer.from('x'))).rejects.toMatchObject({ status: 403 });
    now += 61_000;
    await expect(blob.multipart.receivePart(...ids(urls[0]!), query(urls[0]!), Buffer.from('x'))).rejects.toMatchObject({ status: 403 });
    const [fresh] = await blob.multipart.partUrls('k', uploadId, [1], 60);
    await blob.multipart.abort('k', uploadId);
    await expect(blob.multipart.receivePart(...ids(fresh!), query(fresh!), Buffer.from('x'))).rejects.toMatchObject({ status: 404 });
    await expect(blob.multipart.complete('k', uploadId, [{ partNumber: 1, etag: a }])).rejects.toBeInstanceOf(BlobPartsError);
  });
});
