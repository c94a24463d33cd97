import { erasedAmong } from '../platform/privacy';
import { contactIdsByEmail, contactIdsForClaims, importContacts, type ImportContactInput, suppressedAmongMany } from '../audience/bulk';
import { createProduct } from '../catalog/service';
import { getAccount } from '../platform/accounts';
import type { Deps } from '../platform/context';
import { badRequest, conflict } from '../platform/errors';
import type { Scope } from '../store/keys';
import { isConditionFailed } from '../store/conditional';
import type { TransactOp } from '../store/store';
import { KINDS, platformOf } from './platforms';
import { counterName, type ImportRecord, type ProductFile, type RowRecord, type RowState } from './records';
import { fetchProductFile } from './product-files';
import { storeImportedFile } from '../product-files/service';
import * as repo from './repository';
import { mappingProblems, type Checked } from './rules';

import { armSweep, IMPORT_QUEUE, sweepTimer } from './sweep';
import { existingProducts } from './dry-run';
import { checkFileRow, rowContactId } from './row-states';
import { BATCH_ROWS, type ImportView, type ImportsCtx, LEASE_MS, requireImport, requireStored, toView } from './service';

export async function startImport(ctx: ImportsCtx, id: string): Promise<ImportView> {
  const record = await requireImport(ctx, ctx.scope, id);
  if (record.status === 'running') throw conflict('The import is already running', 'IMPORT_RUNNING');
  if (record.status === 'completed') throw conflict('The import is completed', 'IMPORT_COMPLETED');
  if (!Object.keys(record.files).length) throw badRequest('Add at least one file before starting', { field: 'files' });
  requireStored(record, KINDS, 'start');
  for (const kind of KINDS) {
    const file = record.files[kind];
    const problems = file ? mappingProblems(kind, file.mapping, file.header) : [];
    if (problems.length) throw badRequest(`mapping of ${kind}: ${problems.join('; ')}`, { field: `mapping.${kind}` });
  }
  let next: ImportRecord;
  try {
    // A failed or canceled import resumes from its cursor: rows already done keep their markers.
    next = await repo.updateImport(
      ctx.store,
      ctx.scope,
      id,
      {
        set: {
          status: 'running',
          cancelRequested: false,
          leaseUntil: 0,
          startedAt: record.startedAt ?? ctx.clock.now().toISOString(),
          finishedAt: null,
          updatedAt: ctx.clock.now().toISOString(),
        },
      },
      { expression: '#status = :status', names: { '#status': 'status' }, values: { ':status': record.status } },
    );
  } catch (error) {
    if (isConditionFailed(error)) throw conflict('The import changed while this request ran; try again', 'CONCURRENT_UPDATE');
    throw error;
  }
  await armSweep(ctx, ctx.scope, id);
  await ctx.ports.queue.send(IMPORT_QUEUE, { scope: ctx.scope, importId: id });
  return toView(next);
}

export async function cancelImport(ctx: ImportsCtx, id: string): Promise<ImportView> {
  const record = await requireImport(ctx, ctx.scope, id);
  if (record.status !== 'running') throw conflict(`Only a running import can be canceled; this one is ${record.status}`, 'IMPORT_NOT_RUNNING');
  return toView(await repo.updateImport(ctx.store, ctx.scope, id, { set: { cancelRequested: true, updatedAt: ctx.clock.now().toISOString() } }));
}

/**
 * A batch claims its addresses without looking them up first while the batch before found fewer
 * than 1 in HELD_LOOKUP_SHARE of its addresses already held: the claim is itself the lookup (one
 * that fails is looked up again). A lookup costs 0.5 RCU an address on DynamoDB and ~0.2 ms of
 * DynamoDB Local's CPU, a failed claim 1 WCU and ~0.8 ms: past about 1 in 10 held, looking up
 * first is cheaper (a second import of the same list, an audience that overlaps the contacts).
 */
const HELD_LOOKUP_SHARE = 10;

/** Batches one message runs while it holds the lease (then it lets go and queues the next). */
const BATCHES_PER_MESSAGE = 8;
/** ...and at most this long, far inside the lease and the queue's timeout. */
const MESSAGE_BUDGET_MS = 20_000;

/**
 * One message of a run: claim the lease, then batch after batch of up to BATCH_ROWS rows after the
 * cursor, each ending in its own cursor move (with the progress counters) so a crash resumes from
 * the last batch done. While it goes on, the cursor move also extends the lease (no lease write,
 * account read or queue hop between batches), and the next batch's rows are read while this one
 * writes. After BATCHES_PER_MESSAGE batches or MESSAGE_BUDGET_MS it lets go and queues the next.
 */
