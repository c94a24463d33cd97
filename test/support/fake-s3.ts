import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake answered, with whether its signature held. */
export interface FakeS3Request {
  method: string;
  path: string;
  headers: Record<string, string>;
  signedHeaders: string[];
  signatureValid: boolean;
}

/**
 * S3's object API on 127.0.0.1, path-style (`/<bucket>/<key>`): PUT, GET, HEAD and DELETE of objects
 * kept in memory, and multipart uploads (create, UploadPart, complete with S3's part rules, abort), each request's SigV4 signature checked the way S3 checks it, from the bytes on the
 * wire, by an implementation of its own (node:crypto, the steps of AWS's signing documentation), so
 * an adapter is tested against the rules rather than against the signer it uses. A request whose
 * signature fails gets S3's 403 SignatureDoesNotMatch. `refuse` answers a request with a fault
 * instead (status and S3 error code; `hang` keeps it unanswered).
 */
export async function startFakeS3(credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }) {
  const objects = new Map<string, { body: Buffer; contentType: string; sse?: string; kmsKeyId?: string }>();
  const requests: FakeS3Request[] = [];
  const faults: ({ status: number; code: string } | 'hang')[] = [];
  const uploads = new Map<string, { key: string; contentType: string; sse?: string; kmsKeyId?: string; parts: Map<number, { body: Buffer; etag: string }> }>();
  const completeFails: boolean[] = [];
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    const check = verifySignature(request.method!, request.url!, headers, body, credentials);
    requests.push({
      method: request.method!,
      path: decodeURIComponent(request.url!),
      headers,
      signedHeaders: check.signedHeaders,
      signatureValid: check.valid,
    });
    const fault = faults.shift();
    if (fault === 'hang') return; // never answered: the client's timeout ends it
    const error = (status: number, code: string, message: string) => {
      response.writeHead(status, { 'content-type': 'application/xml' });
      response.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
    };
    if (fault) return error(fault.status, fault.code, 'refused by the test');
    if (!check.valid) return error(403, 'SignatureDoesNotMatch', check.reason);
    const url = new URL(request.url!, 'http://x');
    const key = decodeURIComponent(url.pathname.slice(1));
    const uploadId = url.searchParams.get('uploadId');
    const xml = (status: number, text: string, extra: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/xml', ...extra });
      response.end(`<?xml version="1.0" encoding="UTF-8"?>${text}`);
    };
    if (request.method === 'POST' && url.searchParams.has('uploads')) {
      const id = randomBytes(24).toString('base64url');
      uploads.set(id, {
        key,
        contentType: headers['content-type'] ?? 'binary/octet-stream',
        sse: headers['x-amz-server-side-encryption'],
        kmsKeyId: headers['x-amz-server-side-encryption-aws-kms-key-id'],
        parts: new Map(),
      });
      return xml(200, `<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
    }
    if (uploadId !== null) {
      const upload = uploads.get(uploadId);
      if (!upload || upload.key !== key) return error(404, 'NoSuchUpload', 'The specified upload does not exist.');
      if (request.method === 'PUT') {
        const etag = `"${createHash('md5').update(body).digest('hex')}"`;
        upload.parts.set(Number(url.searchParams.get('partNumber')), { body, etag });
        response.writeHead(200, { etag }).end();
        return;
      }
      if (request.method === 'DELETE') {
        uploads.delete(uploadId);
        response.writeHead(204).end();
        return;
      }
      if (request.method === 'POST') {
        const field = (part: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(part)?.[1] ?? '';
        const named = [...body.toString('utf8').matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((m) => ({
          partNumber: Number(field(m[1]!, 'PartNumber')),
          etag: field(m[1]!, 'ETag').replace(/&quot;/g, '"'),
        }));
        if (!named.length) return error(400, 'MalformedXML', 'The XML you provided was not well-formed.');
        const bodies: Buffer[] = [];
        for (const [i, part] of named.entries()) {
          const stored = upload.parts.get(part.partNumber);
          if (i > 0 && part.partNumber <= named[i - 1]!.partNumber) return error(400, 'InvalidPartOrder', 'The list of parts was not in ascending order.');
          if (!stored || stored.etag !== part.etag) return error(400, 'InvalidPart', 'One or more of the specified parts could not be found.');
          if (i < named.length - 1 && stored.body.length < 5 * 1024 * 1024)
            return error(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.');
          bodies.push(stored.body);
        }
        objects.set(key, { body: Buffer.concat(bodies), contentType: upload.contentType, sse: upload.sse, kmsKeyId: upload.kmsKeyId });
        uploads.delete(uploadId);
        // S3 answers 200 at once and may still report a failure in the body; `completeFails` plays that.
        if (completeFails.shift()) return xml(200, '<Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>');
        return xml(200, `<CompleteMultipartUploadResult><Key>${key}</Key><ETag>"x-${named.length}"</ETag></CompleteMultipartUploadResult>`);
      }
    }
    if (request.method === 'HEAD') {
      const object = objects.get(key);
      if (!object) return error(404, 'NotFound', '');
      response.writeHead(200, { 'content-type': object.contentType, 'content-length': object.body.length }).end();
      return;
    }
    if (request.method === 'PUT') {
      objects.set(key, {
        body,
        contentType: headers['content-type'] ?? 'binary/octet-stream',
        sse: headers['x-amz-server-side-encryption'],
        kmsKeyId: headers['x-amz-server-side-encryption-aws-kms-key-id'],
      });
      response.writeHead(200, { etag: '"e"' }).end();
    } else if (request.method === 'GET') {
      const object = objects.get(key);
      if (!object) return error(404, 'NoSuchKey', 'The specified key does not exist.');
      response.writeHead(200, { 'content-type': object.contentType, 'content-length': object.body.length }).end(object.body);
    } else if (request.method === 'DELETE') {
      objects.delete(key);
      response.writeHead(204).end();
    } else error(405, 'MethodNotAllowed', 'not supported by the fake');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    objects,
    uploads,
    completeFails,
    requests,
    faults,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())).then(() => undefined),
    server,
  };
}

const readBody = (request: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** SigV4 as S3 verifies it: the canonical request from the path as received (S3 does not escape it again). */
export function verifySignature(
  method: string,
  rawUrl: string,
  headers: Record<string, string>,
  body: Buffer,
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string },
  now = Date.now(),
): { valid: boolean; reason: string; signedHeaders: string[] } {
  const url = new URL(rawUrl, 'http://x');
  if (url.searchParams.has('X-Amz-Signature')) return verifyPresigned(method, url, headers, credentials, now);
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
    headers.authorization ?? '',
  );
  if (!match) return { valid: false, reason: 'no SigV4 authorization header', signedHeaders: [] };
  const [, accessKeyId, day, region, signedList, signature] = match as unknown as string[];
  const signedHeaders = signedList!.split(';');
  const fail = (reason: string) => ({ valid: false, reason, signedHeaders });
  if (accessKeyId !== credentials.accessKeyId) return fail('unknown access key');
  for (const required of ['host', 'x-amz-date', 'x-amz-content-sha256']) if (!signedHeaders.includes(required)) return fail(`${required} is not signed`);
  if (credentials.sessionToken && (headers['x-amz-security-token'] !== credentials.sessionToken || !signedHeaders.includes('x-amz-security-token')))
    return fail('session token missing or unsigned');
  const payloadHash = headers['x-amz-content-sha256']!;
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(body)) return fail('payload hash does not match the body');
  const query = canonicalQuery(url, false);
  const canonical = [
    method,
    url.pathname,
    query,
    signedHeaders.map((name) => `${name}:${(headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join(''),
    signedList,
    payloadHash,
  ].join('\n');
  const amzDate = headers['x-amz-date']!;
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day!), region!), 's3'), 'aws4_request');
  return createHmac('sha256', key).update(toSign).digest('hex') === signature ? { valid: true, reason: '', signedHeaders } : fail('signature does not match');
}

const rfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The canonical query string: every parameter (but the signature of a presigned one) encoded and sorted. */
function canonicalQuery(url: URL, presigned: boolean): string {
  return [...url.searchParams]
    .filter(([k]) => !(presigned && k === 'X-Amz-Signature'))
    .map(([k, v]) => [rfc3986(k), rfc3986(v)])
    .sort(([a, x], [b, y]) => (a! < b! ? -1 : a! > b! ? 1 : x! < y! ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** A presigned request (query signing, as a browser sends a part): the signature and its expiry. */
function verifyPresigned(
  method: string,
  url: URL,
  headers: Record<string, string>,
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string },
  now: number,
) {
  const q = (name: string) => url.searchParams.get(name) ?? '';
  const signedList = q('X-Amz-SignedHeaders');
  const signedHeaders = signedList.split(';');
  const fail = (reason: string) => ({ valid: false, reason, signedHeaders });
  const credential = /^([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request$/.exec(q('X-Amz-Credential'));
  if (q('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256' || !credential) return fail('malformed presigned query');
  const [, accessKeyId, day, region] = credential as unknown as string[];
  if (accessKeyId !== credentials.accessKeyId) return fail('unknown access key');
  if (!signedHeaders.includes('host')) return fail('host is not signed');
  if (credentials.sessionToken && q('X-Amz-Security-Token') !== credentials.sessionToken) return fail('session token missing');
  const amzDate = q('X-Amz-Date');
  const signedAt = Date.parse(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  );
  if (!(signedAt + Number(q('X-Amz-Expires')) * 1000 > now)) return fail('Request has expired');
  const canonical = [
    method,
    url.pathname,
    canonicalQuery(url, true),
    signedHeaders.map((name) => `${name}:${(headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join(''),
    signedList,
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const toSign = ['AWS4-HMAC-SHA256', amzDate, `${day}/${region}/s3/aws4_request`, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day!), region!), 's3'), 'aws4_request');
  return createHmac('sha256', key).update(toSign).digest('hex') === q('X-Amz-Signature')
    ? { valid: true, reason: '', signedHeaders }
    : fail('signature does not match');
}
