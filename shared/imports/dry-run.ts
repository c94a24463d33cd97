import { contactIdsByEmail } from '../audience/bulk';
import { suppressedAmong } from '../audience/suppression';
import { listProductViews } from '../catalog/service';
import { getAccount } from '../platform/accounts';
import type { Deps } from '../platform/context';
import type { Scope } from '../store/keys';
import { KINDS } from './platforms';
import { linkProblem, UPLOAD_BYTES } from './product-files';
import * as repo from './repository';
import { mappingProblems, type OrderRow, type ProductRow, type SubscriberRow } from './rules';

import { IMPORT_QUEUE } from './sweep';
import { type ImportsCtx, conditionally, requireImport, requireStored } from './service';
import { checkFileRow } from './row-states';

export async function existingProducts(ctx: ImportsCtx) {
  const products = await listProductViews(ctx);
  return new Map(products.map((product) => [product.name.trim().toLowerCase(), product._id as string]));
}

/**
 * The dry run. An import of up to IMPORT_DRY_RUN_INLINE_ROWS rows is computed in the request
 * (200, the spec's answer). A larger one reads too many rows and addresses for a request (50,000
 * subscriber rows: ~50 s on DynamoDB Local), so it answers 202 `{ status: 'computing' }` and a
 * queue worker computes it onto the import (`dryRun`, polled on `GET /migrations/{id}`).
 */
export async function requestDryRun(ctx: ImportsCtx, id: string): Promise<{ status: 200 | 202; body: unknown }> {
  const record = await requireImport(ctx, ctx.scope, id);
  requireStored(record, KINDS, 'the dry run');
  const rows = KINDS.reduce((sum, kind) => sum + (record.files[kind]?.rowCount ?? 0), 0);
  if (rows <= ctx.config.IMPORT_DRY_RUN_INLINE_ROWS) return { status: 200, body: await dryRun(ctx, id) };
  const requestedAt = ctx.clock.now().toISOString();
  await repo.updateImport(ctx.store, ctx.scope, id, { set: { dryRun: null, dryRunRequestedAt: requestedAt } });
  await ctx.ports.queue.send(IMPORT_QUEUE, { scope: ctx.scope, importId: id, dryRun: requestedAt });
  return { status: 202, body: { _id: id, status: 'computing', requestedAt, rows, poll: `/migrations/${id}` } };
}

/** The dry-run worker: computes a requested dry run onto the import, unless a file changed since. */
export async function dryRunInBackground(deps: Deps, scope: Scope, id: string, requestedAt: string): Promise<void> {
  const record = await repo.getImport(deps.store, scope, id);
  if (!record || record.dryRunRequestedAt !== requestedAt) return;
  const account = await getAccount(deps.store, scope.accountId);
  if (!account) return;
  await dryRun({ ...deps, scope, account }, id, requestedAt);
}

