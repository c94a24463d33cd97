import { InvokeCommand, type InvokeCommandOutput, LambdaClient } from '@aws-sdk/client-lambda';
import { badGateway } from '../../platform/errors';
import { logger } from '../../platform/logger';
import type { InvoiceDocument } from '../../platform/invoice-document';
import type { MailContent, MailFooter, MailTemplate, RenderPort } from '../../platform/ports';
import { lazily, required, type AwsPortEnv } from './env';

/** What the render function is asked (shared/composition/render.ts answers it). */
export type RenderRequest =
  | { op: 'mailTemplate'; content: MailContent; footer: MailFooter; options?: { track?: boolean } }
  | { op: 'sanitizePost'; html: string }
  | { op: 'invoicePdf'; document: InvoiceDocument };

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * The render port in AWS: the render function, invoked and waited for (RequestResponse). A call
 * that fails (the invoke refused or throttled past the SDK's retries, or the function threw) is a
 * 502 to say "retry later": an API request answers it and changes nothing, a worker's message or
 * event is retried. The payload travels as JSON; Lambda takes up to 6 MB each way.
 */
export class LambdaRender implements RenderPort {
  constructor(
    private readonly client: Pick<LambdaClient, 'send'>,
    private readonly functionName: string,
  ) {}

  mailTemplate(content: MailContent, footer: MailFooter, options?: { track?: boolean }): Promise<MailTemplate> {
    const { subject, html, text, preview, locale } = content;
    return this.invoke({
      op: 'mailTemplate',
      content: { subject, html, text, preview, ...(locale ? { locale } : {}) },
      footer: { physicalAddress: footer.physicalAddress, footerText: footer.footerText, ...(footer.unsubscribe ? { unsubscribe: footer.unsubscribe } : {}) },
      ...(options ? { options } : {}),
    });
  }

  sanitizePost(html: string): Promise<string> {
    return this.invoke({ op: 'sanitizePost', html });
  }

  async invoicePdf(document: InvoiceDocument): Promise<Uint8Array> {
    const answer = await this.invoke<{ pdf: string }>({ op: 'invoicePdf', document });
    return Buffer.from(answer.pdf, 'base64');
  }

  private async invoke<T>(request: RenderRequest): Promise<T> {
    let out: InvokeCommandOutput;
    try {
      out = await this.client.send(new InvokeCommand({ FunctionName: this.functionName, Payload: encoder.encode(JSON.stringify(request)) }));
    } catch (error) {
      logger.error('the render function could not be invoked', { op: request.op, error: error as Error });
      throw badGateway('Rendering is unavailable; retry later', 'RENDER_UNAVAILABLE');
    }
    const body = out.Payload ? decoder.decode(out.Payload) : '';
    if (out.FunctionError) {
      logger.error('the render function failed', { op: request.op, functionError: out.FunctionError, answer: body.slice(0, 1000) });
      throw badGateway('Rendering failed; retry later', 'RENDER_FAILED');
    }
    return JSON.parse(body) as T;
  }
}

/** The render port of a function whose needs include `render`. */
export function awsRenderPort(env: AwsPortEnv): RenderPort {
  const render = lazily(
    () => new LambdaRender(new LambdaClient({ region: env.config.AWS_REGION }), required(env.config.RENDER_FUNCTION_NAME, 'RENDER_FUNCTION_NAME')),
  );
  return {
    mailTemplate: (content, footer, options) => render().mailTemplate(content, footer, options),
    sanitizePost: (html) => render().sanitizePost(html),
    invoicePdf: (document) => render().invoicePdf(document),
  };
}
