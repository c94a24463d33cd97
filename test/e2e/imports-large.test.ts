import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { rowPage } from '../../shared/imports/repository';
import { IMPORT_QUEUE } from '../../shared/imports/service';
import { createTestAccount, startTestRuntime, settleWithRetries } from '../support/runtime';

// Large files, made small: a file of more than 5 rows is stored by the file worker, 4 rows a message;
// a dry run over more than 10 rows is computed by the worker.
let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime({ IMPORT_INLINE_ROWS: '5', IMPORT_FILE_CHUNK_ROWS: '4', IMPORT_DRY_RUN_INLINE_ROWS: '10' });
});
afterAll(async () => runtime?.stop());

const settle = () => settleWithRetries(runtime);

/** Holds the imports queue's messages, so the test decides when the file worker runs. */
function holdQueue() {
  const queue = runtime.deps.ports.queue;
  const send = queue.send.bind(queue);
  const held: Record<string, unknown>[] = [];
  queue.send = async (name, message, options) => (name === IMPORT_QUEUE ? void held.push(message) : send(name, message, options));
  return {
    held,
    /** Lets the held messages (and every later one) through. */
    release: async () => {
      queue.send = send;
      for (const message of held.splice(0)) await send(IMPORT_QUEUE, message);
    },
  };
}

const csvOf = (prefix: string, n: number) =>
  ['Email,First Name,Status', ...Array.from({ length: n }, (_, i) => `${prefix}${i}@large.example.com,Reader ${i},subscribed`)].join('\r\n');

