import { classifyIp } from './address';

export interface UrlPolicy {
  /** Local runtime only (WEBHOOK_ALLOW_LOOPBACK=1): http and https to 127.0.0.1, ::1, localhost. */
  allowLoopback: boolean;
}

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

const MAX_URL_LENGTH = 2048;
/** The development allowance is these three hosts exactly, not the whole of 127.0.0.0/8 or *.localhost. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** The addresses a loopback delivery may connect to (what `localhost` must resolve to). */
export const ALLOWED_LOOPBACK_ADDRESSES = new Set(['127.0.0.1', '::1']);
const LOCAL_NAME = /(^|\.)localhost\.?$/i;
// Names that only ever resolve inside a private network (mDNS, cloud-internal DNS).
const PRIVATE_SUFFIX = /\.(local|internal|home\.arpa|intranet|lan)\.?$/i;

/**
 * Whether a webhook may be sent to this URL, judged on its text alone (creation, update and each
 * redirect). A host name passes here and is checked again, address by address, at connect time.
 */
export function checkWebhookUrl(raw: string, policy: UrlPolicy): UrlVerdict {
  const verdict = judgeUrl(raw, policy);
  // A developer pointing an endpoint at their laptop learns how the local runtime allows it.
  if (!verdict.ok && !policy.allowLoopback && LOOPBACK_HOSTS.has(hostOf(raw))) {
    return {
      ok: false,
      reason: `${verdict.reason} (the local runtime delivers to http://127.0.0.1, [::1] and localhost when started with WEBHOOK_ALLOW_LOOPBACK=1)`,
    };
  }
  return verdict;
}

const hostOf = (raw: string) => {
  try {
    return new URL(raw).hostname.toLowerCase();
  } catch {
    return '';
  }
};

function judgeUrl(raw: string, policy: UrlPolicy): UrlVerdict {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `url is longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'url is not a valid absolute URL' };
  }
  if (url.username || url.password) return { ok: false, reason: 'url must not carry credentials' };
  // The URL parser has already turned 2130706433, 0x7f000001, 0177.0.0.1 and 127.1 into 127.0.0.1.
  const host = url.hostname;
  const ip = classifyIp(host);
  if (policy.allowLoopback && LOOPBACK_HOSTS.has(host.toLowerCase()) && (url.protocol === 'http:' || url.protocol === 'https:')) return { ok: true, url };
  if (url.protocol !== 'https:') return { ok: false, reason: 'url must use https' };
  if (ip && !ip.public) return { ok: false, reason: `url host ${ip.address} is a ${ip.reason}, not a public address` };
  if (!ip) {
    if (LOCAL_NAME.test(host)) return { ok: false, reason: `url host ${host} is a loopback name, not a public address` };
    if (!host.replace(/\.$/, '').includes('.')) return { ok: false, reason: `url host ${host} is not a fully qualified public name` };
    if (PRIVATE_SUFFIX.test(host)) return { ok: false, reason: `url host ${host} is a private-network name, not a public address` };
  }
  return { ok: true, url };
}
