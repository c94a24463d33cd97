import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { EncryptionPort } from '../../platform/ports';

const contextAad = (context: Record<string, string>) =>
  Buffer.from(
    JSON.stringify(
      Object.keys(context)
        .sort()
        .map((k) => [k, context[k]]),
    ),
  );

/**
 * KMS stand-in: AES-256-GCM with one key kept under .data/ (or in memory). The encryption context
 * is bound as additional authenticated data, as KMS does, so a ciphertext moved to another
 * record fails to decrypt.
 */
export class LocalEncryption implements EncryptionPort {
  private key?: Buffer;

  constructor(private readonly keyFile?: string) {}

  private async loadKey(): Promise<Buffer> {
    if (this.key) return this.key;
    if (!this.keyFile) {
      this.key = randomBytes(32);
      return this.key;
    }
    try {
      this.key = Buffer.from(await readFile(this.keyFile, 'utf8'), 'hex');
    } catch {
      this.key = randomBytes(32);
      await mkdir(dirname(this.keyFile), { recursive: true });
      await writeFile(this.keyFile, this.key.toString('hex'), { mode: 0o600 });
    }
    return this.key;
  }

  async encrypt(plaintext: string, context: Record<string, string>): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', await this.loadKey(), iv);
    cipher.setAAD(contextAad(context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), body.toString('base64'), cipher.getAuthTag().toString('base64')].join('.');
  }

  async decrypt(ciphertext: string, context: Record<string, string>): Promise<string> {
    const [version, iv, body, tag] = ciphertext.split('.');
    if (version !== 'v1' || !iv || !body || !tag) throw new Error('Unknown ciphertext format');
    const decipher = createDecipheriv('aes-256-gcm', await this.loadKey(), Buffer.from(iv, 'base64'));
    decipher.setAAD(contextAad(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }
}
