import type { Plan } from '../platform/plans';
import { deliverableType, UPLOAD_BYTES } from '../product-files/types';
import { checkPublicLink, downloadPublicFile } from '../webhooks/public-fetch';

/**
 * Product files named by a link in an export: fetched only from public https links through
 * webhook delivery's address guard, up to the plan's upload size, of deliverable types only.
 */

export { UPLOAD_BYTES, DELIVERABLE, deliverableType } from '../product-files/types';

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
