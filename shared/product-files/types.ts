import { extname } from 'node:path';
import type { Plan } from '../platform/plans';

/**
 * What a product file may be: deliverable types (documents, books, media, archives, design files),
 * plus the extensions a seller allows on the product (software installers, say). Pure rules.
 */

/**
 * The largest file an import fetches into a function's memory per plan (bytes): imports read the
 * export's link whole, so they keep to what a function holds.
 */
export const UPLOAD_BYTES: Record<Plan, number> = {
  free: 16 * 1024 * 1024,
  tier2: 64 * 1024 * 1024,
  tier3: 128 * 1024 * 1024,
  volume: 256 * 1024 * 1024,
};

const MB = 1024 * 1024;
/** The largest product file a seller uploads per plan (bytes): in parts, straight to the blob store, up to 2 GB. */
export const FILE_BYTES: Record<Plan, number> = {
  free: 16 * MB,
  tier2: 512 * MB,
  tier3: 1024 * MB,
  volume: 2048 * MB,
};

/**
 * Files up to this size may go through the API (multipart form or base64 JSON). A Lambda request
 * is capped at 6 MB and API Gateway base64-encodes binary bodies (4/3 larger): 4 MB stays under
 * both. Larger files upload in parts (POST /products/{id}/files/uploads).
 */
export const API_FILE_BYTES = 4 * MB;

/** Parts of a multipart upload: 8 MiB (S3 wants at least 5 MiB but the last), at most 10,000 of them. */
export const PART_BYTES = 8 * MB;
export const MAX_PARTS = 10_000;

/** How a file of `size` bytes is cut into parts. */
export function partsFor(size: number): { partSize: number; partCount: number } {
  const partSize = Math.max(PART_BYTES, Math.ceil(size / MAX_PARTS / MB) * MB);
  return { partSize, partCount: Math.max(1, Math.ceil(size / partSize)) };
}

/** What a buyer can be delivered without the seller allowing more. Never programs or pages. */
export const DELIVERABLE: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.epub': 'application/epub+zip',
  '.mobi': 'application/x-mobipocket-ebook',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.zip': 'application/zip',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.wav': 'audio/wav',
  '.flac': 'audio/flac',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.psd': 'image/vnd.adobe.photoshop',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
};

const BLOCKED_TYPES =
  /^(text\/html|application\/xhtml|application\/(x-)?(msdownload|msdos-program|executable|sh|x-sh|javascript)|application\/vnd\.microsoft\.portable-executable|text\/javascript)/i;

/** A media type a seller declares that no product file may claim (pages, scripts, programs). */
export const isBlockedType = (contentType: string) => BLOCKED_TYPES.test(contentType.split(';')[0]!.trim());

export type TypeVerdict = { ok: true; ext: string; contentType: string } | { ok: false; reason: string };

const extOf = (name: string) => extname(name.split(/[?#]/)[0]!).toLowerCase();

/** The type of a file fetched from a link (imports): refused when the link answered a page or a program. */
export function deliverableType(name: string, contentType: string | null): TypeVerdict {
  const ext = extOf(name);
  const type = contentType ? contentType.split(';')[0]!.trim().toLowerCase() : null;
  if (type && BLOCKED_TYPES.test(type)) return { ok: false, reason: `the link answered ${type}, not a deliverable file` };
  if (!ext || !DELIVERABLE[ext]) return { ok: false, reason: `"${ext || name}" is not a deliverable file type (${Object.keys(DELIVERABLE).join(' ')})` };
  return { ok: true, ext, contentType: DELIVERABLE[ext]! };
}

/**
 * The type of a file a seller uploads: a deliverable extension, or one the seller allowed on the
 * product (served as a download, `application/octet-stream` unless known). Downloads are always
 * served as attachments with nosniff, so an allowed type is never rendered by our origin.
 */
export function uploadType(name: string, allowed: readonly string[] = []): TypeVerdict {
  const ext = extOf(name);
  if (ext && DELIVERABLE[ext]) return { ok: true, ext, contentType: DELIVERABLE[ext]! };
  if (ext && allowed.includes(ext)) return { ok: true, ext, contentType: 'application/octet-stream' };
  return {
    ok: false,
    reason: `${ext ? `"${ext}" files are` : 'A file without an extension is'} not allowed on this product: deliverable types are ${Object.keys(DELIVERABLE).join(' ')}; allow more with the product's allowedFileTypes`,
  };
}

/** A size as people read it. */
export const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 * 1024
    ? `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GB`
    : bytes >= 1024 * 1024
      ? `${Math.round(bytes / 1024 / 1024)} MB`
      : `${Math.max(1, Math.round(bytes / 1024))} KB`;