export async function runBatch(deps: Deps, scope: Scope, id: string): Promise<void> {
  const startedMs = deps.clock.nowMs();
  let record: ImportRecord;
  try {
    record = await repo.updateImport(
      deps.store,
      scope,
      id,
      { set: { leaseUntil: startedMs + LEASE_MS } },
      {
        expression: '#status = :running AND leaseUntil < :now',
        names: { '#status': 'status' },
        values: { ':running': 'running', ':now': startedMs },
      },
    );
  } catch (error) {
    if (isConditionFailed(error)) return; // not running, or another worker holds the lease
    throw error;
  }
  if (record.cancelRequested) return finish(deps, scope, record, 'canceled');
  const account = await getAccount(deps.store, scope.accountId);
  if (!account) return finish(deps, scope, record, 'failed');
  const ctx: ImportsCtx = { ...deps, scope, account };
  const pageAfter = (after: string | null | undefined) => repo.rowPage(deps.store, scope, id, { after: after ?? undefined, limit: BATCH_ROWS });
  let page = await pageAfter(record.cursor);
  // Whether a batch looks its addresses up before claiming them; see `processRows`.
  let lookUpHeld = true;
  for (let batch = 1; ; batch++) {
    if (record.cancelRequested) return finish(deps, scope, record, 'canceled');
    // Rows past the file's count are leftovers of an upload that failed half-way; they never run.
    const rows = page.rows.filter((row) => row.n <= (record.files[row.kind]?.rowCount ?? 0));
    const last = page.rows.at(-1)?.sk ?? record.cursor;
    const completed = !page.cursor;
    const goesOn = !completed && batch < BATCHES_PER_MESSAGE && deps.clock.nowMs() - startedMs < MESSAGE_BUDGET_MS;
    const next = goesOn ? pageAfter(last) : undefined;
    next?.catch(() => undefined); // judged when awaited
    let states: Map<string, RowState>;
    try {
      states = await processRows(ctx, record, rows, { lookUpHeld });
    } catch (error) {
      // Rows done so far keep their markers; the sweep or a new start goes on from the cursor.
      await repo.updateImport(deps.store, scope, id, { set: { leaseUntil: 0 } });
      throw error;
    }
    // The counters move with the cursor in one conditional write: each row is counted exactly once,
    // also the rows an earlier, crashed attempt marked done before it could move the cursor.
    const add: Record<string, number> = {};
    for (const row of rows) {
      const state = states.get(row.sk) ?? row.state;
      if (state !== 'pending') add[counterName(row.kind, state)] = (add[counterName(row.kind, state)] ?? 0) + 1;
    }
    const held = add[counterName('subscribers', 'existing')] ?? 0;
    const subscribers = held + (add[counterName('subscribers', 'created')] ?? 0);
    if (subscribers) lookUpHeld = held * HELD_LOOKUP_SHARE >= subscribers;
    const now = deps.clock.now();
    record = await repo.updateImport(
      deps.store,
      scope,
      id,
      {
        set: {
          cursor: last,
          leaseUntil: goesOn ? now.getTime() + LEASE_MS : 0,
          updatedAt: now.toISOString(),
          ...(completed ? { status: 'completed', cancelRequested: false, finishedAt: now.toISOString() } : {}),
        },
        add,
      },
      { expression: '#cursor = :cursor', names: { '#cursor': 'cursor' }, values: { ':cursor': record.cursor } },
    );
    if (completed) return deps.ports.scheduler.cancel(sweepTimer(scope, id));
    if (!next) return deps.ports.queue.send(IMPORT_QUEUE, { scope, importId: id });
    try {
      page = await next;
    } catch (error) {
      await repo.updateImport(deps.store, scope, id, { set: { leaseUntil: 0 } });
      throw error;
    }
  }
}

async function finish(deps: Deps, scope: Scope, record: ImportRecord, status: 'canceled' | 'failed') {
  await repo.updateImport(deps.store, scope, record._id, {
    set: { status, leaseUntil: 0, cancelRequested: false, finishedAt: deps.clock.now().toISOString(), updatedAt: deps.clock.now().toISOString() },
  });
  await deps.ports.scheduler.cancel(sweepTimer(scope, record._id));
}

/** Runs `work` over items, `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

const ROW_CONCURRENCY = 10;

/**
 * Subscriber rows of a batch, all at once: rules and suppression decide in memory, audience's
 * `importContacts` claims the new addresses (conditional PartiQL INSERTs, 25 a call) and writes the
 * contacts in bulk. Only rows left out or failed get a marker (they carry the reason); a row that
 * ends `created` or `existing` writes nothing of its own: the cursor says it is done and the
 * email claim says which (`subscriberRowStates`), so a subscriber costs its contact's items only.
 */
