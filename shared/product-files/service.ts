import { lookupProduct } from '../catalog/service';
import type { Account, Deps } from '../platform/context';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../platform/errors';
import { objectId } from '../platform/ids';
import type { UploadedFile } from '../platform/operation';
import type { Scope } from '../store/keys';
import type { TransactOp } from '../store/store';
import type { ProductFileRecord } from './records';
import * as repo from './repository';
import { API_FILE_BYTES, FILE_BYTES, isBlockedType, sizeText, uploadType } from './types';

/** At most this many files per product (the list is read whole on every order view). */
export const MAX_FILES = 20;

type FilesCtx = Deps & { scope: Scope; account: Account };

export const presentFile = (file: ProductFileRecord) => ({
  _id: file._id,
  name: file.name,
  size: file.size,
  contentType: file.contentType,
  createdAt: file.createdAt,
});

export const blobKeyOf = (scope: Scope, productId: string, fileId: string) => `products/${scope.accountId}/${scope.mode}/${productId}/files/${fileId}`;

/** A product of the caller's scope that is not deleted; any other (another account's) is the same 404. */
export async function requireProduct(deps: Pick<Deps, 'store'>, scope: Scope, productId: string) {
  const product = await lookupProduct(deps, scope, productId);
  if (!product || product.deletedAt) throw notFound('Product');
  return product;
}

/** The largest file the account's plan may hold. */
export const maxFileBytes = (account: Pick<Account, 'plan'>) => FILE_BYTES[account.plan] ?? FILE_BYTES.free;

const tooLarge = (size: number, max: number) =>
  new ApiError(413, `The file is ${sizeText(size)}; files are at most ${sizeText(max)} on your plan`, { code: 'FILE_TOO_LARGE', details: { maxBytes: max } });

/**
 * Checks a file before any byte is stored: the declared size against the plan (413 naming the
 * limit), empty files, and the type (deliverable or allowed on the product; a declared media type
 * of a page or a program is refused whatever the extension says).
 */
export function checkUpload(
  account: Pick<Account, 'plan'>,
  product: { allowedFileTypes?: string[] },
  file: { name: string; size: number; contentType?: string },
  fields = { size: 'file', name: 'file' },
) {
  const max = maxFileBytes(account);
  if (file.size > max) throw tooLarge(file.size, max);
  if (file.size === 0) throw badRequest(`${fields.size}: the file is empty`, { field: fields.size });
  const type = uploadType(file.name, product.allowedFileTypes);
  if (!type.ok) throw badRequest(`${fields.name}: ${type.reason}`, { field: fields.name, code: 'FILE_TYPE_NOT_ALLOWED' });
  if (file.contentType && isBlockedType(file.contentType))
    throw badRequest(`contentType: ${file.contentType.split(';')[0]} is a page or a program, not a file a buyer downloads`, {
      field: 'contentType',
      code: 'FILE_TYPE_NOT_ALLOWED',
    });
  return type;
}

/** The API takes files up to API_FILE_BYTES; larger ones within the plan upload in parts. */
function checkApiSize(account: Pick<Account, 'plan'>, size: number) {
  const max = maxFileBytes(account);
  if (size > max) throw tooLarge(size, max);
  if (size > API_FILE_BYTES)
    throw new ApiError(413, `The file is ${sizeText(size)}; files over ${sizeText(API_FILE_BYTES)} upload in parts (POST /products/{id}/files/uploads)`, {
      code: 'FILE_TOO_LARGE_FOR_FORM',
      details: { maxBytes: API_FILE_BYTES },
    });
}

/** POST /products/{id}/files: stores the bytes, then the record (a record never points at missing bytes). */
export async function addProductFile(ctx: FilesCtx, productId: string, upload: UploadedFile | undefined, declaredLength?: number) {
  const product = await requireProduct(ctx, ctx.scope, productId);
  // Refused before the body is read when even the base64 form of the largest file the API takes
  // (4/3 larger, with the form's own fields) could not be this long.
  if (declaredLength !== undefined && declaredLength > (API_FILE_BYTES * 4) / 3 + 64 * 1024) checkApiSize(ctx.account, declaredLength);
  if (!upload) throw badRequest('file: send the file as multipart/form-data in the field "file"', { field: 'file' });
  const name = upload.filename.trim().slice(-200) || 'file';
  checkApiSize(ctx.account, upload.content.length);
  const type = checkUpload(ctx.account, product, { name, size: upload.content.length });
  const existing = await repo.filesOfProduct(ctx.store, ctx.scope, productId);
  if (existing.length >= MAX_FILES) throw conflict(`A product holds at most ${MAX_FILES} files; delete one first`, 'TOO_MANY_FILES');
  const id = objectId(ctx.clock);
  const file: ProductFileRecord = {
    _id: id,
    productId,
    name,
    size: upload.content.length,
    contentType: type.contentType,
    blobKey: blobKeyOf(ctx.scope, productId, id),
    source: 'upload',
    createdAt: ctx.clock.now().toISOString(),
  };
  await ctx.ports.blob.put(file.blobKey, upload.content, file.contentType);
  await ctx.store.transact([repo.filePut(ctx.scope, file)]);
  return presentFile(file);
}

