import { LambdaClient } from '@aws-sdk/client-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { LambdaRender } from '../../shared/adapters/aws/render';
import { inProcessRender, renderFunction } from '../../shared/composition/render';
import { buildMailTemplate } from '../../shared/email/mail-builder';
import { sanitizePostHtml } from '../../shared/memberships/posts/sanitiser';
import { ApiError } from '../../shared/platform/errors';
import { startRecordingEndpoint, type JsonAnswer, type RecordedRequest } from '../support/recording-endpoint';

const content = {
  subject: 'Hello',
  html: '<style>p { color: #c00 }</style><p>Hi <a href="https://example.com/a">there</a><script>x()</script></p>',
  text: null,
  preview: 'Preview',
};
const footer = { physicalAddress: '1 Main St', footerText: 'Thanks' };
const INVOKE_PATH = '/2015-03-31/functions/creator-commerce-test-render/invocations';

let endpoint: Awaited<ReturnType<typeof startRecordingEndpoint>> | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

/** The adapter with the SDK's Lambda client, against a recording endpoint answering as Lambda's Invoke API. */
async function lambdaRender(answer: (request: RecordedRequest) => JsonAnswer) {
  endpoint = await startRecordingEndpoint(answer, ['x-amz-invocation-type']);
  const client = new LambdaClient({
    region: 'us-east-1',
    endpoint: endpoint.endpoint,
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
    maxAttempts: 1,
  });
  return { render: new LambdaRender(client, 'creator-commerce-test-render'), requests: endpoint.requests };
}

describe('the render port in AWS (LambdaRender)', () => {
  it("invokes the render function with the mail's content and footer only, and answers what it rendered", async () => {
    const answers: unknown[] = [];
    const { render, requests } = await lambdaRender(() => ({ body: answers.shift() }));
    const expected = buildMailTemplate(content, footer, { track: false });
    answers.push(expected);
    const message = { ...content, to: ['ann@example.com'], fromName: 'Shop', source: 'api' };
    expect(await render.mailTemplate(message, { ...footer, extra: 'x' } as typeof footer, { track: false })).toEqual(expected);
    answers.push('<p>clean</p>');
    expect(await render.sanitizePost('<p onclick="x()">clean</p>')).toBe('<p>clean</p>');
    expect(requests.map(({ method, path, body }) => ({ method, path, body: JSON.parse(body) }))).toEqual([
      { method: 'POST', path: INVOKE_PATH, body: { op: 'mailTemplate', content, footer, options: { track: false } } },
      { method: 'POST', path: INVOKE_PATH, body: { op: 'sanitizePost', html: '<p onclick="x()">clean</p>' } },
    ]);
    // Waited for: RequestResponse is Lambda's default invocation type, so the header is not sent.
    expect(requests.every((r) => !r.headers!['x-amz-invocation-type'] || r.headers!['x-amz-invocation-type'] === 'RequestResponse')).toBe(true);
  });

  it('renders through the function exactly as in process: the JSON round trip changes nothing', async () => {
    // The endpoint answers synchronously: each answer is the function's, computed before the call.
    const answers: unknown[] = [];
    const { render } = await lambdaRender(() => ({ body: answers.shift() }));
    for (const [c, options] of [
      [content, undefined],
      [{ subject: 'Text', text: 'Line one\n\nhttps://example.com {{u}}' }, { track: true }],
    ] as const) {
      answers.push(await renderFunction({ op: 'mailTemplate', content: c, footer, options }));
      expect(await render.mailTemplate(c, footer, options)).toEqual(await inProcessRender.mailTemplate(c, footer, options));
    }
  });

  it('answers 502 RENDER_FAILED when the function threw, and 502 RENDER_UNAVAILABLE when Lambda refused the invoke', async () => {
    let answer: JsonAnswer = { headers: { 'x-amz-function-error': 'Unhandled' }, body: { errorType: 'Error', errorMessage: 'boom' } };
    const { render, requests } = await lambdaRender(() => answer);
    const failed = await render.sanitizePost('<p>x</p>').catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ApiError);
    expect(failed).toMatchObject({ status: 502, code: 'RENDER_FAILED' });
    answer = {
      status: 429,
      errorType: 'TooManyRequestsException',
      body: { message: 'Rate exceeded', Reason: 'ReservedFunctionConcurrentInvocationLimitExceeded' },
    };
    const refused = await render.mailTemplate(content, footer).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 502, code: 'RENDER_UNAVAILABLE' });
    expect(requests).toHaveLength(2);
  });
});

describe('the render function', () => {
  it('answers each request as the renderer does', async () => {
    expect(await renderFunction({ op: 'mailTemplate', content, footer })).toEqual(buildMailTemplate(content, footer));
    expect(await renderFunction({ op: 'mailTemplate', content, footer, options: { track: false } })).toEqual(
      buildMailTemplate(content, footer, { track: false }),
    );
    expect(await renderFunction({ op: 'sanitizePost', html: content.html })).toBe(sanitizePostHtml(content.html));
  });

  it('refuses a request of another shape, saying why', async () => {
    await expect(renderFunction(null as never)).rejects.toThrow('A render request is an object');
    await expect(renderFunction({ op: 'drawPicture' } as never)).rejects.toThrow('Unknown render request: drawPicture');
    await expect(renderFunction({ op: 'mailTemplate', content: { html: '<p>x</p>' }, footer } as never)).rejects.toThrow(
      'mailTemplate needs content with a subject',
    );
    await expect(renderFunction({ op: 'mailTemplate', content, footer: {} } as never)).rejects.toThrow('mailTemplate needs a footer with a physicalAddress');
    await expect(renderFunction({ op: 'sanitizePost' } as never)).rejects.toThrow('sanitizePost needs html');
  });
});
