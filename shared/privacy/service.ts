import type { Deps, OperationContext } from '../platform/context';
import { ApiError, conflict, notFound } from '../platform/errors';
import { objectId, randomBase62 } from '../platform/ids';
import { newEvent, outboxPut } from '../platform/events';
import { logger } from '../platform/logger';
import { erasedEmailPut, type PrivacyPart, type PrivacySubject } from '../platform/privacy';
import { onConditionFailed } from '../store/conditional';
import type { Scope } from '../store/keys';
import { ERASURE_QUEUE, EXPORT_LINK_MS, EXPORT_PREFIX, type ErasureRecord } from './records';
import { countRun, erasureCompleted, erasurePut, getErasure, getExportLink, markPartDone, noteFailure, putExportLink } from './repository';

const parts = (deps: Deps): PrivacyPart[] => deps.ports.privacy.parts;

async function subjectOf(deps: Deps, scope: Scope, customerId: string): Promise<PrivacySubject | undefined> {
  const owner = parts(deps).find((p) => p.subject);
  if (!owner) throw new Error('No privacy part resolves customers (a manifest must declare privacy.subject)');
  return owner.subject!(deps, scope, customerId);
}

/**
 * The export's JSON text, produced page by page: each part hands over one page of its records at a
 * time, and each page leaves as one chunk, so memory holds one page, never the whole export.
 */
export async function* exportChunks(deps: Deps, scope: Scope, subject: PrivacySubject, exportedAt: string): AsyncIterable<string> {
  yield `{"customerId":${JSON.stringify(subject.customerId)},"email":${JSON.stringify(subject.email)},"mode":${JSON.stringify(scope.mode)},"exportedAt":${JSON.stringify(exportedAt)},"parts":{`;
  let firstPart = true;
  for (const part of parts(deps).filter((p) => p.export)) {
    yield `${firstPart ? '' : ','}${JSON.stringify(part.name)}:[`;
    firstPart = false;
    let first = true;
    for await (const page of part.export!(deps, scope, subject)) {
      if (!page.length) continue;
      yield `${first ? '' : ','}${page.map((record) => JSON.stringify(record)).join(',')}`;
      first = false;
    }
    yield ']';
  }
  yield '}}';
}

export interface ExportAnswer {
  url: string;
  validUntil: string;
  bytes: number;
}

/**
 * A data-access request: the export is streamed into the blob store (S3 in AWS, as a multipart
 * upload of at most one part in memory), and the answer is a short-lived link to it. A Lambda answer
 * is capped at 6 MB and API Gateway's HTTP API does not stream, so a buyer with 10,000 orders could
 * not be answered inline; the link also lets the dashboard start a plain download.
 */
export async function exportCustomer(ctx: OperationContext, customerId: string, baseUrl: string): Promise<ExportAnswer> {
  const subject = await subjectOf(ctx, ctx.scope, customerId);
  if (!subject) {
    const erasure = await getErasure(ctx.store, ctx.scope, customerId);
    if (erasure) throw conflict('This customer was erased: nothing personal is held any more', 'CUSTOMER_ERASED');
    throw notFound('Customer');
  }
  const now = ctx.clock.now();
  const exportId = objectId(ctx.clock);
  const blobKey = `${EXPORT_PREFIX}/${ctx.scope.accountId}/${ctx.scope.mode}/${customerId}/${exportId}.json`;
  const { bytes } = await ctx.ports.blob.putStream(blobKey, exportChunks(ctx, ctx.scope, subject, now.toISOString()), 'application/json');
  const token = randomBase62(32);
  const validUntil = new Date(now.getTime() + EXPORT_LINK_MS).toISOString();
  await putExportLink(ctx.store, token, {
    accountId: ctx.scope.accountId,
    mode: ctx.scope.mode,
    customerId,
    blobKey,
    filename: `customer-${customerId}.json`,
    bytes,
    validUntil,
  });
  return { url: `${baseUrl}/customer-exports/${token}`, validUntil, bytes };
}

export type OpenedExport = { kind: 'redirect'; location: string } | { kind: 'bytes'; body: Uint8Array; filename: string };

/**
 * The export's download by its link: a redirect to a presigned S3 address in AWS (the bytes never
 * pass through a function), the bytes themselves locally. 404 for an unknown token, 410 once the
 * link stopped working.
 */
export async function openExport(deps: Deps, token: string): Promise<OpenedExport> {
  const link = await getExportLink(deps.store, token);
  if (!link) throw notFound('Export');
  if (link.validUntil <= deps.clock.now().toISOString())
    throw new ApiError(410, 'This export link has expired: export the customer again', { code: 'EXPORT_EXPIRED' });
  if (deps.ports.blob.signedGetUrl) {
    return {
      kind: 'redirect',
      location: await deps.ports.blob.signedGetUrl(link.blobKey, { expiresInSeconds: 300, filename: link.filename, contentType: 'application/json' }),
    };
  }
  const blob = await deps.ports.blob.get(link.blobKey);
  if (!blob) throw notFound('Export');
  return { kind: 'bytes', body: blob.body, filename: link.filename };
}

