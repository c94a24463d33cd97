import { extname } from 'node:path';
import type { Deps } from '../platform/context';
import type { Plan } from '../platform/plans';
import type { Scope } from '../store/keys';
import type { ProductFile } from './records';
import { getProductFile } from './repository';
import { checkPublicLink, downloadPublicFile } from '../webhooks/public-fetch';

/**
 * Product files named by a link in an export: fetched only from public https links through
 * webhook delivery's address guard, up to the plan's upload size, of deliverable types only.
 */

/** The largest product file an account's plan may upload (bytes). */
export const UPLOAD_BYTES: Record<Plan, number> = {
  free: 16 * 1024 * 1024,
  tier2: 64 * 1024 * 1024,
  tier3: 128 * 1024 * 1024,
  volume: 256 * 1024 * 1024,
};

/** What a buyer can be delivered: documents, books, media, archives, design files. Never programs or pages. */
export const DELIVERABLE: Record<string, string> = {
  '.pdf': 'application/pdf', '.epub': 'application/epub+zip', '.mobi': 'application/x-mobipocket-ebook', '.txt': 'text/plain', '.md': 'text/markdown',
  '.csv': 'text/csv', '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation', '.zip': 'application/zip', '.mp3': 'audio/mpeg', '.m4a': 'audio/mp4',
  '.wav': 'audio/wav', '.flac': 'audio/flac', '.mp4': 'video/mp4', '.mov': 'video/quicktime', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg',
  '.gif': 'image/gif', '.webp': 'image/webp', '.svg': 'image/svg+xml', '.psd': 'image/vnd.adobe.photoshop', '.ttf': 'font/ttf', '.otf': 'font/otf',
};

const BLOCKED_TYPES = /^(text\/html|application\/xhtml|application\/(x-)?(msdownload|msdos-program|executable|sh|x-sh|javascript)|application\/vnd\.microsoft\.portable-executable|text\/javascript)/i;

/** The type of a downloaded file, or why it is not deliverable. */
export function deliverableType(name: string, contentType: string | null): { ok: true; ext: string; contentType: string } | { ok: false; reason: string } {
  const ext = extname(name.split(/[?#]/)[0]!).toLowerCase();
  const type = contentType?.split(';')[0]!.trim().toLowerCase() ?? null;
  if (type && BLOCKED_TYPES.test(type)) return { ok: false, reason: `the link answered ${type}, not a deliverable file` };
  if (!ext || !DELIVERABLE[ext]) return { ok: false, reason: `"${ext || name}" is not a deliverable file type (${Object.keys(DELIVERABLE).join(' ')})` };
  return { ok: true, ext, contentType: DELIVERABLE[ext]! };
}

/** Judged on the link's text alone (dry run): why it will not be downloaded, or null. */
export const linkProblem = (url: string): string | null => {
  const verdict = checkPublicLink(url);
  return verdict.ok ? null : verdict.reason;
};

export type FetchedFile = { ok: true; body: Buffer; filename: string; contentType: string; size: number } | { ok: false; reason: string };

export async function fetchProductFile(url: string, plan: Plan, options: { timeoutMs?: number } = {}): Promise<FetchedFile> {
  const maxBytes = UPLOAD_BYTES[plan];
  const result = await downloadPublicFile({ url, maxBytes, timeoutMs: options.timeoutMs });
  if (!result.ok) return result;
  const name = result.filename ?? decodeURIComponent(new URL(result.finalUrl).pathname.split('/').pop() ?? '');
  const type = deliverableType(name, result.contentType);
  if (!type.ok) return type;
  return { ok: true, body: result.body, filename: name || `file${type.ext}`, contentType: type.contentType, size: result.body.length };
}

/** The file a buyer of the product is delivered (attached from an import's link), or undefined. */
export const productFileFor = (deps: Pick<Deps, 'store'>, scope: Scope, productId: string): Promise<ProductFile | undefined> => getProductFile(deps.store, scope, productId);
