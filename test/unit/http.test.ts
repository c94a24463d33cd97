import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from '../../shared/platform/zod';
import { ApiError, featureLocked, tooManyRequests } from '../../shared/platform/errors';
import { decodeFormFields } from '../../shared/platform/http/form-fields';
import { parseMultipart } from '../../shared/platform/http/multipart';
import { readInput, requestInfo } from '../../shared/platform/http/request';
import { renderError, renderReply } from '../../shared/platform/http/render';
import { defineOperation, type AnyOperation } from '../../shared/platform/operation';
import { parseOrThrow } from '../../shared/platform/http/validation';

describe('validation', () => {
  const schema = z.object({
    name: z.string().check(z.minLength(1)),
    price: z.number().check(z.nonnegative()),
    nested: z.optional(z.object({ code: z.string() })),
  });

  it('names the failing field and the reason', () => {
    try {
      parseOrThrow(schema, { name: 'x', price: -1 }, 'body');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(400);
      expect((error as ApiError).field).toBe('price');
      expect((error as ApiError).message).toMatch(/^price: /);
    }
    expect(() => parseOrThrow(schema, { name: 'x', price: 1, nested: {} }, 'body')).toThrow(/nested\.code/);
  });

  it('passes valid input through parsed', () => {
    expect(parseOrThrow(schema, { name: 'x', price: 2 }, 'body')).toEqual({ name: 'x', price: 2 });
  });
});

describe('rendering', () => {
  it('shows code, field and details of a 4xx', () => {
    const result = renderError(featureLocked('tier3'), 'req-1');
    expect(result.statusCode).toBe(403);
    expect(JSON.parse(result.body!)).toEqual({
      error: 'This feature needs the tier3 plan or higher',
      message: 'This feature needs the tier3 plan or higher',
      code: 'FEATURE_LOCKED',
      details: { requiredPlan: 'tier3' },
    });
  });

  it('adds Retry-After to a 429', () => {
    const result = renderError(tooManyRequests(12), 'req-1');
    expect(result.statusCode).toBe(429);
    expect(result.headers?.['retry-after']).toBe('12');
  });

  it('never shows internals of a 5xx', () => {
    const result = renderError(new Error('connect ECONNREFUSED 10.0.0.1:5432 password=hunter2'), 'req-9');
    expect(result.statusCode).toBe(500);
    expect(result.body).not.toMatch(/ECONNREFUSED|hunter2/);
    expect(JSON.parse(result.body!)).toEqual({ error: 'Internal error', message: 'Internal error', requestId: 'req-9' });
  });

  it('sends raw replies as they are and bytes as base64', () => {
    expect(renderReply({ kind: 'reply', status: 200, body: '<p>x</p>', raw: true, headers: { 'content-type': 'text/html' } }, 'r').body).toBe('<p>x</p>');
    const bytes = renderReply({ kind: 'reply', status: 200, body: new Uint8Array([1, 2, 3]), raw: true }, 'r');
    expect(bytes).toMatchObject({ isBase64Encoded: true, body: 'AQID' });
    expect(renderReply({ kind: 'reply', status: 204, body: undefined }, 'r').body).toBe('');
  });
});

describe('form fields', () => {
  it('decodes numbers, booleans and JSON objects, and keeps other text', () => {
    expect(decodeFormFields({ price: '9.5', trialPeriod: '7', active: 'true', usagePricing: '{"seats":{"enabled":true}}', name: 'Gold 1' })).toEqual({
      price: 9.5,
      trialPeriod: 7,
      active: true,
      usagePricing: { seats: { enabled: true } },
      name: 'Gold 1',
    });
  });
});

describe('multipart bodies', () => {
  const multipartBody = '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nGold\r\n--b--\r\n';
  const event = (body: string, contentType: string) =>
    ({
      body,
      isBase64Encoded: false,
      pathParameters: {},
      queryStringParameters: {},
      headers: { 'content-type': contentType },
      requestContext: { requestId: 'r', http: { method: 'POST', sourceIp: '127.0.0.1' }, domainName: 'x' },
      rawPath: '/x',
    }) as unknown as APIGatewayProxyEventV2;
  const read = (operation: AnyOperation, body: string, contentType: string) => {
    const e = event(body, contentType);
    return readInput(operation, e, requestInfo(e));
  };
  const handler = async () => ({});

  it('are parsed by the parser the operation names', async () => {
    const operation = defineOperation({
      operationId: 'up',
      summary: 'x',
      method: 'POST',
      path: '/x',
      auth: 'public',
      bodyType: 'json-or-multipart',
      multipart: parseMultipart,
      handler,
    });
    expect((await read(operation, multipartBody, 'multipart/form-data; boundary=b')).body).toEqual({ name: 'Gold' });
  });

  it('are refused with the types the operation takes when it names no parser', async () => {
    const form = defineOperation({ operationId: 'form', summary: 'x', method: 'POST', path: '/x', auth: 'public', bodyType: 'json-or-form', handler });
    await expect(read(form, multipartBody, 'multipart/form-data; boundary=b')).rejects.toThrow(
      'This endpoint takes application/json or application/x-www-form-urlencoded, not multipart/form-data',
    );
    expect((await read(form, 'name=Gold', 'application/x-www-form-urlencoded')).body).toEqual({ name: 'Gold' });
    const json = defineOperation({ operationId: 'json', summary: 'x', method: 'POST', path: '/x', auth: 'public', handler });
    await expect(read(json, multipartBody, 'multipart/form-data; boundary=b')).rejects.toMatchObject({
      status: 400,
      message: 'This endpoint takes application/json, not multipart/form-data',
    });
  });

  it('cannot be declared without a parser', () => {
    expect(() => defineOperation({ operationId: 'up', summary: 'x', method: 'POST', path: '/x', auth: 'public', bodyType: 'multipart', handler })).toThrow(
      /needs its multipart parser/,
    );
  });
});
