import type { Account, Deps } from '../platform/context';
import { badRequest, conflict, notFound } from '../platform/errors';
import { objectId } from '../platform/ids';
import { BlobPartsError } from '../platform/ports';
import { isConditionFailed } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { ProductFileRecord, ProductFileUpload } from './records';
import * as repo from './repository';
import { blobKeyOf, checkUpload, MAX_FILES, presentFile, requireProduct } from './service';
import { partsFor } from './types';

/**
 * Files up to 2 GB, uploaded in parts straight to the blob store (S3 multipart with presigned part
 * URLs in AWS; the local runtime serves them locally), never through a function: the seller
 * declares the file, everything is checked before a byte moves (size against the plan, 413 naming
 * the limit; empty; type), then PUTs each part to its URL and completes with the parts' ETags.
 */

/** Part URLs work this long: a 2 GB file at 5 Mbit/s takes under an hour. */
export const PART_URL_SECONDS = 2 * 3600;
/** An upload not completed by then is forgotten (TTL); the bucket's lifecycle rule drops its parts. */
const UPLOAD_TTL_SECONDS = 24 * 3600;

type FilesCtx = Deps & { scope: Scope; account: Account };

/** POST /products/{id}/files/uploads: checks the declared file, starts the upload, answers the part URLs. */
export async function beginUpload(ctx: FilesCtx, productId: string, input: { name: string; size: number; contentType?: string }) {
  const product = await requireProduct(ctx, ctx.scope, productId);
  const name = input.name.trim().slice(-200);
  const type = checkUpload(ctx.account, product, { name, size: input.size, contentType: input.contentType }, { size: 'size', name: 'name' });
  const existing = await repo.filesOfProduct(ctx.store, ctx.scope, productId);
  if (existing.length >= MAX_FILES) throw conflict(`A product holds at most ${MAX_FILES} files; delete one first`, 'TOO_MANY_FILES');
  const id = objectId(ctx.clock);
  const blobKey = blobKeyOf(ctx.scope, productId, id);
  const { partSize, partCount } = partsFor(input.size);
  const storeUploadId = await ctx.ports.blob.multipart.create(blobKey, type.contentType);
  const now = ctx.clock.now();
  const upload: ProductFileUpload = {
    _id: id,
    productId,
    name,
    size: input.size,
    contentType: type.contentType,
    blobKey,
    storeUploadId,
    partSize,
    partCount,
    createdAt: now.toISOString(),
  };
  await repo.putUpload(ctx.store, ctx.scope, upload, Math.floor(now.getTime() / 1000) + UPLOAD_TTL_SECONDS);
  const numbers = Array.from({ length: partCount }, (_, i) => i + 1);
  const urls = await ctx.ports.blob.multipart.partUrls(blobKey, storeUploadId, numbers, PART_URL_SECONDS);
  return {
    uploadId: id,
    name,
    size: input.size,
    contentType: type.contentType,
    partSize,
    parts: numbers.map((partNumber, i) => ({ partNumber, url: urls[i]! })),
    expiresAt: new Date(now.getTime() + PART_URL_SECONDS * 1000).toISOString(),
  };
}

async function requireUpload(ctx: FilesCtx, productId: string, uploadId: string) {
  await requireProduct(ctx, ctx.scope, productId);
  const upload = /^[0-9a-f]{24}$/.test(uploadId) ? await repo.uploadOf(ctx.store, ctx.scope, productId, uploadId) : undefined;
  if (!upload) throw notFound('Upload');
  return upload;
}

/** Every part, numbered 1..partCount in order, each with the ETag its PUT answered. */
function checkParts(upload: ProductFileUpload, parts: { partNumber: number; etag: string }[]) {
  if (parts.length !== upload.partCount)
    throw badRequest(`parts: this upload has ${upload.partCount} part(s); ${parts.length} were sent`, { field: 'parts', code: 'PARTS_MISMATCH' });
  parts.forEach((part, i) => {
    if (part.partNumber !== i + 1)
      throw badRequest(`parts[${i}].partNumber: parts are listed in order, 1 to ${upload.partCount}`, {
        field: `parts[${i}].partNumber`,
        code: 'PARTS_MISMATCH',
      });
  });
}

/**
 * POST /products/{id}/files/uploads/{uploadId}/complete: joins the parts and attaches the file.
 * The joined object must be exactly the declared size (else it is dropped, 400); the record and the
 * end of the upload are one transaction, so two completions cannot both attach it.
 */
export async function completeUpload(ctx: FilesCtx, productId: string, uploadId: string, parts: { partNumber: number; etag: string }[]) {
  const upload = await requireUpload(ctx, productId, uploadId);
  checkParts(upload, parts);
  let size: number;
  try {
    ({ size } = await ctx.ports.blob.multipart.complete(upload.blobKey, upload.storeUploadId, parts));
  } catch (error) {
    if (error instanceof BlobPartsError)
      throw badRequest(`parts: ${error.message}; upload the part again to its URL and send the ETag it answers`, { field: 'parts', code: 'PARTS_INVALID' });
    throw error;
  }
  if (size !== upload.size) {
    await ctx.ports.blob.delete(upload.blobKey);
    await repo.deleteUpload(ctx.store, ctx.scope, productId, uploadId);
    throw badRequest(`parts: the parts add up to ${size} bytes, not the ${upload.size} declared; start the upload again`, {
      field: 'parts',
      code: 'SIZE_MISMATCH',
    });
  }
  if ((await repo.filesOfProduct(ctx.store, ctx.scope, productId)).length >= MAX_FILES) {
    await abortStored(ctx, upload);
    throw conflict(`A product holds at most ${MAX_FILES} files; delete one first`, 'TOO_MANY_FILES');
  }
  const file: ProductFileRecord = {
    _id: upload._id,
    productId,
    name: upload.name,
    size,
    contentType: upload.contentType,
    blobKey: upload.blobKey,
    source: 'upload',
    createdAt: ctx.clock.now().toISOString(),
  };
  try {
    await ctx.store.transact([repo.filePut(ctx.scope, file), repo.uploadDelete(ctx.scope, productId, uploadId)]);
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    // Another completion of the same upload attached it first.
    const attached = await repo.fileOfProduct(ctx.store, ctx.scope, productId, upload._id);
    if (attached) return presentFile(attached);
    throw notFound('Upload');
  }
  return presentFile(file);
}

/** DELETE /products/{id}/files/uploads/{uploadId}: drops an unfinished upload and its parts. */
export async function abortUpload(ctx: FilesCtx, productId: string, uploadId: string) {
  const upload = await requireUpload(ctx, productId, uploadId);
  await abortStored(ctx, upload);
  return { uploadId, aborted: true as const };
}

async function abortStored(ctx: FilesCtx, upload: ProductFileUpload) {
  await ctx.ports.blob.multipart.abort(upload.blobKey, upload.storeUploadId);
  await ctx.ports.blob.delete(upload.blobKey);
  await repo.deleteUpload(ctx.store, ctx.scope, upload.productId, upload._id);
}
