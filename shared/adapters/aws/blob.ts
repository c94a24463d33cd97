import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Sha256 } from '@smithy/core/checksum';
import { escapeUriPath } from '@smithy/core/protocols';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentityProvider } from '@smithy/types';
import { lazily, required, type AwsPortEnv } from './env';
import { logger } from '../../platform/logger';
import { BlobPartsError, type BlobObject, type BlobPart, type BlobPort } from '../../platform/ports';

/**
 * The blob port on S3's REST API: three object calls (PUT, GET, DELETE), signed with the SDK's own
 * SigV4 signer and sent with Node's fetch. `@aws-sdk/client-s3` cost every function that stores
 * files ~135 KiB of bundle (its client, the S3 middleware, checksums, the XML codec) for these
 * three calls; the signer and the hash are already in every bundle through the DynamoDB client.
 * What the client did for them is kept: SigV4 with a signed payload hash, objects encrypted with
 * the stack's KMS key (named on every upload: `aws:kms` alone would make S3 use the AWS-managed
 * `aws/s3` key, not the stack's), and its standard retries (throttling, 5xx, network faults and timeouts,
 * 3 attempts with jittered backoff). Multipart uploads (files up to 2 GB straight from the seller's
 * browser) are four more calls of the same REST API: create, presigned UploadPart, complete, abort.
 */
export interface S3BlobOptions {
  bucket: string;
  region: string;
  /** The stack's KMS key (id or ARN) every object is encrypted with. */
  kmsKeyId: string;
  credentials?: AwsCredentialIdentityProvider;
  /** A path-style endpoint (tests); by default the bucket's virtual-hosted address in `region`. */
  endpoint?: string;
  /** Per attempt. */
  timeoutMs?: number;
  maxAttempts?: number;
}

/** An answer S3 refused: its HTTP status and S3 error code (`AccessDenied`, `SlowDown`, ...). */
export class S3RequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`S3 ${status} ${code}: ${message}`);
    this.name = 'S3RequestError';
  }
}

/** S3's parts are at least 5 MiB but the last; 8 MiB parts keep S3's 10,000-part cap above 80 GB. */
export const PART_BYTES = 8 * 1024 * 1024;

const RETRIED_STATUS = new Set([429, 500, 502, 503, 504]);
const RETRIED_CODES = new Set(['RequestTimeout', 'RequestTimeTooSkewed', 'SlowDown', 'Throttling', 'InternalError']);

export class S3Blob implements BlobPort {
  private readonly signer: SignatureV4;

  constructor(private readonly options: S3BlobOptions) {
    this.signer = new SignatureV4({
      service: 's3',
      region: options.region,
      credentials: options.credentials ?? defaultProvider(),
      sha256: Sha256,
      // S3 signs the path as sent (each segment escaped once), not escaped a second time.
      uriEscapePath: false,
      applyChecksum: true,
    });
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    await this.send('PUT', key, { 'content-type': contentType, ...this.encryption() }, body);
  }

  /**
   * A multipart upload fed part by part (8 MiB each, so at most one part is held), or one PUT when
   * the whole object fits in a part. A failure aborts the upload, so no object and no stored parts
   * are left (the bucket's lifecycle rule also ends abandoned uploads after a day).
   */
  async putStream(key: string, chunks: AsyncIterable<Uint8Array | string>, contentType: string): Promise<{ bytes: number }> {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let bytes = 0;
    let uploadId: string | undefined;
    const parts: BlobPart[] = [];
    const flush = async () => {
      const body = Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      uploadId ??= await this.multipart.create(key, contentType);
      const partNumber = parts.length + 1;
      const response = await this.send('PUT', key, {}, body, undefined, { partNumber: String(partNumber), uploadId });
      parts.push({ partNumber, etag: response!.headers.get('etag') ?? '' });
    };
    try {
      for await (const chunk of chunks) {
        const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        pending.push(buffer);
        pendingBytes += buffer.length;
        bytes += buffer.length;
        if (pendingBytes >= PART_BYTES) await flush();
      }
      if (!uploadId) {
        await this.put(key, Buffer.concat(pending), contentType);
        return { bytes };
      }
      if (pendingBytes) await flush();
      await this.multipart.complete(key, uploadId, parts);
      return { bytes };
    } catch (error) {
      if (uploadId) {
        await this.multipart.abort(key, uploadId).catch((abort: unknown) =>
          logger.error('S3 multipart upload not aborted (the lifecycle rule ends it)', {
            key,
            error: abort instanceof Error ? abort.message : String(abort),
          }),
        );
      }
      throw error;
    }
  }

