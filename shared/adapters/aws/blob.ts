import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { lazily, required, type AwsPortEnv } from './env';
import type { BlobObject, BlobPort } from '../../platform/ports';

export class S3Blob implements BlobPort {
  constructor(
    private readonly client: Pick<S3Client, 'send'>,
    private readonly bucket: string,
  ) {}

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, ServerSideEncryption: 'aws:kms' }));
  }

  async get(key: string): Promise<BlobObject | undefined> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return { body: await out.Body!.transformToByteArray(), contentType: out.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      if (error instanceof NoSuchKey) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}

/** The blob port of a function whose needs include `blob`. */
export function awsBlobPort(env: AwsPortEnv): BlobPort {
  const blob = lazily(() => new S3Blob(new S3Client({ region: env.config.AWS_REGION }), required(env.config.BLOB_BUCKET, 'BLOB_BUCKET')));
  return { put: (key, body, type) => blob().put(key, body, type), get: (key) => blob().get(key), delete: (key) => blob().delete(key) };
}
