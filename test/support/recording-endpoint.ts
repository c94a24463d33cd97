import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What identifies one request a client sent: everything but its signature, date and ids (and
 * only the headers asked for). The idempotency tokens a client generates (UUIDs, e.g. Scheduler's
 * ClientToken) read `<uuid>`.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The AWS JSON protocol's operation (`x-amz-target`). */
  target?: string;
  contentType?: string;
  body: string;
  headers?: Record<string, string | undefined>;
}

/** An answer: a status, a JSON body and, for an AWS error, its type (the `x-amzn-ErrorType` header); other headers as given. */
export interface JsonAnswer {
  status?: number;
  body?: unknown;
  errorType?: string;
  headers?: Record<string, string>;
}

const withoutUuids = (text: string) => text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/**
 * A JSON endpoint on 127.0.0.1 (AWS's JSON and REST-JSON protocols: KMS, SQS, EventBridge, SESv2,
 * Scheduler, Lambda; Google's OAuth and Sheets APIs) that records each request, with the `headers` named,
 * and answers it with `answer`, so two builds of the same client can be shown to send the same
 * requests and read the same answers.
 */
export async function startRecordingEndpoint(answer: (request: RecordedRequest) => JsonAnswer, headers: string[] = []) {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    void read(req).then((body) => {
      const header = (name: string) => (req.headers[name] as string | undefined) ?? undefined;
      const request: RecordedRequest = {
        method: req.method!,
        path: withoutUuids(req.url!),
        target: header('x-amz-target'),
        contentType: header('content-type'),
        body: withoutUuids(body),
      };
      if (headers.length) request.headers = Object.fromEntries(headers.map((name) => [name, header(name)]));
      requests.push(request);
      const reply = answer(request);
      res.writeHead(reply.status ?? 200, {
        'content-type': 'application/json',
        ...(reply.errorType ? { 'x-amzn-errortype': reply.errorType } : {}),
        ...reply.headers,
      });
      res.end(JSON.stringify(reply.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