  private encryption() {
    return { 'x-amz-server-side-encryption': 'aws:kms', 'x-amz-server-side-encryption-aws-kms-key-id': this.options.kmsKeyId };
  }

  async get(key: string): Promise<BlobObject | undefined> {
    const response = await this.send('GET', key, {}, undefined, (status, code) => status === 404 && code === 'NoSuchKey');
    if (!response) return undefined;
    return { body: new Uint8Array(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? 'application/octet-stream' };
  }

  async delete(key: string): Promise<void> {
    await this.send('DELETE', key, {});
  }

  readonly multipart = {
    /** CreateMultipartUpload, encrypted with the stack's key like every other object. */
    create: async (key: string, contentType: string): Promise<string> => {
      const response = await this.send(
        'POST',
        key,
        { 'content-type': contentType, 'x-amz-server-side-encryption': 'aws:kms', 'x-amz-server-side-encryption-aws-kms-key-id': this.options.kmsKeyId },
        undefined,
        undefined,
        { uploads: '' },
      );
      const uploadId = xmlField(await response!.text(), 'UploadId');
      if (!uploadId) throw new S3RequestError(502, 'NoUploadId', 'CreateMultipartUpload answered no UploadId');
      return uploadId;
    },
    /** Presigned UploadPart addresses: the browser PUTs each part's bytes to its own. */
    partUrls: (key: string, uploadId: string, partNumbers: number[], expiresInSeconds: number): Promise<string[]> =>
      Promise.all(partNumbers.map((partNumber) => this.presign('PUT', key, { partNumber: String(partNumber), uploadId }, expiresInSeconds))),
    /**
     * CompleteMultipartUpload, then the object's size (HEAD). S3 may answer 200 with an error in
     * the body after a long join; that is read as the refusal it is.
     */
    complete: async (key: string, uploadId: string, parts: BlobPart[]): Promise<{ size: number }> => {
      const xml = `<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${parts.map((p) => `<Part><PartNumber>${p.partNumber}</PartNumber><ETag>${escapeXml(quoteEtag(p.etag))}</ETag></Part>`).join('')}</CompleteMultipartUpload>`;
      let text: string;
      try {
        const response = await this.send('POST', key, { 'content-type': 'application/xml' }, new TextEncoder().encode(xml), undefined, { uploadId });
        text = await response!.text();
      } catch (error) {
        if (error instanceof S3RequestError && PART_CODES.has(error.code)) throw new BlobPartsError(error.message);
        throw error;
      }
      if (/<Error>/.test(text)) {
        const { code, message } = parseError(text);
        if (PART_CODES.has(code)) throw new BlobPartsError(`S3 ${code}: ${message}`);
        throw new S3RequestError(500, code, message);
      }
      const head = await this.send('HEAD', key, {});
      return { size: Number(head!.headers.get('content-length') ?? 0) };
    },
    /** AbortMultipartUpload; one already gone (completed, aborted, expired) is not an error. */
    abort: async (key: string, uploadId: string): Promise<void> => {
      await this.send('DELETE', key, {}, undefined, (status, code) => status === 404 && code === 'NoSuchUpload', { uploadId });
    },
  };

  /** A presigned GET (SigV4 query signing) that downloads the object as an attachment named `filename`. */
  async signedGetUrl(key: string, options: { expiresInSeconds: number; filename: string; contentType: string }): Promise<string> {
    const query = {
      'response-content-disposition': `attachment; filename="${options.filename.replace(/[^\w.-]+/g, '_')}"; filename*=UTF-8''${encodeURIComponent(options.filename)}`,
      'response-content-type': options.contentType,
    };
    return this.presign('GET', key, query, options.expiresInSeconds);
  }

  /** SigV4 query signing of one request, the payload unsigned (the browser sends the bytes). */
  private async presign(method: string, key: string, query: Record<string, string>, expiresIn: number): Promise<string> {
    const url = this.url(key);
    const signed = await this.signer.presign(
      {
        method,
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port ? Number(url.port) : undefined,
        path: url.pathname,
        query,
        headers: { host: url.host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
      },
      { expiresIn },
    );
    return withQuery(url, signed.query);
  }

  /**
   * The object's URL: virtual-hosted in AWS, path-style on an endpoint. A `.` or `..` segment is
   * refused: URLs resolve those, so the request would name another object than the key.
   */
  private url(key: string): URL {
    if (key.split('/').some((segment) => segment === '.' || segment === '..')) throw new Error(`Blob key has a dot segment: ${key}`);
    const path = escapeUriPath(key);
    if (this.options.endpoint) return new URL(`${this.options.endpoint.replace(/\/$/, '')}/${this.options.bucket}/${path}`);
    return new URL(`https://${this.options.bucket}.s3.${this.options.region}.amazonaws.com/${path}`);
  }

  /** One call with retries; `absent` names the refusal that means "no such object" (answers undefined). */
  private async send(
    method: string,
    key: string,
    headers: Record<string, string>,
    body?: Uint8Array,
    absent?: (status: number, code: string) => boolean,
    query: Record<string, string> = {},
  ): Promise<Response | undefined> {
    const maxAttempts = this.options.maxAttempts ?? 3;
    const url = this.url(key);
    for (let attempt = 1; ; attempt++) {
      // A network fault or a timeout comes back as the error itself, and is retried.
      const outcome = await this.once(method, url, headers, body, query).catch((error: unknown) => error);
      let failure = outcome;
      if (outcome instanceof Response) {
        if (outcome.ok) return outcome;
        const { code, message } = parseError(await outcome.text());
        if (absent?.(outcome.status, code)) return undefined;
        failure = new S3RequestError(outcome.status, code, message);
        if (!RETRIED_STATUS.has(outcome.status) && !RETRIED_CODES.has(code)) throw failure;
      }
      if (attempt >= maxAttempts) throw failure;
      // Full jitter on a 100 ms doubling base, as the SDK's standard retry strategy waits.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 100 * 2 ** (attempt - 1)));
    }
  }

  private async once(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: Uint8Array | undefined,
    query: Record<string, string>,
  ): Promise<Response> {
    const signed = await this.signer.sign({
      method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: url.pathname,
      query,
      headers: { host: url.host, ...headers },
      body,
    });
    // fetch sets Host from the URL (the very value signed) and the content length itself.
    const { host: _host, ...sent } = signed.headers;
    return fetch(withQuery(url, query), {
      method,
      headers: sent,
      body: body as Uint8Array<ArrayBuffer> | undefined,
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
    });
  }
}

/** Codes of a CompleteMultipartUpload that name the client's parts, not a fault of S3. */
const PART_CODES = new Set(['InvalidPart', 'InvalidPartOrder', 'EntityTooSmall', 'NoSuchUpload', 'MalformedXML']);

const xmlField = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1] ?? '';
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const quoteEtag = (etag: string) => (etag.startsWith('"') ? etag : `"${etag}"`);

/** The URL with a query: `?uploads` as S3 writes it (a name without a value), others encoded as SigV4 signs them. */
function withQuery(url: URL, query: Record<string, string | string[] | null | undefined> | undefined): string {
  const pairs = Object.entries(query ?? {}).map(([name, value]) => {
    const text = Array.isArray(value) ? value.join(',') : String(value ?? '');
    return text === '' ? encodeURIComponent(name) : `${encodeURIComponent(name)}=${encodeRfc3986(text)}`;
  });
  return pairs.length ? `${url.toString()}?${pairs.join('&')}` : url.toString();
}
const encodeRfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** S3's XML error body: its Code and Message (empty for a HEAD-like answer without a body). */
export function parseError(xml: string): { code: string; message: string } {
  const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1] ?? '';
  return { code: field('Code') || 'Unknown', message: field('Message') || xml.slice(0, 200) };
}

/** The blob port of a function whose needs include `blob`. */
export function awsBlobPort(env: AwsPortEnv): BlobPort {
  const blob = lazily(
    () =>
      new S3Blob({
        bucket: required(env.config.BLOB_BUCKET, 'BLOB_BUCKET'),
        region: env.config.AWS_REGION,
        kmsKeyId: required(env.config.KMS_KEY_ID, 'KMS_KEY_ID'),
      }),
  );
  return {
    put: (key, body, type) => blob().put(key, body, type),
    putStream: (key, chunks, type) => blob().putStream(key, chunks, type),
    get: (key) => blob().get(key),
    delete: (key) => blob().delete(key),
    signedGetUrl: (key, options) => blob().signedGetUrl(key, options),
    multipart: {
      create: (key, type) => blob().multipart.create(key, type),
      partUrls: (key, uploadId, parts, expires) => blob().multipart.partUrls(key, uploadId, parts, expires),
      complete: (key, uploadId, parts) => blob().multipart.complete(key, uploadId, parts),
      abort: (key, uploadId) => blob().multipart.abort(key, uploadId),
    },
  };
}