export interface ErasureAnswer {
  customerId: string;
  status: ErasureRecord['status'];
  done: string[];
  requestedAt: string;
  completedAt: string | null;
}

const answerOf = (erasure: ErasureRecord): ErasureAnswer => ({
  customerId: erasure.customerId,
  status: erasure.status,
  done: [...(erasure.done ?? [])].sort(),
  requestedAt: erasure.requestedAt,
  completedAt: erasure.completedAt ?? null,
});

const queueMessage = (scope: Scope, customerId: string) => ({ accountId: scope.accountId, mode: scope.mode, customerId });

/**
 * Starts (or resumes) the erasure of a customer. The erasure record and the email's place on the
 * do-not-recreate list are one transaction; the parts marked `immediate` (the customer record, the
 * contact) run here, so no list shows the buyer once this answers; the rest runs in the erasure
 * queue, part by part, each marked done as it finishes. A second request for a running erasure
 * sends it to the queue again (it resumes after the finished parts); for a finished one it is 409.
 */
export async function requestErasure(ctx: OperationContext, customerId: string): Promise<ErasureAnswer> {
  const existing = await getErasure(ctx.store, ctx.scope, customerId);
  if (existing?.status === 'completed') throw conflict('This customer was already erased', 'CUSTOMER_ERASED');
  if (existing) {
    await ctx.ports.queue.send(ERASURE_QUEUE, queueMessage(ctx.scope, customerId));
    return answerOf(existing);
  }
  const subject = await subjectOf(ctx, ctx.scope, customerId);
  if (!subject) throw notFound('Customer');
  for (const part of parts(ctx).filter((p) => p.check)) {
    const reason = await part.check!(ctx, ctx.scope, subject);
    if (reason) throw conflict(reason, 'ERASURE_BLOCKED', { part: part.name });
  }
  const now = ctx.clock.now().toISOString();
  const erasure: ErasureRecord = { _id: customerId, customerId, email: subject.email, status: 'running', requestedAt: now, runs: 0 };
  const started = await onConditionFailed(
    ctx.store.transact([erasurePut(ctx.scope, erasure), erasedEmailPut(ctx.scope, subject.email, now)]).then(() => true),
    () => false,
  );
  // A racing request created it first: answer as for a running one.
  if (!started) return requestErasure(ctx, customerId);
  const done = new Set<string>();
  for (const part of parts(ctx).filter((p) => p.immediate && p.erase)) {
    await part.erase!(ctx, ctx.scope, subject);
    await markPartDone(ctx.store, ctx.scope, customerId, part.name);
    done.add(part.name);
  }
  await ctx.ports.queue.send(ERASURE_QUEUE, queueMessage(ctx.scope, customerId));
  return answerOf({ ...erasure, done });
}

export async function getErasureStatus(ctx: OperationContext, customerId: string): Promise<ErasureAnswer> {
  const erasure = await getErasure(ctx.store, ctx.scope, customerId);
  if (!erasure) throw notFound('Erasure');
  return answerOf(erasure);
}

/**
 * The erasure queue's worker: every part not yet done, in the manifests' order, each marked done
 * as it finishes; then the record loses the email and `customer.erased` is written with it. A
 * failing part is noted on the record and the message goes back to the queue (then its DLQ), so
 * the erasure resumes where it stopped. Idempotent: a finished erasure is left as it is.
 */
export async function runErasure(deps: Deps, scope: Scope, customerId: string): Promise<void> {
  const erasure = await getErasure(deps.store, scope, customerId);
  if (!erasure || erasure.status === 'completed') return;
  if (!erasure.email) throw new Error(`Erasure ${customerId} is running without its email`);
  await countRun(deps.store, scope, customerId);
  const subject: PrivacySubject = { customerId, email: erasure.email };
  const done = new Set(erasure.done ?? []);
  for (const part of parts(deps).filter((p) => p.erase && !done.has(p.name))) {
    try {
      await part.erase!(deps, scope, subject);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logger.error('privacy erasure part failed', { part: part.name, customerId, error: message });
      await noteFailure(deps.store, scope, customerId, `${part.name}: ${message}`);
      throw error;
    }
    await markPartDone(deps.store, scope, customerId, part.name);
  }
  const at = deps.clock.now().toISOString();
  await onConditionFailed(
    deps.store.transact([erasureCompleted(scope, customerId, at), outboxPut(newEvent(scope, deps.clock, 'customer.erased', { customerId, erasedAt: at }))]),
    () => undefined,
  );
}
