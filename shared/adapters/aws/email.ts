import { GetEmailIdentityCommand, NotFoundException, SendBulkEmailCommand, SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { lazily, required, type AwsPortEnv } from './env';
import type { BulkEmail, BulkEmailResult, EmailMessage, EmailPort } from '../../platform/ports';

const headerList = (headers?: Record<string, string>) =>
  headers && Object.keys(headers).length ? Object.entries(headers).map(([Name, Value]) => ({ Name, Value })) : undefined;
const tagList = (tags?: Record<string, string>) =>
  tags && Object.keys(tags).length ? Object.entries(tags).map(([Name, Value]) => ({ Name, Value })) : undefined;

/** `"Name" <address>` with the name quoted as RFC 5322 wants; the bare address without a name. */
export function formatFrom(address: string, name?: string): string {
  if (!name) return address;
  return `"${name.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\r\n]/g, ' ')}" <${address}>`;
}

/**
 * SES v2. Every message goes through the configuration set (when configured), whose event
 * destination reports bounces and complaints; message tags come back on those events.
 */
export class SesEmail implements EmailPort {
  constructor(
    private readonly client: Pick<SESv2Client, 'send'>,
    private readonly defaultFrom: string,
    private readonly configurationSet?: string,
  ) {}

  async send(message: EmailMessage): Promise<{ messageId: string }> {
    const out = await this.client.send(
      new SendEmailCommand({
        FromEmailAddress: formatFrom(message.from ?? this.defaultFrom, message.fromName),
        Destination: { ToAddresses: message.to },
        ...(message.replyTo ? { ReplyToAddresses: [message.replyTo] } : {}),
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: { Html: { Data: message.html, Charset: 'UTF-8' }, Text: { Data: message.text, Charset: 'UTF-8' } },
            ...(headerList(message.headers) ? { Headers: headerList(message.headers) } : {}),
          },
        },
        ...(tagList(message.tags) ? { EmailTags: tagList(message.tags) } : {}),
        ...(this.configurationSet ? { ConfigurationSetName: this.configurationSet } : {}),
      }),
    );
    return { messageId: out.MessageId ?? '' };
  }

  /** SendBulkEmail with an inline template: `{{name}}` placeholders filled per destination. */
  async sendBulk(message: BulkEmail): Promise<BulkEmailResult> {
    if (message.destinations.length > 50) throw new Error('SES sends at most 50 destinations per bulk call');
    const out = await this.client.send(
      new SendBulkEmailCommand({
        FromEmailAddress: formatFrom(message.from ?? this.defaultFrom, message.fromName),
        ...(message.replyTo ? { ReplyToAddresses: [message.replyTo] } : {}),
        DefaultContent: {
          Template: {
            TemplateContent: { Subject: message.subject, Html: message.html, Text: message.text },
            TemplateData: '{}',
            ...(headerList(message.headers) ? { Headers: headerList(message.headers) } : {}),
          },
        },
        BulkEmailEntries: message.destinations.map((destination) => ({
          Destination: { ToAddresses: [destination.to] },
          ReplacementEmailContent: { ReplacementTemplate: { ReplacementTemplateData: JSON.stringify(destination.data) } },
          ...(headerList(destination.headers) ? { ReplacementHeaders: headerList(destination.headers) } : {}),
        })),
        ...(tagList(message.tags) ? { DefaultEmailTags: tagList(message.tags) } : {}),
        ...(this.configurationSet ? { ConfigurationSetName: this.configurationSet } : {}),
      }),
    );
    return message.destinations.map((destination, i) => {
      const result = out.BulkEmailEntryResults?.[i];
      return result?.Status === 'SUCCESS'
        ? { to: destination.to, messageId: result.MessageId ?? '' }
        : { to: destination.to, error: result?.Error ?? result?.Status ?? 'no result' };
    });
  }

  /** The SES identity of the address, or of its domain when the address itself is not one. */
  async senderIdentity(address: string): Promise<{ verified: boolean; status: string }> {
    for (const identity of [address, address.split('@')[1] ?? '']) {
      if (!identity) continue;
      try {
        const out = await this.client.send(new GetEmailIdentityCommand({ EmailIdentity: identity }));
        return { verified: out.VerifiedForSendingStatus === true, status: out.VerificationStatus ?? 'PENDING' };
      } catch (error) {
        if (!(error instanceof NotFoundException)) throw error;
      }
    }
    return { verified: false, status: 'NOT_FOUND' };
  }
}

/** The email port of a function whose needs include `email`. */
export function awsEmailPort(env: AwsPortEnv): EmailPort {
  const email = lazily(
    () =>
      new SesEmail(
        new SESv2Client({ region: env.config.AWS_REGION }),
        required(env.config.EMAIL_FROM, 'EMAIL_FROM (the deploy setting senderEmail)'),
        env.config.EMAIL_CONFIGURATION_SET,
      ),
  );
  return {
    send: (message) => email().send(message),
    sendBulk: (message) => email().sendBulk(message),
    senderIdentity: (address) => email().senderIdentity(address),
  };
}