export async function dryRun(ctx: ImportsCtx, id: string, requestedAt?: string) {
  const record = await requireImport(ctx, ctx.scope, id);
  requireStored(record, KINDS, 'the dry run');
  const products = await existingProducts(ctx);
  const kinds = {
    products: { total: 0, invalid: 0, skipped: 0, create: 0, existing: 0, filesToDownload: 0, fileNeeded: 0 },
    orders: { total: 0, invalid: 0, skipped: 0, create: 0, alreadyImported: 0, newCustomers: 0, refunded: 0 },
    subscribers: { total: 0, invalid: 0, noConsent: 0, create: 0, active: 0, unsubscribed: 0, existing: 0, suppressed: 0, overLimit: 0, activeNow: 0 },
    customers: { total: 0, invalid: 0, create: 0, existing: 0 },
  };
  const notes: string[] = [];
  const newProductNames = new Set<string>();
  const orderEmails = new Set<string>();
  for (const kind of KINDS) {
    const file = record.files[kind];
    if (!file) continue;
    const problems = mappingProblems(kind, file.mapping, file.header);
    if (problems.length) notes.push(`${kind}: ${problems.join('; ')}`);
    for await (const rows of repo.eachRow(ctx.store, ctx.scope, id, kind)) {
      const checked = rows.map((row) => checkFileRow(record, row));
      const valid = checked.flatMap((c) => (c.ok ? [c.row] : []));
      const invalid = checked.length - valid.length;
      if (kind === 'products') {
        const k = kinds.products;
        k.total += rows.length;
        k.invalid += invalid;
        for (const row of valid as ProductRow[]) {
          const name = row.name.toLowerCase();
          if (products.has(name) || newProductNames.has(name)) k.existing++;
          else {
            newProductNames.add(name);
            k.create++;
            if (row.fileUrl) linkProblem(row.fileUrl) ? k.fileNeeded++ : k.filesToDownload++;
          }
        }
      } else if (kind === 'customers') {
        const k = kinds.customers;
        k.total += rows.length;
        k.invalid += invalid;
        const emails = (valid as { email: string }[]).map((row) => row.email);
        const known = await repo.importedCustomersAmong(ctx.store, ctx.scope, emails);
        for (const email of emails) known.has(email) ? k.existing++ : k.create++;
      } else if (kind === 'orders') {
        const k = kinds.orders;
        k.total += rows.length;
        k.invalid += invalid;
        const orders = valid as OrderRow[];
        const done = await repo.importedOrdersAmong(
          ctx.store,
          ctx.scope,
          orders.map((order) => order.key),
        );
        const seen = new Set<string>();
        for (const order of orders) {
          if (done.has(order.key)) k.alreadyImported++;
          else if (seen.has(order.key)) k.skipped++;
          else {
            seen.add(order.key);
            k.create++;
            if (order.refunded) k.refunded++;
            orderEmails.add(order.email);
          }
        }
      } else {
        const k = kinds.subscribers;
        k.total += rows.length;
        k.invalid += invalid;
        const subscribers = valid as SubscriberRow[];
        const [suppressed, known] = await Promise.all([
          suppressedAmong(
            ctx,
            ctx.scope,
            subscribers.map((row) => row.email),
          ),
          contactIdsByEmail(
            ctx,
            ctx.scope,
            subscribers.map((row) => row.email),
          ),
        ]);
        for (const row of subscribers) {
          if (!row.status) k.noConsent++;
          else if (suppressed.has(row.email)) k.suppressed++;
          else if (known.has(row.email)) k.existing++;
          else {
            k.create++;
            if (row.status === 'subscribed') k.active++;
            else k.unsubscribed++;
          }
        }
        k.activeNow = k.active;
      }
    }
  }
  const known = await repo.importedCustomersAmong(ctx.store, ctx.scope, [...orderEmails]);
  kinds.orders.newCustomers = [...orderEmails].filter((email) => !known.has(email)).length;
  if (kinds.products.filesToDownload)
    notes.push(
      `${kinds.products.filesToDownload} product file(s) will be downloaded from their links (public https only, up to ${Math.floor(UPLOAD_BYTES[ctx.account.plan] / (1024 * 1024))} MB, deliverable types); a link that fails marks its product fileNeeded`,
    );
  if (kinds.products.fileNeeded)
    notes.push(`${kinds.products.fileNeeded} product file link(s) are refused (not public https); those products are created fileNeeded`);
  if (!Object.keys(record.files).length) notes.push('Add at least one file');
  notes.push('Nobody is emailed by an import; purchase history is kept as imported records and never counts as sales.');
  const result = {
    computedAt: ctx.clock.now().toISOString(),
    canStart:
      Object.keys(record.files).length > 0 &&
      !KINDS.some((kind) => record.files[kind] && mappingProblems(kind, record.files[kind]!.mapping, record.files[kind]!.header).length) &&
      record.status !== 'running' &&
      record.status !== 'completed',
    subscriberLimit: null,
    kinds,
    notes,
  };
  // A background dry run lands only if no file or mapping changed since it was asked for.
  const unchanged = requestedAt ? { expression: 'dryRunRequestedAt = :requested', values: { ':requested': requestedAt } } : undefined;
  await conditionally(repo.updateImport(ctx.store, ctx.scope, id, { set: { dryRun: result, dryRunRequestedAt: null } }, unchanged));
  return result;
}
