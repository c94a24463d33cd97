import type { Deps } from '../../platform/context';
import { badRequest, notFound } from '../../platform/errors';
import { objectId, randomBase62 } from '../../platform/ids';
import type { UploadedFile } from '../../platform/operation';
import type { Scope } from '../../store/keys';
import { failOnCondition } from '../../store/conditional';
import { IMAGE_TYPES, MAX_IMAGE_BYTES, isImageType, normalizeDeclaredType, sniffImageType } from './image-sniff';
import type { ImageRecord } from './records';
import type { UploadImageInput } from './schemas';
import { imageUrl } from './references';
import { findImageFile, imageDeleteOps, imagePutOps, loadImage, loadImages } from './repository';

const IMAGE_FIELD = 'image';

/** The public address of an image's bytes; the token in it is the only way to reach them. */

export const presentImage = (baseUrl: string, image: ImageRecord) => ({
  _id: image._id,
  url: imageUrl(baseUrl, image),
  contentType: image.contentType,
  size: image.size,
  filename: image.filename,
  createdAt: image.createdAt,
});

/** Checks the upload and answers the one image file in it, or a 400 naming what is wrong. */
export function acceptedImage(files: Record<string, UploadedFile[]>): { file: UploadedFile; contentType: string } {
  const other = Object.keys(files).find((name) => name !== IMAGE_FIELD);
  if (other !== undefined) throw badRequest(`Unexpected file field "${other}": send the image in the field named "${IMAGE_FIELD}"`, { field: other });
  const uploads = files[IMAGE_FIELD] ?? [];
  if (uploads.length === 0) throw badRequest(`${IMAGE_FIELD}: a file in the multipart field "${IMAGE_FIELD}" is required`, { field: IMAGE_FIELD });
  if (uploads.length > 1) throw badRequest(`${IMAGE_FIELD}: send one file per request`, { field: IMAGE_FIELD });
  const file = uploads[0]!;
  if (file.content.length === 0) throw badRequest(`${IMAGE_FIELD}: the file is empty`, { field: IMAGE_FIELD });
  if (file.content.length > MAX_IMAGE_BYTES) {
    throw badRequest(`${IMAGE_FIELD}: the file is ${file.content.length} bytes, more than the ${MAX_IMAGE_BYTES} allowed`, {
      field: IMAGE_FIELD,
      code: 'IMAGE_TOO_LARGE',
    });
  }
  const declared = normalizeDeclaredType(file.mimetype);
  if (!isImageType(declared)) {
    throw badRequest(`${IMAGE_FIELD}: content type ${declared || '(none)'} is not accepted; use ${IMAGE_TYPES.join(', ')}`, {
      field: IMAGE_FIELD,
      code: 'UNSUPPORTED_IMAGE_TYPE',
    });
  }
  const actual = sniffImageType(file.content);
  if (actual !== declared) {
    throw badRequest(`${IMAGE_FIELD}: the file's content is ${actual ?? 'not an accepted image'}, not ${declared}`, {
      field: IMAGE_FIELD,
      code: 'UNSUPPORTED_IMAGE_TYPE',
    });
  }
  return { file, contentType: actual };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what the filename must lose
const safeFilename = (name: string) => (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').slice(-200) || 'image';

/**
 * The upload's file: the multipart field, or the JSON form's base64 bytes (MCP tools send JSON).
 * Both then pass the same checks (acceptedImage).
 */
export function imageFiles(body: UploadImageInput | undefined, files: Record<string, UploadedFile[]>): Record<string, UploadedFile[]> {
  if (Object.keys(files).length || !body?.contentBase64) return files;
  if (!body.filename) throw badRequest('filename is required with contentBase64', { field: 'filename' });
  return { [IMAGE_FIELD]: [{ filename: body.filename, mimetype: body.contentType ?? '', content: Buffer.from(body.contentBase64, 'base64') }] };
}

export async function uploadImage(deps: Deps, scope: Scope, files: Record<string, UploadedFile[]>): Promise<ImageRecord> {
  const { file, contentType } = acceptedImage(files);
  const id = objectId(deps.clock);
  const image: ImageRecord = {
    _id: id,
    fileToken: randomBase62(32),
    blobKey: `tenants/${scope.accountId}/${scope.mode}/images/${id}`,
    contentType,
    size: file.content.length,
    filename: safeFilename(file.filename),
    testMode: scope.mode === 'test',
    createdAt: deps.clock.now().toISOString(),
  };
  // Bytes first: a record must never point at a file that is not there.
  await deps.ports.blob.put(image.blobKey, file.content, contentType);
  try {
    await deps.store.transact(imagePutOps(scope, image));
  } catch (error) {
    await deps.ports.blob.delete(image.blobKey).catch(() => undefined);
    throw error;
  }
  return image;
}

export const listImages = (deps: Deps, scope: Scope) => loadImages(deps.store, scope);

export async function deleteImage(deps: Deps, scope: Scope, id: string): Promise<void> {
  const image = await loadImage(deps.store, scope, id);
  if (!image) throw notFound('Image');
  await failOnCondition(deps.store.transact(imageDeleteOps(scope, image)), () => notFound('Image'));
  await deps.ports.blob.delete(image.blobKey);
}

/** The bytes behind a public image address; 404 for any token that is not a live image's. */
export async function readImageFile(deps: Deps, token: string): Promise<{ body: Uint8Array; contentType: string }> {
  const file = await findImageFile(deps.store, token);
  const blob = file ? await deps.ports.blob.get(file.blobKey) : undefined;
  if (!file || !blob) throw notFound('Image');
  return { body: blob.body, contentType: file.contentType };
}

export { imageUrl, imageUrlById } from './references';
