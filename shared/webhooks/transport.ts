import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { classifyIp } from './address';
import { ALLOWED_LOOPBACK_ADDRESSES, checkWebhookUrl, type UrlPolicy } from './url-policy';

export const ATTEMPT_TIMEOUT_MS = 5000;
export const MAX_REDIRECTS = 3;
const EXCERPT_BYTES = 2048;
const MAX_READ_BYTES = 64 * 1024;

/**
 * success: 2xx. retry: 5xx, 429 or the endpoint was never reached. fail: anything else (4xx, a
 * 3xx other than 307/308, too many redirects, a refused address). timeout: no answer in 5 s,
 * which the spec says is not retried.
 */
export type AttemptOutcome = 'success' | 'retry' | 'fail' | 'timeout';

export interface AttemptResult {
  outcome: AttemptOutcome;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseBodyExcerpt: string | null;
  /** The URL that gave the final answer (after 307/308 redirects). */
  finalUrl: string;
  redirects: number;
}

export class BlockedAddressError extends Error {
  readonly code = 'EADDRBLOCKED';
}
class AttemptTimeoutError extends Error {
  readonly code = 'EATTEMPTTIMEOUT';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Resolves once and refuses the connection when any resolved address is not public, then hands
 * the checked addresses to the socket, which dials exactly those: no second resolution, so no
 * DNS-rebinding window. The Host header and TLS server name stay the original host name.
 */
/** The system resolver's shape (dns.lookup with `all: true`); replaceable to test the guard. */
export type Resolver = (
  hostname: string,
  options: { all: true; family: number; hints?: number },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolver: Resolver = (hostname, options, callback) => dnsLookup(hostname, options, callback);

export function guardedLookup(policy: UrlPolicy, resolver: Resolver = systemResolver) {
  return (hostname: string, options: { family?: number | string; all?: boolean; hints?: number }, callback: LookupCallback) => {
    const family = typeof options.family === 'number' ? options.family : options.family === 'IPv6' ? 6 : options.family === 'IPv4' ? 4 : 0;
    resolver(hostname, { all: true, family, hints: options.hints }, (error, addresses) => {
      if (error) return callback(error, '');
      if (!addresses.length) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      for (const entry of addresses) {
        const verdict = classifyIp(entry.address);
        const loopbackAllowed = policy.allowLoopback && ALLOWED_LOOPBACK_ADDRESSES.has(entry.address);
        if (!verdict || (!verdict.public && !loopbackAllowed)) {
          const reason = verdict && !verdict.public ? verdict.reason : 'unrecognised address';
          return callback(new BlockedAddressError(`${hostname} resolves to ${entry.address}, a ${reason}; refused`) as NodeJS.ErrnoException, '');
        }
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

interface HopAnswer {
  statusCode: number;
  location?: string;
  excerpt: string;
}

/**
 * Connections kept open between attempts to the same receiver (host and port): a new TCP (and
 * TLS) handshake per delivery cost more than the request. A kept socket was dialled through
 * `guardedLookup`, so it is connected to an address that passed the check; a redirect to another
 * host opens its own. One pool per policy, so a socket opened under the loopback allowance is
 * never lent to a request made without it. Idle sockets close after 4 s, under the 5 s a Node
 * server keeps an idle connection, so a request is rarely written to a socket the server is
 * closing; when it is (ECONNRESET on a reused socket), the hop is sent once more on a new one.
 */
const MAX_SOCKETS_PER_RECEIVER = 32;
const agents = new Map<string, HttpAgent>();
function agentFor(protocol: string, policy: UrlPolicy): HttpAgent {
  const key = `${protocol}|${policy.allowLoopback ? 'loopback' : 'public'}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = {
      keepAlive: true,
      maxSockets: MAX_SOCKETS_PER_RECEIVER,
      maxFreeSockets: MAX_SOCKETS_PER_RECEIVER,
      timeout: 4000,
      scheduling: 'lifo' as const,
    };
    agent = protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    agents.set(key, agent);
  }
  return agent;
}

async function postOnce(
  url: URL,
  body: string,
  headers: Record<string, string>,
  policy: UrlPolicy,
  deadline: { signal: AbortSignal },
  resolver?: Resolver,
): Promise<HopAnswer> {
  // An injected resolver (tests of the guard) always dials anew: a pooled socket skips the lookup.
  const pooled = !resolver;
  try {
    return await postOn(pooled ? agentFor(url.protocol, policy) : false, url, body, headers, policy, deadline, resolver);
  } catch (error) {
    const code = errorCode(error);
    if (!pooled || !(error as { reusedSocket?: boolean }).reusedSocket || (code !== 'ECONNRESET' && code !== 'EPIPE') || deadline.signal.aborted) throw error;
    return postOn(false, url, body, headers, policy, deadline, resolver);
  }
}

function postOn(
  agent: HttpAgent | false,
  url: URL,
  body: string,
  headers: Record<string, string>,
  policy: UrlPolicy,
  deadline: { signal: AbortSignal },
  resolver?: Resolver,
): Promise<HopAnswer> {
  return new Promise((resolve, reject) => {
    const options: RequestOptions = {
      method: 'POST',
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)), 'User-Agent': 'Service-Webhooks/1.0' },
      lookup: guardedLookup(policy, resolver) as unknown as RequestOptions['lookup'],
      agent,
      signal: deadline.signal,
    };
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(options, (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (size < EXCERPT_BYTES) chunks.push(chunk);
        size += chunk.length;
        // The answer's content does not matter past the excerpt; stop reading a flood.
        if (size > MAX_READ_BYTES) response.destroy();
      });
      const finish = () => {
        if (deadline.signal.aborted) return reject(deadline.signal.reason);
        resolve({
          statusCode: response.statusCode ?? 0,
          location: typeof response.headers.location === 'string' ? response.headers.location : undefined,
          excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'),
        });
      };
      response.on('end', finish);
      response.on('close', finish);
      response.on('error', finish);
    });
    request.on('error', (error) => reject(Object.assign(error, { reusedSocket: request.reusedSocket })));
    request.end(body);
  });
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException)?.code;

/**
 * One delivery attempt: POST the exact body with its signed headers, follow up to 3 redirects
 * of status 307/308 (each target re-checked like the endpoint itself), within 5 seconds in all.
 * `nowMs` reads the clock port, so durations come from the same clock as everything else.
 */
export async function attemptDelivery(input: {
  url: string;
  body: string;
  headers: Record<string, string>;
  policy: UrlPolicy;
  nowMs: () => number;
  timeoutMs?: number;
  resolver?: Resolver;
}): Promise<AttemptResult> {
  const started = input.nowMs();
  const timeoutMs = input.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new AttemptTimeoutError(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
  let current = input.url;
  let redirects = 0;
  const done = (partial: Omit<AttemptResult, 'durationMs' | 'finalUrl' | 'redirects'>): AttemptResult => ({
    ...partial,
    durationMs: Math.max(0, input.nowMs() - started),
    finalUrl: current,
    redirects,
  });
  try {
    for (;;) {
      const verdict = checkWebhookUrl(current, input.policy);
      if (!verdict.ok)
        return done({
          outcome: 'fail',
          statusCode: null,
          error: redirects ? `redirect refused: ${verdict.reason}` : verdict.reason,
          responseBodyExcerpt: null,
        });
      let answer: HopAnswer;
      try {
        answer = await postOnce(verdict.url, input.body, input.headers, input.policy, { signal: controller.signal }, input.resolver);
      } catch (error) {
        if (controller.signal.aborted)
          return done({ outcome: 'timeout', statusCode: null, error: `timed out: no answer within ${timeoutMs / 1000} s`, responseBodyExcerpt: null });
        if (error instanceof BlockedAddressError) return done({ outcome: 'fail', statusCode: null, error: error.message, responseBodyExcerpt: null });
        const code = errorCode(error);
        return done({
          outcome: 'retry',
          statusCode: null,
          error: `connection failed${code ? ` (${code})` : ''}: ${(error as Error).message}`,
          responseBodyExcerpt: null,
        });
      }
      const { statusCode, excerpt } = answer;
      if (statusCode === 307 || statusCode === 308) {
        if (!answer.location)
          return done({ outcome: 'fail', statusCode, error: `redirect ${statusCode} without a Location header`, responseBodyExcerpt: excerpt });
        if (redirects >= MAX_REDIRECTS)
          return done({ outcome: 'fail', statusCode, error: `more than ${MAX_REDIRECTS} redirects`, responseBodyExcerpt: excerpt });
        redirects++;
        try {
          current = new URL(answer.location, current).toString();
        } catch {
          return done({ outcome: 'fail', statusCode, error: 'redirect to an invalid URL', responseBodyExcerpt: excerpt });
        }
        continue;
      }
      if (statusCode >= 200 && statusCode < 300) return done({ outcome: 'success', statusCode, error: null, responseBodyExcerpt: excerpt });
      if (statusCode >= 500 || statusCode === 429)
        return done({ outcome: 'retry', statusCode, error: `endpoint answered ${statusCode}`, responseBodyExcerpt: excerpt });
      if (statusCode >= 300 && statusCode < 400)
        return done({ outcome: 'fail', statusCode, error: `redirect ${statusCode} is not followed (only 307 and 308 are)`, responseBodyExcerpt: excerpt });
      return done({ outcome: 'fail', statusCode, error: `endpoint answered ${statusCode}`, responseBodyExcerpt: excerpt });
    }
  } finally {
    clearTimeout(timer);
  }
}
