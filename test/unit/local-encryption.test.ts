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
    parts[2] = Buffer.from('x' + Buffer.from(parts[2]!, 'base64').toString('binary').slice(1), 'binary').toString('base64');
    await expect(encryption.decrypt(parts.join('.'), {})).rejects.toThrow();
  });
});
