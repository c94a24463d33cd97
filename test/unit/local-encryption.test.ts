import { describe, expect, it } from 'vitest';
import { LocalEncryption } from '../../shared/adapters/local/encryption';

describe('local encryption (KMS stand-in)', () => {
  it('round-trips and binds the ciphertext to its context', async () => {
    const encryption = new LocalEncryption();
    const ciphertext = await encryption.encrypt('whsec-1234', { accountId: 'a1', webhookId: 'w1' });
    expect(ciphertext).not.toContain('whsec');
    expect(await encryption.decrypt(ciphertext, { webhookId: 'w1', accountId: 'a1' })).toBe('whsec-1234');
    await expect(encryption.decrypt(ciphertext, { accountId: 'a2', webhookId: 'w1' })).rejects.toThrow();
  });

  it('detects tampering', async () => {
    const encryption = new LocalEncryption();
    const ciphertext = await encryption.encrypt('secret', {});
    const parts = ciphertext.split('.');
    // Flip one bit of the first byte: replacing it with a fixed one left it unchanged 1 time in 256.
    const body = Buffer.from(parts[2]!, 'base64');
    body[0]! ^= 1;
    parts[2] = body.toString('base64');
    await expect(encryption.decrypt(parts.join('.'), {})).rejects.toThrow();
  });
});