async function importSubscribers(
  ctx: ImportsCtx,
  record: ImportRecord,
  entries: { row: RowRecord; checked: Checked }[],
  { suppressed, erased, held }: { suppressed: Set<string>; erased: Set<string>; held: Map<string, string> },
  states: Map<string, RowState>,
) {
  const platform = platformOf(record.source);
  const now = ctx.clock.now().toISOString();
  const source = `${record.source}_${record.files.subscribers?.origin ?? 'csv'}`;
  const wording = platform?.consentWording ?? "Opted in on the creator's previous platform (CSV import)";
  const marked: RowRecord[] = [];
  const mark = (row: RowRecord, state: Exclude<RowState, 'pending'>, reason: string | null, ref: string | null) => marked.push({ ...row, state, reason, ref });
  const toImport: { row: RowRecord; input: ImportContactInput }[] = [];
  for (const { row, checked: c } of entries) {
    if (!c.ok) mark(row, 'failed', c.reason, null);
    else if (c.row.kind !== 'subscribers') mark(row, 'failed', `kind ${c.row.kind} in the subscribers file`, null);
    else if (!c.row.status) mark(row, 'skipped', `noConsent: status "${c.row.rawStatus}" carries no consent`, null);
    else if (suppressed.has(c.row.email)) mark(row, 'skipped', 'suppressed: the address is on the bounce or complaint list', null);
    else if (erased.has(c.row.email)) mark(row, 'skipped', ERASED_REASON, null);
    else {
      const item = c.row;
      const consent = { source, wording, optedInAt: item.optedInAt ?? now };
      toImport.push({
        row,
        input: {
          id: rowContactId(record._id, row.sk),
          email: item.email,
          source: 'import',
          status: item.status ?? undefined,
          tags: item.tags,
          consent,
          name: item.name,
        },
      });
    }
  }
  const outcomes = await importContacts(
    ctx,
    ctx.scope,
    toImport.map(({ input }) => input),
    { held },
  );
  outcomes.forEach((outcome, i) => {
    const { row } = toImport[i]!;
    if (outcome.state === 'failed') mark(row, 'failed', outcome.reason, null);
    else states.set(row.sk, outcome.state);
  });
  await repo.markRows(ctx.store, ctx.scope, record._id, marked);
  for (const row of marked) states.set(row.sk, row.state);
}

const ERASED_REASON = 'erased: this buyer asked for their data to be erased; not imported again';

/**
 * Runs the pending rows of a batch; each row's effect and its marker are one transaction where
 * the effect is ours. Products go one by one (a name repeated in the file is created once); the
 * other kinds run side by side. Answers the state each row ended in.
 */