describe('imports: large files', () => {
  it('a large file answers at once as processing; what needs its rows answers 409 until the worker has stored them; then it runs', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const hold = holdQueue();
    let id: string;
    try {
      const created = await account.test.post('/migrations', { source: 'csv', files: [{ kind: 'subscribers', filename: 'big.csv', csv: csvOf('big', 13) }] });
      expect(created.status, created.text).toBe(201);
      id = created.body._id;
      expect(created.body.files).toEqual([expect.objectContaining({ kind: 'subscribers', rowCount: 13, status: 'processing', rowsStored: 0 })]);
      expect(hold.held).toEqual([expect.objectContaining({ importId: id, store: 'subscribers' })]);
      // No row is written by the request.
      expect((await rowPage(runtime.deps.store, scope, id, { limit: 100 })).rows).toEqual([]);
      for (const [method, path, body] of [
        ['post', `/migrations/${id}/dry-run`, undefined],
        ['post', `/migrations/${id}/start`, undefined],
        ['get', `/migrations/${id}/rows?kind=subscribers`, undefined],
        ['get', `/migrations/${id}/errors.csv`, undefined],
        ['put', `/migrations/${id}/files/subscribers/mapping`, { mapping: { name: 'First Name' } }],
        ['post', `/migrations/${id}/files`, { kind: 'subscribers', filename: 'other.csv', csv: csvOf('other', 2) }],
        ['delete', `/migrations/${id}/files/subscribers`, undefined],
      ] as const) {
        const res = await account.test.request(method.toUpperCase(), path, body);
        expect(res.status, `${method} ${path}`).toBe(409);
        expect(res.body.code, `${method} ${path}`).toBe('IMPORT_FILE_PROCESSING');
        expect(res.body.message, `${method} ${path}`).toMatch(/still processing \(0 of 13 rows stored\)/);
      }
      // Reads still work, and nothing changed.
      const read = (await account.test.get(`/migrations/${id}`)).body;
      expect(read).toMatchObject({ status: 'draft', files: [expect.objectContaining({ filename: 'big.csv', status: 'processing' })] });
      // A file of another kind is not held up.
      expect((await account.test.post(`/migrations/${id}/files`, { kind: 'customers', filename: 'c.csv', csv: 'email\nc1@large.example.com' })).status).toBe(
        200,
      );
    } finally {
      await hold.release();
    }
    await settle();
    const ready = (await account.test.get(`/migrations/${id}`)).body;
    expect(ready.files.find((f: { kind: string }) => f.kind === 'subscribers')).toMatchObject({ status: 'ready', rowsStored: 13, rowCount: 13 });
    const rows = (await account.test.get(`/migrations/${id}/rows?kind=subscribers&pageSize=100`)).body;
    expect(rows.rows.map((r: { row: number; values: Record<string, string> }) => [r.row, r.values.Email])).toEqual(
      Array.from({ length: 13 }, (_, i) => [i + 1, `big${i}@large.example.com`]),
    );
    // 14 rows (13 subscribers, 1 customer): the dry run is computed in the background.
    const asked = await account.test.post(`/migrations/${id}/dry-run`);
    expect(asked.status, asked.text).toBe(202);
    expect(asked.body).toMatchObject({ _id: id, status: 'computing', rows: 14, poll: `/migrations/${id}` });
    await settle();
    const computed = (await account.test.get(`/migrations/${id}`)).body;
    expect(computed.dryRunComputing).toBe(false);
    expect(computed.dryRun).toMatchObject({ canStart: true, kinds: { subscribers: { total: 13, create: 13 }, customers: { total: 1, create: 1 } } });
    expect((await account.test.post(`/migrations/${id}/start`)).status).toBe(202);
    await settle();
    const done = (await account.test.get(`/migrations/${id}`)).body;
    expect(done.status).toBe('completed');
    expect(done.progress.subscribers).toMatchObject({ total: 13, created: 13 });
  }, 60_000);

  it('replacing a large file stores the new rows and deletes the old ones past them; a stale worker message does nothing', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const created = await account.test.post('/migrations', { source: 'csv', files: [{ kind: 'subscribers', filename: 'big.csv', csv: csvOf('first', 11) }] });
    const id = created.body._id;
    await settle();
    const hold = holdQueue();
    try {
      // 3 rows, small, but replacing 11: the worker does it (the old rows go in the background).
      const replaced = await account.test.post(`/migrations/${id}/files`, { kind: 'subscribers', filename: 'small.csv', csv: csvOf('second', 3) });
      expect(replaced.status, replaced.text).toBe(200);
      expect(replaced.body.files).toEqual([expect.objectContaining({ filename: 'small.csv', rowCount: 3, status: 'processing' })]);
    } finally {
      await hold.release();
    }
    await settle();
    const stored = (await rowPage(runtime.deps.store, scope, id, { limit: 100 })).rows;
    expect(stored.map((r) => r.raw[0])).toEqual(['second0@large.example.com', 'second1@large.example.com', 'second2@large.example.com']);
    expect((await account.test.get(`/migrations/${id}`)).body.files[0]).toMatchObject({ status: 'ready', rowsStored: 3 });
    // The first upload's message, redelivered late, names an upload that is no longer current.
    await runtime.deps.ports.queue.send(IMPORT_QUEUE, { scope, importId: id, store: 'subscribers', uploadId: 'stale0000000000' });
    await settle();
    expect((await rowPage(runtime.deps.store, scope, id, { limit: 100 })).rows.length).toBe(3);
  }, 60_000);

  it('removing a large file deletes its rows in the background; a new file of that kind waits for it', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const id = (await account.test.post('/migrations', { source: 'csv', files: [{ kind: 'subscribers', filename: 'big.csv', csv: csvOf('gone', 9) }] })).body
      ._id;
    await settle();
    const hold = holdQueue();
    try {
      const removed = await account.test.delete(`/migrations/${id}/files/subscribers`);
      expect(removed.status, removed.text).toBe(200);
      expect(removed.body.files).toEqual([]);
      const again = await account.test.post(`/migrations/${id}/files`, { kind: 'subscribers', filename: 'new.csv', csv: csvOf('new', 2) });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('IMPORT_FILE_PROCESSING');
    } finally {
      await hold.release();
    }
    await settle();
    expect((await rowPage(runtime.deps.store, scope, id, { limit: 100 })).rows).toEqual([]);
    const added = await account.test.post(`/migrations/${id}/files`, { kind: 'subscribers', filename: 'new.csv', csv: csvOf('new', 2) });
    expect(added.status, added.text).toBe(200);
    expect(added.body.files[0]).toMatchObject({ status: 'ready', rowCount: 2 });
  }, 60_000);

  it('an unreadable large file is refused with the reason and creates nothing', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const bad = ['Email,Status', ...Array.from({ length: 8 }, (_, i) => `x${i}@large.example.com,subscribed`), '"unclosed@large.example.com,subscribed'].join(
      '\n',
    );
    const res = await account.test.post('/migrations', { source: 'csv', files: [{ kind: 'subscribers', filename: 'bad.csv', csv: bad }] });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('files.0.csv: not a readable CSV file');
    expect((await account.test.get('/migrations')).body.data).toEqual([]);
  });
});
