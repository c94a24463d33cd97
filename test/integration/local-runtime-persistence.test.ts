import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalRuntime } from '../../shared/local/runtime';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

// What `npm start` does: its own DynamoDB Local with data on disk, the demo account, and the same
// keys and records after a restart.
describe('npm start with data on disk', () => {
  it('creates the demo account once and keeps records across restarts', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cc-data-'));
    dirs.push(dataDir);
    const first = await startLocalRuntime({ port: 0, dataDir, demo: true });
    let productId: string;
    try {
      const created = await fetch(`${first.url}/products`, {
        method: 'POST',
        headers: { authorization: `Bearer ${first.demo!.testKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Kept', price: 3 }),
      });
      expect(created.status).toBe(201);
      productId = (await created.json())._id;
    } finally {
      await first.stop();
    }
    const second = await startLocalRuntime({ port: 0, dataDir, demo: true });
    try {
      expect(second.demo).toEqual(first.demo);
      const read = await fetch(`${second.url}/products/${productId}`, { headers: { authorization: `Bearer ${second.demo!.testKey}` } });
      expect(read.status).toBe(200);
      expect((await read.json()).name).toBe('Kept');
    } finally {
      await second.stop();
    }
  }, 90_000);
});
