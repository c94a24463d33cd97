import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../../platform/clock';
import { ApiError } from '../../platform/errors';
import { BlobPartsError, type BlobMultipart, type BlobPart } from '../../platform/ports';

/**
 * S3's multipart upload, locally: the same four steps behind the blob port, with the local runtime
 * serving the part URLs (`PUT /_local/blob-uploads/{uploadId}/parts/{partNumber}`, HMAC-signed with
 * an expiry like a presigned URL) and the parts kept under `.data/blobs/.multipart/` (memory with
 * `--memory`). It keeps S3's rules a client can trip on (every part but the last at least 5 MiB,
 * ETags that must match, parts in ascending order), so a client that works here works on S3.
 */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
export const PART_ROUTE = '/_local/blob-uploads/{uploadId}/parts/{partNumber}';

interface Upload {
  key: string;
  contentType: string;
}

export interface LocalMultipartStore {
  /** Where the assembled object goes (the blob's own put, or a streamed file). */
  writeObject(key: string, contentType: string, parts: string[] | Buffer[]): Promise<number>;
  /** The folder for part files; undefined keeps parts in memory. */
  partsDir?: string;
}

export class LocalMultipart implements BlobMultipart {
  private readonly memory = new Map<string, Upload & { parts: Map<number, Buffer> }>();
  /** Signs part URLs; per process, as a deployment's credentials are: a restart ends unfinished uploads. */
  private readonly secret = randomBytes(32);

  constructor(
    private readonly store: LocalMultipartStore,
    private readonly options: { baseUrl: () => string; clock: Clock },
  ) {}

  async create(key: string, contentType: string): Promise<string> {
    const uploadId = randomBytes(16).toString('hex');
    if (!this.store.partsDir) this.memory.set(uploadId, { key, contentType, parts: new Map() });
    else {
      await mkdir(this.dirOf(uploadId), { recursive: true });
      await writeFile(join(this.dirOf(uploadId), 'upload.json'), JSON.stringify({ key, contentType }));
    }
    return uploadId;
  }

  async partUrls(_key: string, uploadId: string, partNumbers: number[], expiresInSeconds: number): Promise<string[]> {
    const expires = Math.floor(this.options.clock.nowMs() / 1000) + expiresInSeconds;
    const base = this.options.baseUrl().replace(/\/$/, '');
    return partNumbers.map((n) => `${base}/_local/blob-uploads/${uploadId}/parts/${n}?expires=${expires}&signature=${this.sign(uploadId, n, expires)}`);
  }

  /** The part URL's PUT: checks the signature and expiry, keeps the bytes, answers the part's ETag (quoted MD5, as S3). */
  async receivePart(uploadId: string, partNumberText: string, query: Record<string, string>, body: Buffer): Promise<string> {
    const partNumber = Number(partNumberText);
    const expires = Number(query.expires);
    const given = Buffer.from(query.signature ?? '', 'hex');
    const wanted = Buffer.from(this.sign(uploadId, partNumber, expires), 'hex');
    if (!/^[0-9a-f]{32}$/.test(uploadId) || !Number.isInteger(partNumber) || given.length !== wanted.length || !timingSafeEqual(given, wanted))
      throw new ApiError(403, 'The part URL signature does not match', { code: 'SignatureDoesNotMatch' });
    if (expires * 1000 <= this.options.clock.nowMs()) throw new ApiError(403, 'The part URL has expired', { code: 'AccessDenied' });
    const upload = await this.uploadOf(uploadId);
    if (!upload) throw new ApiError(404, 'The upload does not exist: it was completed or aborted', { code: 'NoSuchUpload' });
    if (this.store.partsDir) await writeFile(join(this.dirOf(uploadId), `part-${partNumber}`), body);
    else this.memory.get(uploadId)!.parts.set(partNumber, body);
    return `"${createHash('md5').update(body).digest('hex')}"`;
  }

  async complete(key: string, uploadId: string, parts: BlobPart[]): Promise<{ size: number }> {
    const upload = await this.uploadOf(uploadId);
    if (!upload || upload.key !== key) throw new BlobPartsError('NoSuchUpload: the upload does not exist');
    if (!parts.length) throw new BlobPartsError('MalformedXML: no parts named');
    const bodies: (string | Buffer)[] = [];
    for (const [i, part] of parts.entries()) {
      if (i > 0 && part.partNumber <= parts[i - 1]!.partNumber) throw new BlobPartsError('InvalidPartOrder: parts must be listed in ascending order');
      const body = await this.partOf(uploadId, part.partNumber);
      if (body === undefined) throw new BlobPartsError(`InvalidPart: part ${part.partNumber} was not uploaded`);
      const bytes = typeof body === 'string' ? await readFile(body) : body;
      if (`"${createHash('md5').update(bytes).digest('hex')}"` !== (part.etag.startsWith('"') ? part.etag : `"${part.etag}"`))
        throw new BlobPartsError(`InvalidPart: the ETag of part ${part.partNumber} does not match its bytes`);
      if (i < parts.length - 1 && bytes.length < MIN_PART_BYTES)
        throw new BlobPartsError(`EntityTooSmall: part ${part.partNumber} is under 5 MiB and not the last`);
      bodies.push(body);
    }
    const size = await this.store.writeObject(key, upload.contentType, bodies as string[] | Buffer[]);
    await this.abort(key, uploadId);
    return { size };
  }

  async abort(_key: string, uploadId: string): Promise<void> {
    if (!/^[0-9a-f]{32}$/.test(uploadId)) return;
    if (this.store.partsDir) await rm(this.dirOf(uploadId), { recursive: true, force: true });
    else this.memory.delete(uploadId);
  }

  private sign(uploadId: string, partNumber: number, expires: number): string {
    return createHmac('sha256', this.secret).update(`${uploadId}:${partNumber}:${expires}`).digest('hex');
  }

  private dirOf(uploadId: string) {
    return join(this.store.partsDir!, uploadId);
  }

  private async uploadOf(uploadId: string): Promise<Upload | undefined> {
    if (!/^[0-9a-f]{32}$/.test(uploadId)) return undefined;
    if (!this.store.partsDir) return this.memory.get(uploadId);
    try {
      return JSON.parse(await readFile(join(this.dirOf(uploadId), 'upload.json'), 'utf8')) as Upload;
    } catch {
      return undefined;
    }
  }

  /** A part: its file's path (on disk) or its bytes (memory); undefined when never uploaded. */
  private async partOf(uploadId: string, partNumber: number): Promise<string | Buffer | undefined> {
    if (!this.store.partsDir) return this.memory.get(uploadId)?.parts.get(partNumber);
    const file = join(this.dirOf(uploadId), `part-${partNumber}`);
    return (await stat(file).then(
      () => true,
      () => false,
    ))
      ? file
      : undefined;
  }
}

/** Joins part files into one file by streaming (a 2 GB object never sits in memory). */
export async function joinFiles(target: string, parts: string[]): Promise<number> {
  await mkdir(dirname(target), { recursive: true });
  const out = createWriteStream(target);
  let size = 0;
  for (const part of parts) {
    size += (await stat(part)).size;
    await pipeline(createReadStream(part), out, { end: false });
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return size;
}
