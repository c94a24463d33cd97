import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockedAddressError, guardedLookup, type Resolver } from './transport';
import { checkWebhookUrl, type UrlPolicy } from './url-policy';

/**
 * Downloads a file from a public link with webhook delivery's address guard: the URL is judged
 * like a webhook endpoint (https, no private or loopback host), every address the name resolves
 * to is checked at connect time (no DNS rebinding), and each redirect target is judged again.
 * Other capabilities (imports' product files) use this, never the transport directly.
 */
export type DownloadResult = { ok: true; body: Buffer; contentType: string | null; filename: string | null; finalUrl: string } | { ok: false; reason: string };

export interface DownloadOptions {
  url: string;
  maxBytes: number;
  timeoutMs?: number;
  /** Production never allows loopback; tests of the happy path pass it with a loopback server. */
  policy?: UrlPolicy;
  resolver?: Resolver;
  maxRedirects?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

interface Hop {
  status: number;
  location?: string;
  body?: Buffer;
  contentType: string | null;
  disposition: string | null;
  tooLarge?: boolean;
}

function getOnce(url: URL, policy: UrlPolicy, maxBytes: number, signal: AbortSignal, resolver?: Resolver): Promise<Hop> {
  return new Promise((resolve, reject) => {
    const options: RequestOptions = {
      method: 'GET',
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      headers: { 'User-Agent': 'Service-Imports/1.0', accept: '*/*' },
      lookup: guardedLookup(policy, resolver) as unknown as RequestOptions['lookup'],
      agent: false,
      signal,
    };
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(options, (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const contentType = typeof res.headers['content-type'] === 'string' ? res.headers['content-type'] : null;
      const disposition = typeof res.headers['content-disposition'] === 'string' ? res.headers['content-disposition'] : null;
      if (REDIRECTS.has(status) || status < 200 || status >= 300) {
        res.resume();
        return resolve({ status, location: typeof res.headers.location === 'string' ? res.headers.location : undefined, contentType, disposition });
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        res.destroy();
        return resolve({ status, contentType, disposition, tooLarge: true });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          res.destroy();
          return resolve({ status, contentType, disposition, tooLarge: true });
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status, body: Buffer.concat(chunks), contentType, disposition }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const filenameOf = (disposition: string | null): string | null => {
  if (!disposition) return null;
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star) return decodeURIComponent(star[1]!.trim().replace(/^"|"$/g, ''));
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
};

/** Whether a link may be fetched at all, judged on its text (the webhook URL rules, without the webhook-only hint). */
export function checkPublicLink(raw: string, policy: UrlPolicy = { allowLoopback: false }) {
  const verdict = checkWebhookUrl(raw, policy);
  return verdict.ok ? verdict : { ok: false as const, reason: verdict.reason.replace(/ \(the local runtime delivers to .*\)$/, '') };
}

export async function downloadPublicFile(options: DownloadOptions): Promise<DownloadResult> {
  const policy = options.policy ?? { allowLoopback: false };
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxRedirects = options.maxRedirects ?? 3;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let current = options.url;
  try {
    for (let redirects = 0; ; redirects++) {
      const verdict = checkPublicLink(current, policy);
      if (!verdict.ok) return { ok: false, reason: redirects ? `redirect refused: ${verdict.reason}` : verdict.reason };
      let hop: Hop;
      try {
        hop = await getOnce(verdict.url, policy, options.maxBytes, controller.signal, options.resolver);
      } catch (error) {
        if (controller.signal.aborted) return { ok: false, reason: `no complete answer within ${timeoutMs / 1000} s` };
        if (error instanceof BlockedAddressError) return { ok: false, reason: error.message };
        return { ok: false, reason: `could not download: ${(error as Error).message}` };
      }
      if (REDIRECTS.has(hop.status)) {
        if (!hop.location) return { ok: false, reason: `redirect ${hop.status} without a Location header` };
        if (redirects >= maxRedirects) return { ok: false, reason: `more than ${maxRedirects} redirects` };
        try {
          current = new URL(hop.location, current).toString();
        } catch {
          return { ok: false, reason: 'redirect to an invalid URL' };
        }
        continue;
      }
      if (hop.tooLarge)
        return {
          ok: false,
          reason: `the file is larger than ${options.maxBytes >= 1024 * 1024 ? `${Math.floor(options.maxBytes / (1024 * 1024))} MB` : `${options.maxBytes} bytes`}`,
        };
      if (hop.status < 200 || hop.status >= 300) return { ok: false, reason: `the link answered ${hop.status}` };
      return { ok: true, body: hop.body!, contentType: hop.contentType, filename: filenameOf(hop.disposition), finalUrl: current };
    }
  } finally {
    clearTimeout(timer);
  }
}
