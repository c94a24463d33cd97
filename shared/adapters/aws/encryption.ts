import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { lazily, required, type AwsPortEnv } from './env';
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

/** The encryption port of a function whose needs include `encryption`. */
export function awsEncryptionPort(env: AwsPortEnv): EncryptionPort {
  const kms = lazily(() => new KmsEncryption(new KMSClient({ region: env.config.AWS_REGION }), required(env.config.KMS_KEY_ID, 'KMS_KEY_ID')));
  return { encrypt: (text, context) => kms().encrypt(text, context), decrypt: (text, context) => kms().decrypt(text, context) };
}
