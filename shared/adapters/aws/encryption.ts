import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { EncryptionPort } from '../../platform/ports';

/** KMS with an encryption context, so a ciphertext only decrypts for the record it belongs to. */
export class KmsEncryption implements EncryptionPort {
  constructor(
    private readonly client: Pick<KMSClient, 'send'>,
    private readonly keyId: string,
  ) {}

  async encrypt(plaintext: string, context: Record<string, string>): Promise<string> {
    const out = await this.client.send(new EncryptCommand({ KeyId: this.keyId, Plaintext: Buffer.from(plaintext, 'utf8'), EncryptionContext: context }));
    return Buffer.from(out.CiphertextBlob!).toString('base64');
  }

  async decrypt(ciphertext: string, context: Record<string, string>): Promise<string> {
    const out = await this.client.send(
      new DecryptCommand({ KeyId: this.keyId, CiphertextBlob: Buffer.from(ciphertext, 'base64'), EncryptionContext: context }),
    );
    return Buffer.from(out.Plaintext!).toString('utf8');
  }
}
