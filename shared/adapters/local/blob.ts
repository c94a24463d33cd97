import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Clock } from '../../platform/clock';
import { systemClock } from '../../platform/clock';
import type { BlobObject, BlobPort } from '../../platform/ports';
import { joinFiles, LocalMultipart } from './blob-multipart';

/** S3 stand-in: files under .data/blobs, or memory with --memory. */
export class LocalBlob implements BlobPort {
  private readonly memory = new Map<string, BlobObject>();
  /** Multipart uploads; their part URLs are served by the local runtime at `baseUrl`. */
  readonly multipart: LocalMultipart;

  constructor(
    private readonly dir?: string,
    options: { baseUrl: () => string; clock: Clock } = { baseUrl: () => '', clock: systemClock },
  ) {
    this.multipart = new LocalMultipart(
      {
        partsDir: dir ? join(dir, '.multipart') : undefined,
        writeObject: async (key, contentType, parts) => {
          if (!this.dir) {
            const body = Buffer.concat(parts as Buffer[]);
            await this.put(key, body, contentType);
            return body.length;
          }
          const file = this.path(key);
          const size = await joinFiles(file, parts as string[]);
          await writeFile(`${file}.type`, contentType);
          return size;
        },
      },
      options,
    );
  }

  private path(key: string) {
    const root = resolve(this.dir!);
    const full = resolve(root, key);
    if (!full.startsWith(root + '/')) throw new Error('Invalid blob key');
    return full;
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    if (!this.dir) {
      this.memory.set(key, { body, contentType });
      return;
    }
    const file = this.path(key);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, body);
    await writeFile(`${file}.type`, contentType);
  }

  /** Chunk by chunk to the file (waiting whenever the stream is full); all of it in memory with --memory. */
  async putStream(key: string, chunks: AsyncIterable<Uint8Array | string>, contentType: string): Promise<{ bytes: number }> {
    let bytes = 0;
    if (!this.dir) {
      const parts: Buffer[] = [];
      for await (const chunk of chunks) {
        const buffer = Buffer.from(chunk);
        parts.push(buffer);
        bytes += buffer.length;
      }
      this.memory.set(key, { body: Buffer.concat(parts), contentType });
      return { bytes };
    }
    const file = this.path(key);
    await mkdir(dirname(file), { recursive: true });
    const out = createWriteStream(file);
    try {
      for await (const chunk of chunks) {
        const buffer = Buffer.from(chunk);
        bytes += buffer.length;
        if (!out.write(buffer)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
    } catch (error) {
      out.destroy();
      await rm(file, { force: true });
      throw error;
    }
    await writeFile(`${file}.type`, contentType);
    return { bytes };
  }

  async get(key: string): Promise<BlobObject | undefined> {
    if (!this.dir) return this.memory.get(key);
    try {
      const file = this.path(key);
      return { body: await readFile(file), contentType: await readFile(`${file}.type`, 'utf8') };
    } catch {
      return undefined;
    }
  }

  async delete(key: string): Promise<void> {
    if (!this.dir) {
      this.memory.delete(key);
      return;
    }
    const file = this.path(key);
    await rm(file, { force: true });
    await rm(`${file}.type`, { force: true });
  }
}

export const blobDir = (dataDir: string) => join(dataDir, 'blobs');
