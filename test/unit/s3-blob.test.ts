import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { BlobPartsError } from '../../shared/platform/ports';
import { S3Blob, S3RequestError, parseError } from '../../shared/adapters/aws/blob';
import { startFakeS3 } from '../support/fake-s3';

// S3 has no local engine: the adapter's requests go to a fake S3 on 127.0.0.1 that checks every
// signature by S3's rules with its own implementation (test/support/fake-s3.ts).
const KEY_ARN = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token-1' };

describe('S3 blob adapter', () => {
  let s3: Awaited<ReturnType<typeof startFakeS3>>;
  const blob = (options: Partial<ConstructorParameters<typeof S3Blob>[0]> = {}) =>
    new S3Blob({ bucket: 'bucket-1', region: 'eu-west-1', kmsKeyId: KEY_ARN, credentials: async () => credentials, endpoint: s3.endpoint, ...options });
  beforeAll(async () => {
    s3 = await startFakeS3(credentials);
  });
  afterAll(() => s3.close());

  it('the fake accepts what the official S3 client signs, and refuses a wrong secret', async () => {
    const client = (secretAccessKey: string) =>
      new S3Client({ region: 'eu-west-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: { ...credentials, secretAccessKey }, maxAttempts: 1 });
    await client(credentials.secretAccessKey).send(
      new PutObjectCommand({ Bucket: 'bucket-1', Key: 'sdk/a b (1).txt', Body: 'hello', ContentType: 'text/plain' }),
    );
    expect(s3.requests.at(-1)!.signatureValid).toBe(true);
    await expect(client('wrong').send(new GetObjectCommand({ Bucket: 'bucket-1', Key: 'sdk/a b (1).txt' }))).rejects.toThrow();
    expect(s3.requests.at(-1)!.signatureValid).toBe(false);
  });

  it("puts, gets and deletes objects with signed requests, encrypted with the stack's KMS key, keys escaped as S3 signs them", async () => {
    const key = "products/p1/Ünïcode file (1)!*'.png";
    const store = blob();
    const before = s3.requests.length;
    await store.put(key, new Uint8Array([1, 2, 3]), 'image/png');
    // SSE-KMS with the stack's key named: `aws:kms` alone would encrypt with the AWS-managed aws/s3 key.
    expect(s3.objects.get(`bucket-1/${key}`)).toEqual({ body: Buffer.from([1, 2, 3]), contentType: 'image/png', sse: 'aws:kms', kmsKeyId: KEY_ARN });
    expect(await store.get(key)).toEqual({ body: new Uint8Array([1, 2, 3]), contentType: 'image/png' });
    await store.delete(key);
    expect(s3.objects.has(`bucket-1/${key}`)).toBe(false);
    const made = s3.requests.slice(before);
    expect(made.map((r) => [r.method, r.path, r.signatureValid])).toEqual([
      ['PUT', `/bucket-1/${key}`, true],
      ['GET', `/bucket-1/${key}`, true],
      ['DELETE', `/bucket-1/${key}`, true],
    ]);
    // The content type, the encryption with its key and the session token are under the signature.
    expect(made[0]!.headers['x-amz-server-side-encryption-aws-kms-key-id']).toBe(KEY_ARN);
    expect(made[0]!.signedHeaders).toEqual(
      expect.arrayContaining([
        'content-type',
        'host',
        'x-amz-content-sha256',
        'x-amz-date',
        'x-amz-security-token',
        'x-amz-server-side-encryption',
        'x-amz-server-side-encryption-aws-kms-key-id',
      ]),
    );
  });

  it('streams an object larger than a part as a multipart upload, holding one part at a time', async () => {
    const key = 'exports/a1/test/c1/e1.json';
    const chunk = Buffer.alloc(64 * 1024, 'x');
    async function* chunks() {
      // 20 MiB in 64 KiB chunks, the last a string: three parts of 8, 8 and 4 MiB.
      for (let i = 0; i < 319; i++) yield new Uint8Array(chunk);
      yield 'y'.repeat(64 * 1024);
    }
    const before = s3.requests.length;
    expect(await blob().putStream(key, chunks(), 'application/json')).toEqual({ bytes: 20 * 1024 * 1024 });
    const made = s3.requests.slice(before);
    expect(made.map((r) => [r.method, r.path.replace(/uploadId=[^&]+/, 'uploadId=U'), r.signatureValid])).toEqual([
      ['POST', `/bucket-1/${key}?uploads`, true],
      ['PUT', `/bucket-1/${key}?partNumber=1&uploadId=U`, true],
      ['PUT', `/bucket-1/${key}?partNumber=2&uploadId=U`, true],
      ['PUT', `/bucket-1/${key}?partNumber=3&uploadId=U`, true],
      ['POST', `/bucket-1/${key}?uploadId=U`, true],
      ['HEAD', `/bucket-1/${key}`, true],
    ]);
    const stored = s3.objects.get(`bucket-1/${key}`)!;
    expect(stored).toMatchObject({ contentType: 'application/json', sse: 'aws:kms', kmsKeyId: KEY_ARN });
    expect(stored.body.length).toBe(20 * 1024 * 1024);
    expect(stored.body.subarray(-3).toString()).toBe('yyy');
    expect(s3.uploads.size).toBe(0);
  });

  it('streams a small object with one PUT, and aborts the upload when the stream fails', async () => {
    async function* small() {
      yield '{"a":';
      yield '1}';
    }
    expect(await blob().putStream('exports/small.json', small(), 'application/json')).toEqual({ bytes: 7 });
    expect(s3.objects.get('bucket-1/exports/small.json')!.body.toString()).toBe('{"a":1}');
    async function* failing() {
      yield Buffer.alloc(9 * 1024 * 1024, 'z');
      throw new Error('the table was busy');
    }
    await expect(blob().putStream('exports/failed.json', failing(), 'application/json')).rejects.toThrow('the table was busy');
    expect(s3.objects.has('bucket-1/exports/failed.json')).toBe(false);
    expect(s3.uploads.size).toBe(0);
    expect(s3.requests.at(-1)!.method).toBe('DELETE');
  });

  it('answers undefined for a missing object, and throws a refusal without retrying it', async () => {
    expect(await blob().get('missing/key')).toBeUndefined();
    const before = s3.requests.length;
    s3.faults.push({ status: 403, code: 'AccessDenied' });
    const refused = await blob()
      .get('x')
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(S3RequestError);
    expect(refused).toMatchObject({ status: 403, code: 'AccessDenied' });
    expect(s3.requests.length - before).toBe(1);
  });

  it('retries throttling and server faults, then gives up after three attempts', async () => {
    const before = s3.requests.length;
    s3.faults.push({ status: 503, code: 'SlowDown' }, { status: 500, code: 'InternalError' });
    await blob().put('retried', new Uint8Array([9]), 'text/plain');
    expect(s3.requests.length - before).toBe(3);
    expect(s3.objects.get('bucket-1/retried')?.body).toEqual(Buffer.from([9]));
    s3.faults.push(...Array.from({ length: 3 }, () => ({ status: 503, code: 'SlowDown' })));
    await expect(blob().put('never', new Uint8Array([1]), 'text/plain')).rejects.toMatchObject({ status: 503, code: 'SlowDown' });
    expect(s3.objects.has('bucket-1/never')).toBe(false);
  });

  it('ends an attempt that hangs at its timeout and retries it', async () => {
    const before = s3.requests.length;
    s3.faults.push('hang');
    await blob({ timeoutMs: 300 }).put('after-timeout', new Uint8Array([7]), 'text/plain');
    expect(s3.requests.length - before).toBe(2);
    s3.faults.push('hang', 'hang');
    await expect(blob({ timeoutMs: 200, maxAttempts: 2 }).get('after-timeout')).rejects.toThrow(/timeout|abort/i);
  });

  it('refuses a key with a dot segment rather than write another object', async () => {
    const before = s3.requests.length;
    await expect(blob().put('products/p1/files/..', new Uint8Array([1]), 'text/plain')).rejects.toThrow(/dot segment/);
    expect(s3.requests.length).toBe(before);
  });

  it('addresses the bucket virtual-hosted in its region without an endpoint', () => {
    const url = (
      new S3Blob({ bucket: 'my-bucket', region: 'eu-west-1', kmsKeyId: KEY_ARN, credentials: async () => credentials }) as unknown as { url(key: string): URL }
    ).url('a b/c');
    expect(url.href).toBe('https://my-bucket.s3.eu-west-1.amazonaws.com/a%20b/c');
  });

  it('the fake takes a multipart upload from the official S3 client', async () => {
    const client = new S3Client({ region: 'eu-west-1', endpoint: s3.endpoint, forcePathStyle: true, credentials, maxAttempts: 1 });
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: 'bucket-1', Key: 'sdk/multi', ContentType: 'application/zip' }));
    const first = Buffer.alloc(5 * 1024 * 1024, 1);
    const a = await client.send(new UploadPartCommand({ Bucket: 'bucket-1', Key: 'sdk/multi', UploadId, PartNumber: 1, Body: first }));
    const b = await client.send(new UploadPartCommand({ Bucket: 'bucket-1', Key: 'sdk/multi', UploadId, PartNumber: 2, Body: Buffer.from('tail') }));
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: 'bucket-1',
        Key: 'sdk/multi',
        UploadId,
        MultipartUpload: {
          Parts: [
            { PartNumber: 1, ETag: a.ETag },
            { PartNumber: 2, ETag: b.ETag },
          ],
        },
      }),
    );
    expect(s3.objects.get('bucket-1/sdk/multi')!.body.length).toBe(first.length + 4);
    expect(s3.requests.slice(-4).every((r) => r.signatureValid)).toBe(true);
  });

  it("multipart: encrypted create, presigned part PUTs from a plain client, complete by ETags, size; bad parts are the client's fault", async () => {
    const store = blob();
    const key = 'products/acc/test/p1/files/big file.zip';
    const uploadId = await store.multipart.create(key, 'application/zip');
    expect(s3.uploads.get(uploadId)).toMatchObject({ key: `bucket-1/${key}`, contentType: 'application/zip', sse: 'aws:kms', kmsKeyId: KEY_ARN });
    const urls = await store.multipart.partUrls(key, uploadId, [1, 2], 3600);
    expect(urls[0]).toContain('X-Amz-Signature=');
    expect(urls[0]).toContain('partNumber=1');
    const parts = [Buffer.alloc(5 * 1024 * 1024, 7), Buffer.from('the rest')];
    // A browser's PUT: no signing of its own, only the URL.
    const etags = await Promise.all(urls.map(async (url, i) => (await fetch(url, { method: 'PUT', body: parts[i] })).headers.get('etag')!));
    expect(
      s3.requests
        .filter((r) => r.method === 'PUT' && r.path.includes('partNumber'))
        .slice(-2)
        .every((r) => r.signatureValid),
    ).toBe(true);
    // A URL edited to another part number no longer matches its signature.
    expect((await fetch(urls[0]!.replace('partNumber=1', 'partNumber=3'), { method: 'PUT', body: 'x' })).status).toBe(403);

    await expect(
      store.multipart.complete(key, uploadId, [
        { partNumber: 1, etag: etags[1]! },
        { partNumber: 2, etag: etags[1]! },
      ]),
    ).rejects.toBeInstanceOf(BlobPartsError);
    expect(
      await store.multipart.complete(key, uploadId, [
        { partNumber: 1, etag: etags[0]! },
        { partNumber: 2, etag: etags[1]! },
      ]),
    ).toEqual({ size: parts[0]!.length + parts[1]!.length });
    expect(Buffer.from((await store.get(key))!.body).equals(Buffer.concat(parts))).toBe(true);
    expect(s3.objects.get(`bucket-1/${key}`)).toMatchObject({ sse: 'aws:kms', kmsKeyId: KEY_ARN });

    // A 200 whose body is an error is a failure, not a success.
    const second = await store.multipart.create('late', 'application/zip');
    const [url] = await store.multipart.partUrls('late', second, [1], 60);
    const etag = (await fetch(url!, { method: 'PUT', body: 'x' })).headers.get('etag')!;
    s3.completeFails.push(true);
    await expect(store.multipart.complete('late', second, [{ partNumber: 1, etag }])).rejects.toBeInstanceOf(S3RequestError);
    // Abort: gone, and aborting again is no error.
    const third = await store.multipart.create('dropped', 'application/zip');
    await store.multipart.abort('dropped', third);
    expect(s3.uploads.has(third)).toBe(false);
    await store.multipart.abort('dropped', third);
  });

  it('reads the code and message of an S3 error body', () => {
    expect(parseError('<Error><Code>NoSuchBucket</Code><Message>gone</Message></Error>')).toEqual({ code: 'NoSuchBucket', message: 'gone' });
    expect(parseError('')).toEqual({ code: 'Unknown', message: '' });
  });
});