export async function processRows(
  ctx: ImportsCtx,
  record: ImportRecord,
  rows: RowRecord[],
  /** `lookUpHeld: false`: the subscribers' addresses are claimed without a lookup first (`contactIdsForClaims`). */
  { lookUpHeld = true }: { lookUpHeld?: boolean } = {},
): Promise<Map<string, RowState>> {
  const states = new Map<string, RowState>();
  const pending = rows.filter((row) => row.state === 'pending');
  if (!pending.length) return states;
  const id = record._id;
  const done = async (
    row: RowRecord,
    ops: TransactOp[],
    state: Exclude<RowState, 'pending'>,
    extra?: { reason?: string | null; ref?: string | null; file?: ProductFile },
  ) => {
    try {
      await ctx.store.transact([...ops, ...repo.rowDone(ctx.scope, id, row, state, extra)]);
      states.set(row.sk, state);
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      // Either the row was marked by an earlier attempt, or what it creates exists (imported before).
      const current = await repo.getRow(ctx.store, ctx.scope, id, row.sk);
      if (current && current.state !== 'pending') states.set(row.sk, current.state);
      else await done(row, [], 'existing', { ref: extra?.ref });
    }
  };
  const checked = pending.map((row) => ({ row, checked: checkFileRow(record, row) }));
  const products = checked.some(({ row }) => row.kind === 'products' || row.kind === 'orders') ? await existingProducts(ctx) : new Map<string, string>();
  const sourceIds = await repo.productIdsBySource(
    ctx.store,
    ctx.scope,
    record.source,
    checked
      .flatMap(({ checked: c }) =>
        c.ok && (c.row.kind === 'products' || c.row.kind === 'orders') ? [(c.row.kind === 'products' ? c.row.sourceId : c.row.productId) ?? ''] : [],
      )
      .filter(Boolean),
  );
  const subscriberEmails = checked.flatMap(({ checked: c }) => (c.ok && c.row.kind === 'subscribers' ? [c.row.email] : []));
  // The three lookups of a batch side by side (one round of BatchGetItem calls instead of three in
  // a row): the suppression list, the erasure list (buyers erased on request are not brought back
  // by an old export) and the addresses that already have a contact.
  const [suppressed, erased, held] = await Promise.all([
    subscriberEmails.length ? suppressedAmongMany(ctx, ctx.scope, subscriberEmails) : new Set<string>(),
    erasedAmong(
      ctx,
      ctx.scope,
      checked.flatMap(({ checked: c }) => (c.ok && 'email' in c.row && c.row.email ? [c.row.email] : [])),
    ),
    subscriberEmails.length ? (lookUpHeld ? contactIdsByEmail : contactIdsForClaims)(ctx, ctx.scope, subscriberEmails) : new Map<string, string>(),
  ]);
  const now = ctx.clock.now().toISOString();

  const one = async ({ row, checked: c }: (typeof checked)[number]) => {
    if (!c.ok) return done(row, [], 'failed', { reason: c.reason });
    const item = c.row;
    if ('email' in item && item.email && erased.has(item.email)) return done(row, [], 'skipped', { reason: ERASED_REASON });
    if (item.kind === 'products') {
      const existing = (item.sourceId && sourceIds.get(item.sourceId)) || products.get(item.name.toLowerCase());
      if (existing) return done(row, [], 'existing', { ref: existing });
      // The catalog writes the product and its event; a crash before the marker finds it by name on resume.
      const product = await createProduct(ctx, {
        name: item.name,
        price: item.price,
        ...(item.description ? { description: item.description.slice(0, 5000) } : {}),
      } as Parameters<typeof createProduct>[1]);
      const productId = product._id as string;
      products.set(item.name.toLowerCase(), productId);
      if (item.sourceId) sourceIds.set(item.sourceId, productId);
      const ops = item.sourceId ? [repo.productSourcePut(ctx.scope, record.source, item.sourceId, productId)] : [];
      if (!item.fileUrl) return done(row, ops, 'created', { ref: productId });
      const fetched = await fetchProductFile(item.fileUrl, ctx.account.plan);
      if (!fetched.ok) return done(row, ops, 'created', { ref: productId, reason: `fileNeeded: ${fetched.reason}` });
      // The product files capability keeps the bytes and the record; the row's marker rides with the record.
      const stored = await storeImportedFile(ctx, ctx.scope, productId, {
        body: fetched.body,
        filename: fetched.filename,
        contentType: fetched.contentType,
        sourceUrl: item.fileUrl,
      });
      const file = { blobKey: stored.file.blobKey, filename: fetched.filename, contentType: fetched.contentType, size: fetched.size, sourceUrl: item.fileUrl };
      return done(row, [...ops, stored.op], 'created', { ref: productId, file });
    }
    if (item.kind === 'customers') {
      return done(
        row,
        [
          repo.importedCustomerPut(ctx.scope, {
            email: item.email,
            name: item.name,
            country: item.country,
            source: record.source,
            importId: id,
            importedAt: now,
          }),
        ],
        'created',
        { ref: item.email },
      );
    }
    if (item.kind === 'orders') {
      const productId =
        (item.productId && sourceIds.get(item.productId)) || (item.productName ? products.get(item.productName.toLowerCase()) : undefined) || null;
      const order = {
        key: item.key,
        importId: id,
        source: record.source,
        orderId: item.orderId,
        email: item.email,
        productId,
        productName: item.productName,
        amountCents: item.amountCents,
        currency: item.currency,
        date: item.date,
        refunded: item.refunded,
        importedAt: now,
      };
      return done(row, [repo.importedOrderPut(ctx.scope, order)], 'created', { ref: item.key });
    }
    throw new Error(`rows of kind ${item.kind} go through importSubscribers`);
  };
  const productRows = checked.filter(({ row }) => row.kind === 'products');
  for (const entry of productRows) await one(entry);
  // Customers and orders: one small transaction per row (effect and marker), side by side.
  await eachLimited(
    checked.filter(({ row }) => row.kind === 'customers' || row.kind === 'orders'),
    ROW_CONCURRENCY,
    one,
  );
  const subscriberRows = checked.filter(({ row }) => row.kind === 'subscribers');
  if (subscriberRows.length) await importSubscribers(ctx, record, subscriberRows, { suppressed, erased, held }, states);
  return states;
}
