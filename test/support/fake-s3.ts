import { createHash, createHmac } from 'node:crypto';
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
 * S3's object API on 127.0.0.1, path-style (`/<bucket>/<key>`): PUT, GET and DELETE of objects kept
 * in memory, and multipart uploads (create, parts, complete, abort; parts but the last ≥ 5 MiB), each request's SigV4 signature checked the way S3 checks it, from the bytes on the
 * wire, by an implementation of its own (node:crypto, the steps of AWS's signing documentation), so
 * an adapter is tested against the rules rather than against the signer it uses. A request whose
 * signature fails gets S3's 403 SignatureDoesNotMatch. `refuse` answers a request with a fault
 * instead (status and S3 error code; `hang` keeps it unanswered).
 */
export async function startFakeS3(credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }) {
  const objects = new Map<string, { body: Buffer; contentType: string; sse?: string; kmsKeyId?: string }>();
  const uploads = new Map<string, { key: string; contentType: string; sse?: string; kmsKeyId?: string; parts: Map<number, { body: Buffer; etag: string }> }>();
  const requests: FakeS3Request[] = [];
  const faults: ({ status: number; code: string } | 'hang')[] = [];
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    const check = verifySignature(request.method!, request.url!, headers, body, credentials);
    requests.push({ method: request.method!, path: decodeURIComponent(request.url!), headers, signedHeaders: check.signedHeaders, signatureValid: check.valid });
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
    // Multipart uploads: create, parts, complete (parts joined in the order listed), abort.
    if (request.method === 'POST' && url.searchParams.has('uploads')) {
      const id = `upload-${uploads.size + 1}-${Math.random().toString(16).slice(2)}`;
      uploads.set(id, { key, contentType: headers['content-type'] ?? 'binary/octet-stream', sse: headers['x-amz-server-side-encryption'], kmsKeyId: headers['x-amz-server-side-encryption-aws-kms-key-id'], parts: new Map() });
      response.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?><InitiateMultipartUploadResult><Bucket>b</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
      return;
    }
    if (uploadId) {
      const upload = uploads.get(uploadId);
      if (!upload || upload.key !== key) return error(404, 'NoSuchUpload', 'The specified upload does not exist.');
      if (request.method === 'PUT') {
        const partNumber = Number(url.searchParams.get('partNumber'));
        const etag = `"${createHash('md5').update(body).digest('hex')}"`;
        upload.parts.set(partNumber, { body, etag });
        response.writeHead(200, { etag }).end();
      } else if (request.method === 'POST') {
        const listed = [...body.toString('utf8').matchAll(/<PartNumber>(\d+)<\/PartNumber><ETag>([^<]+)<\/ETag>/g)].map((m) => ({ n: Number(m[1]), etag: m[2]!.replace(/&quot;/g, '"') }));
        const parts = listed.map((p) => upload.parts.get(p.n));
        if (!listed.length || parts.some((part, i) => !part || part.etag !== listed[i]!.etag)) return error(400, 'InvalidPart', 'A listed part was not uploaded or its ETag differs.');
        if (parts.slice(0, -1).some((part) => part!.body.length < 5 * 1024 * 1024)) return error(400, 'EntityTooSmall', 'A part but the last is smaller than 5 MiB.');
        objects.set(key, { body: Buffer.concat(parts.map((part) => part!.body)), contentType: upload.contentType, sse: upload.sse, kmsKeyId: upload.kmsKeyId });
        uploads.delete(uploadId);
        response.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUploadResult><Key>${key}</Key></CompleteMultipartUploadResult>`);
      } else if (request.method === 'DELETE') {
        uploads.delete(uploadId);
        response.writeHead(204).end();
      } else error(405, 'MethodNotAllowed', 'not supported by the fake');
      return;
    }
    if (request.method === 'PUT') {
      objects.set(key, { body, contentType: headers['content-type'] ?? 'binary/octet-stream', sse: headers['x-amz-server-side-encryption'], kmsKeyId: headers['x-amz-server-side-encryption-aws-kms-key-id'] });
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
): { valid: boolean; reason: string; signedHeaders: string[] } {
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(headers.authorization ?? '');
  if (!match) return { valid: false, reason: 'no SigV4 authorization header', signedHeaders: [] };
  const [, accessKeyId, day, region, signedList, signature] = match as unknown as string[];
  const signedHeaders = signedList!.split(';');
  const fail = (reason: string) => ({ valid: false, reason, signedHeaders });
  if (accessKeyId !== credentials.accessKeyId) return fail('unknown access key');
  for (const required of ['host', 'x-amz-date', 'x-amz-content-sha256']) if (!signedHeaders.includes(required)) return fail(`${required} is not signed`);
  if (credentials.sessionToken && (headers['x-amz-security-token'] !== credentials.sessionToken || !signedHeaders.includes('x-amz-security-token'))) return fail('session token missing or unsigned');
  const payloadHash = headers['x-amz-content-sha256']!;
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(body)) return fail('payload hash does not match the body');
  const url = new URL(rawUrl, 'http://x');
  const query = [...url.searchParams].map(([k, v]) => [encodeURIComponent(k), encodeURIComponent(v)]).sort().map(([k, v]) => `${k}=${v}`).join('&');
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