export async function listProductFiles(ctx: FilesCtx, productId: string) {
  await requireProduct(ctx, ctx.scope, productId);
  return (await repo.filesOfProduct(ctx.store, ctx.scope, productId)).map(presentFile);
}

/** Removes the file and its bytes: links already handed out stop working (404). */
export async function deleteProductFile(ctx: FilesCtx, productId: string, fileId: string) {
  await requireProduct(ctx, ctx.scope, productId);
  const removed = await repo.deleteFile(ctx.store, ctx.scope, productId, fileId);
  if (!removed) throw notFound('File');
  await ctx.ports.blob.delete(removed.blobKey);
  return { _id: fileId, deleted: true as const };
}

/**
 * For imports: stores a file fetched from an export's link and answers the write that attaches it
 * to the product, for the import's own row transaction.
 */
export async function storeImportedFile(
  deps: Pick<Deps, 'ports' | 'clock'>,
  scope: Scope,
  productId: string,
  fetched: { body: Uint8Array; filename: string; contentType: string; sourceUrl: string },
): Promise<{ file: ProductFileRecord; op: TransactOp }> {
  const id = objectId(deps.clock);
  const file: ProductFileRecord = {
    _id: id,
    productId,
    name: fetched.filename,
    size: fetched.body.length,
    contentType: fetched.contentType,
    blobKey: blobKeyOf(scope, productId, id),
    source: 'import',
    sourceUrl: fetched.sourceUrl,
    createdAt: deps.clock.now().toISOString(),
  };
  await deps.ports.blob.put(file.blobKey, fetched.body, file.contentType);
  return { file, op: repo.filePut(scope, file) };
}

export type OpenedDownload = { kind: 'bytes'; body: Uint8Array; contentType: string; filename: string } | { kind: 'redirect'; location: string };

/**
 * A signed download: the token must exist and still be valid, the order's access must stand and
 * its limit not be reached (counted in one conditional write). Every mismatch answers the same
 * 404, so a token says nothing about other files or accounts; an expired link answers 410, a
 * refunded order or a reached limit 403 with the reason.
 */
export async function openDownload(deps: Pick<Deps, 'store' | 'clock' | 'ports'>, tokenText: string): Promise<OpenedDownload> {
  const token = /^[0-9A-Za-z]{40}$/.test(tokenText) ? await repo.tokenOf(deps.store, tokenText) : undefined;
  if (!token?.fileId) throw notFound('Download');
  if (Date.parse(token.validUntil) <= deps.clock.now().getTime())
    throw new ApiError(410, 'This download link has expired; open the download page from your receipt again for a fresh one', { code: 'DOWNLOAD_EXPIRED' });
  const file = await repo.fileOfProduct(deps.store, token.scope, token.productId, token.fileId);
  if (!file) throw notFound('Download');
  if (!(await repo.countDownload(deps.store, token.scope, token.orderId, token.limit))) {
    const grant = await repo.grantOf(deps.store, token.scope, token.orderId);
    if (grant?.revokedAt) throw forbidden(`Access to these files ended: the order was ${grant.revokedReason ?? 'refunded'}`, { code: 'ACCESS_REVOKED' });
    throw forbidden(`This order has used all ${token.limit} of its downloads; contact the seller for more`, { code: 'DOWNLOAD_LIMIT_REACHED' });
  }
  if (deps.ports.blob.signedGetUrl) {
    return {
      kind: 'redirect',
      location: await deps.ports.blob.signedGetUrl(file.blobKey, { expiresInSeconds: 300, filename: file.name, contentType: file.contentType }),
    };
  }
  const blob = await deps.ports.blob.get(file.blobKey);
  if (!blob) throw notFound('Download');
  return { kind: 'bytes', body: blob.body, contentType: file.contentType, filename: file.name };
}
