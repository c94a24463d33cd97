import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { getAccount } from '../../shared/platform/accounts';
import { getImport, rowPage } from '../../shared/imports/repository';
import { processRows, runBatch } from '../../shared/imports/run';
import { BATCH_ROWS, IMPORT_QUEUE } from '../../shared/imports/service';
import { control, createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';

let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(async () => runtime?.stop());

// A busy machine can take longer than one settle's deadline (504): settle until idle, a few times.
const settle = () => settleWithRetries(runtime);

// A Shopify products export (columns as Shopify writes them, trimmed to the ones that matter here).
const productsCsv = [
  'Handle,Title,Body (HTML),Vendor,Variant Price,Status',
  'ebook-one,Ebook One,"<p>A book, with a comma</p>",Me,19.00,active',
  'course-two,Course Two,,Me,"1,200.50",active',
  'broken,Broken Price,,Me,abc,active',
  ',,,Me,5,active',
].join('\r\n');

// Generic subscribers CSV, with a BOM, CRLF and semicolons.
const subscribersCsv = (emails: { ok: string; unsub: string; archived: string; bounced: string }) =>
  '\uFEFF' +
  [
    'Email;First Name;Last Name;Status;Subscribed At;Tags',
    `${emails.ok};Ada;Lovelace;subscribed;2023-04-01;vip, fans`,
    `${emails.unsub};Bob;;unsubscribed;2023-05-01;`,
    `${emails.archived};Cy;;archived;2023-05-01;`,
    `not-an-email;Dee;;subscribed;;`,
    `${emails.bounced};Eve;;subscribed;;`,
  ].join('\r\n');

type Contact = { email: string; status: string; source: string; consent: { source: string; wording: string; optedInAt: string } | null; tags: string[] };
async function subscribers(account: TestAccount): Promise<Contact[]> {
  const all: Contact[] = [];
  let after = '';
  for (;;) {
    const page = (await account.test.get(`/newsletters/subscribers?limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`)).body;
    all.push(...page.data);
    if (!page.nextCursor) return all;
    after = page.nextCursor;
  }
}

describe('imports', () => {
  it('lists csv and three platforms with the columns of their exports', async () => {
    const account = await createTestAccount(runtime, 'free');
    const res = await account.test.get('/migrations/platforms');
    expect(res.status).toBe(200);
    const ids = res.body.sources.map((source: { id: string }) => source.id);
    expect(ids).toEqual(['csv', 'gumroad', 'shopify', 'mailchimp']);
    const shopify = res.body.sources.find((source: { id: string }) => source.id === 'shopify');
    expect(shopify.exports.find((e: { kind: string }) => e.kind === 'products').columns).toContain('Variant Price');
    expect(shopify.apiSupported).toBe(true);
  });

  it('needs Volume to create, and answers a clear 400 for a bad body without creating anything', async () => {
    const free = await createTestAccount(runtime, 'free');
    const locked = await free.test.post('/migrations', { source: 'csv' });
    expect(locked.status).toBe(403);
    expect(locked.body.code).toBe('FEATURE_LOCKED');
    const volume = await createTestAccount(runtime, 'volume');
    expect((await volume.test.post('/migrations', { source: 'nowhere' })).status).toBe(400);
    const empty = await volume.test.post('/migrations', { source: 'csv', files: [{ kind: 'products', filename: 'p.csv', csv: '\uFEFF' }] });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('files.0.csv');
    expect((await volume.test.get('/migrations')).body.data).toEqual([]);
  });

  it('imports products and subscribers once, reports bad rows, and a second import finds everything existing', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const tag = Date.now().toString(36);
    const emails = {
      ok: `ok-${tag}@example.com`,
      unsub: `unsub-${tag}@example.com`,
      archived: `arch-${tag}@example.com`,
      bounced: `bounce-${tag}@example.com`,
    };
    // The bounced address is on the suppression list before the import (and its contact deleted).
    const added = await account.test.post('/newsletters/subscribers', { email: emails.bounced });
    await account.test.post('/newsletters/send', { to: [emails.bounced], subject: 'Hi', text: 'x' });
    expect((await control(runtime).post('/_local/emails/events', { email: emails.bounced, type: 'bounce' })).status).toBe(200);
    await account.test.delete(`/newsletters/subscribers/${added.body._id}`);

    const files = [
      { kind: 'products', filename: 'products_export.csv', csv: productsCsv },
      { kind: 'subscribers', filename: 'subscribers.csv', csv: subscribersCsv(emails) },
    ];
    const created = await account.test.post('/migrations', { source: 'csv', files });
    expect(created.status, created.text).toBe(201);
    expect(created.body.status).toBe('draft');
    expect(created.body.mapping.products).toMatchObject({ name: 'Title', price: 'Variant Price', sourceId: 'Handle' });
    expect(created.body.mapping.subscribers).toMatchObject({ email: 'Email', status: 'Status', firstName: 'First Name', tags: 'Tags' });
    const id = created.body._id;

    const problems = await account.test.get(`/migrations/${id}/rows?kind=products&filter=problems`);
    expect(problems.body.rows.map((r: { row: number; problem: string }) => [r.row, r.problem])).toEqual([
      [3, 'price: "abc" is not a price'],
      [4, 'name: missing'],
    ]);

    const dry = await account.test.post(`/migrations/${id}/dry-run`);
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toMatchObject({ canStart: true, subscriberLimit: null });
    expect(dry.body.kinds.products).toEqual({ total: 4, invalid: 2, skipped: 0, create: 2, existing: 0, filesToDownload: 0, fileNeeded: 0 });
    expect(dry.body.kinds.subscribers).toMatchObject({ total: 5, invalid: 1, noConsent: 1, create: 2, active: 1, unsubscribed: 1, existing: 0, suppressed: 1 });
    expect(typeof dry.body.computedAt).toBe('string');
    expect(Array.isArray(dry.body.notes)).toBe(true);

    const started = await account.test.post(`/migrations/${id}/start`);
    expect(started.status, started.text).toBe(202);
    await settle();
    const done = (await account.test.get(`/migrations/${id}`)).body;
    expect(done.status).toBe('completed');
    expect(done.progress.products).toEqual({ total: 4, done: 4, created: 2, existing: 0, skipped: 0, failed: 2 });
    expect(done.progress.subscribers).toEqual({ total: 5, done: 5, created: 2, existing: 0, skipped: 2, failed: 1 });

    const products = (await account.test.get('/products')).body;
    const list = (Array.isArray(products) ? products : products.data) as { name: string; price: number }[];
    expect(list.map((p) => [p.name, p.price]).sort()).toEqual([
      ['Course Two', 1200.5],
      ['Ebook One', 19],
    ]);
    const contacts = await subscribers(account);
    const ok = contacts.find((c) => c.email === emails.ok)!;
    expect(ok).toMatchObject({ status: 'subscribed', source: 'import', tags: ['vip', 'fans'] });
    expect(ok.consent).toMatchObject({ source: 'csv_csv', optedInAt: '2023-04-01T00:00:00.000Z' });
    expect(contacts.find((c) => c.email === emails.unsub)?.status).toBe('unsubscribed');
    expect(contacts.some((c) => c.email === emails.archived)).toBe(false);
    // Nobody is emailed by an import.
    const mail = (await control(runtime).get(`/_local/emails?to=${encodeURIComponent(emails.ok)}`)).body.emails;
    expect(mail).toEqual([]);

    const errors = await account.test.get(`/migrations/${id}/errors.csv`);
    expect(errors.headers.get('content-type')).toContain('text/csv');
    expect(errors.text).toContain('price: ""abc"" is not a price');
    expect(errors.text).toContain('not-an-email');
    expect(errors.text).toContain('noConsent');
    expect(errors.text).toContain('suppressed');
    expect(errors.text).not.toContain(emails.ok);

    // Running again: a second import of the same exports finds everything existing.
    const again = await account.test.post('/migrations', { source: 'csv', files });
    expect((await account.test.post(`/migrations/${again.body._id}/dry-run`)).body.kinds.products).toMatchObject({ create: 0, existing: 2 });
    expect((await account.test.post(`/migrations/${again.body._id}/start`)).status).toBe(202);
    await settle();
    const second = (await account.test.get(`/migrations/${again.body._id}`)).body;
    expect(second.progress.products).toMatchObject({ created: 0, existing: 2 });
    expect(second.progress.subscribers).toMatchObject({ created: 0, existing: 2 });
    // Row states: subscribers that were created or found existing carry no marker; the listing reads them from the email claims.
    const states = (import_: string) =>
      account.test
        .get(`/migrations/${import_}/rows?kind=subscribers`)
        .then((res) => res.body.rows.map((r: { row: number; state: string }) => [r.row, r.state]));
    expect(await states(id)).toEqual([
      [1, 'created'],
      [2, 'created'],
      [3, 'skipped'],
      [4, 'failed'],
      [5, 'skipped'],
    ]);
    expect(await states(again.body._id)).toEqual([
      [1, 'existing'],
      [2, 'existing'],
      [3, 'skipped'],
      [4, 'failed'],
      [5, 'skipped'],
    ]);
    const after = (await account.test.get('/products')).body;
    expect((Array.isArray(after) ? after : after.data).length).toBe(2);
    expect((await subscribers(account)).length).toBe(contacts.length);
    // A completed import cannot be started again, and the mapping of a non-draft is fixed.
    expect((await account.test.post(`/migrations/${id}/start`)).status).toBe(409);
  });

  it('fixes a mapping with PUT and revalidates the rows', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const csv = 'Full Name,E-mail Address,Opt\nAda,ada@example.com,yes\nBob,bob@example.com,no\n';
    const created = await account.test.post('/migrations', { source: 'csv', files: [{ kind: 'subscribers', filename: 's.csv', csv }] });
    const id = created.body._id;
    expect(created.body.mapping.subscribers.email).toBeNull();
    expect((await account.test.post(`/migrations/${id}/start`)).status).toBe(400);
    const bad = await account.test.put(`/migrations/${id}/files/subscribers/mapping`, { mapping: { email: 'Nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('column "Nope" is not in the file');
    const fixed = await account.test.put(`/migrations/${id}/files/subscribers/mapping`, { mapping: { email: 'E-mail Address', status: 'Opt' } });
    expect(fixed.status, fixed.text).toBe(200);
    expect(fixed.body.revalidated).toEqual({ kind: 'subscribers', total: 2, problems: 0 });
    const dry = (await account.test.post(`/migrations/${id}/dry-run`)).body;
    expect(dry.kinds.subscribers).toMatchObject({ create: 2, active: 1, unsubscribed: 1 });
    expect((await account.test.delete(`/migrations/${id}/files/subscribers`)).body.files).toEqual([]);
  });

  it('resumes a run that died mid-way from the first row not done and creates nothing twice', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const rows = Array.from({ length: 130 }, (_, i) => `sub${i}@example.com,subscribed`);
    const created = await account.test.post('/migrations', {
      source: 'csv',
      files: [{ kind: 'subscribers', filename: 's.csv', csv: ['email,status', ...rows].join('\n') }],
    });
    const id = created.body._id;
    // A worker did 30 rows (contacts and markers written) and died before moving the cursor.
    const record = (await getImport(runtime.deps.store, scope, id))!;
    const first = await rowPage(runtime.deps.store, scope, id, { limit: 30 });
    const accountRecord = (await getAccount(runtime.deps.store, account.accountId))!;
    await processRows({ ...runtime.deps, scope, account: accountRecord }, record, first.rows);
    expect((await subscribers(account)).length).toBe(30);
    expect((await account.test.post(`/migrations/${id}/start`)).status).toBe(202);
    await settle();
    const done = (await account.test.get(`/migrations/${id}`)).body;
    expect(done.status, JSON.stringify(done.progress)).toBe('completed');
    expect(done.progress.subscribers).toEqual({ total: 130, done: 130, created: 130, existing: 0, skipped: 0, failed: 0 });
    const count = (await subscribers(account)).length;
    expect(count).toBe(130);
  }, 180_000);

  it('cancel stops a running import after the current batch, keeps its progress, and start imports the rest without creating anything twice', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const total = BATCH_ROWS * 2;
    const rows = Array.from({ length: total }, (_, i) => `cancel${i}@example.com,subscribed`);
    const id = (
      await account.test.post('/migrations', { source: 'csv', files: [{ kind: 'subscribers', filename: 's.csv', csv: ['email,status', ...rows].join('\n') }] })
    ).body._id;
    // The run's queue messages are held here, so the test decides when each batch runs.
    const queue = runtime.deps.ports.queue;
    const send = queue.send.bind(queue);
    const held: Record<string, unknown>[] = [];
    queue.send = async (name, message, options) => (name === IMPORT_QUEUE ? void held.push(message) : send(name, message, options));
    // The first batch's email claims wait until the cancel is accepted, so it lands mid-batch.
    const store = runtime.deps.store;
    const statements = store.batchStatements.bind(store);
    let accepted!: () => void;
    const gate = new Promise<void>((resolve) => {
      accepted = resolve;
    });
    store.batchStatements = async (...args) => {
      await gate;
      return statements(...args);
    };
    try {
      expect((await account.test.post(`/migrations/${id}/start`)).status).toBe(202);
      expect(held.length).toBe(1);
      // Cancel arrives while the first batch runs: that batch finishes (rows, cursor, counters), and
      // the run stops there instead of going on to the next batch.
      const batch = runBatch(runtime.deps, scope, id);
      while (!(await getImport(runtime.deps.store, scope, id))!.leaseUntil) await new Promise((resolve) => setTimeout(resolve, 5));
      const canceled = await account.test.post(`/migrations/${id}/cancel`);
      accepted();
      await batch;
      expect(canceled.status, canceled.text).toBe(200);
      expect(canceled.body).toMatchObject({ status: 'running', cancelRequested: true });
      expect(held.length).toBe(1);
    } finally {
      queue.send = send;
      store.batchStatements = statements;
    }
    await settle();
    const stopped = (await account.test.get(`/migrations/${id}`)).body;
    expect(stopped.status).toBe('canceled');
    expect(stopped.cancelRequested).toBe(false);
    const boundary = (await account.test.get(`/migrations/${id}/rows?kind=subscribers&page=${BATCH_ROWS / 10}&pageSize=10`)).body.rows.map(
      (r: { state: string }) => r.state,
    );
    expect(boundary).toEqual(Array(10).fill('created'));
    const after = (await account.test.get(`/migrations/${id}/rows?kind=subscribers&page=${BATCH_ROWS / 10 + 1}&pageSize=10`)).body.rows.map(
      (r: { state: string }) => r.state,
    );
    expect(after).toEqual(Array(10).fill('pending'));
    expect(stopped.progress.subscribers).toEqual({ total, done: BATCH_ROWS, created: BATCH_ROWS, existing: 0, skipped: 0, failed: 0 });
    expect((await subscribers(account)).length).toBe(BATCH_ROWS);
    expect((await account.test.post(`/migrations/${id}/cancel`)).status).toBe(409);
    // Reads, report and errors still work; start again imports the rest.
    expect((await account.test.get(`/migrations/${id}/report`)).body.kinds.subscribers.done).toBe(BATCH_ROWS);
    expect((await account.test.post(`/migrations/${id}/start`)).status).toBe(202);
    await settle();
    const done = (await account.test.get(`/migrations/${id}`)).body;
    expect(done.status, JSON.stringify(done.progress)).toBe('completed');
    expect(done.progress.subscribers).toEqual({ total, done: total, created: total, existing: 0, skipped: 0, failed: 0 });
    const emails = (await subscribers(account)).map((c) => c.email);
    expect(emails.length).toBe(total);
    expect(new Set(emails).size).toBe(total);
  }, 180_000);

  it('refuses product file links to private addresses and marks the products fileNeeded with the reason', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const t = Date.now().toString(36);
    const csv = [
      'Title,Price,File URL',
      `Loopback ${t},5,https://127.0.0.1/secret.pdf`,
      `Private ${t},6,https://10.1.2.3/book.pdf`,
      `Metadata ${t},7,https://169.254.169.254/latest/meta-data`,
      `Plain ${t},8,http://files.example.com/book.pdf`,
    ].join('\n');
    const id = (await account.test.post('/migrations', { source: 'csv', files: [{ kind: 'products', filename: 'p.csv', csv }] })).body._id;
    const dry = await account.test.post(`/migrations/${id}/dry-run`);
    expect(dry.body.kinds.products).toMatchObject({ create: 4, fileNeeded: 4, filesToDownload: 0 });
    expect((await account.test.post(`/migrations/${id}/start`)).status).toBe(202);
    await settle();
    const report = (await account.test.get(`/migrations/${id}/report`)).body;
    expect(report.kinds.products).toMatchObject({ created: 4 });
    expect(report.filesAttached).toEqual([]);
    expect(report.fileNeeded.map((f: { row: number; reason: string }) => [f.row, f.reason])).toEqual([
      [1, 'fileNeeded: url host 127.0.0.1 is a loopback address, not a public address'],
      [2, 'fileNeeded: url host 10.1.2.3 is a private address (10.0.0.0/8), not a public address'],
      [3, 'fileNeeded: url host 169.254.169.254 is a cloud metadata address, not a public address'],
      [4, 'fileNeeded: url must use https'],
    ]);
    expect(report.fileNeeded.every((f: { productId: string | null }) => !!f.productId)).toBe(true);
    const errors = await account.test.get(`/migrations/${id}/errors.csv`);
    expect(errors.text).toContain('10.1.2.3 is a private address');
  });

  it('keeps accounts apart', async () => {
    const a = await createTestAccount(runtime, 'volume');
    const b = await createTestAccount(runtime, 'volume');
    const created = await a.test.post('/migrations', { source: 'csv' });
    expect((await b.test.get(`/migrations/${created.body._id}`)).status).toBe(404);
    expect((await a.live.get(`/migrations/${created.body._id}`)).status).toBe(404);
    expect((await b.test.post(`/migrations/${created.body._id}/start`)).status).toBe(404);
  });
});
