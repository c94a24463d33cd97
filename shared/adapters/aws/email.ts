import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import type { EmailMessage, EmailPort } from '../../platform/ports';

export class SesEmail implements EmailPort {
  constructor(
    private readonly client: Pick<SESv2Client, 'send'>,
    private readonly defaultFrom: string,
  ) {}

  async send(message: EmailMessage): Promise<{ messageId: string }> {
    const out = await this.client.send(
      new SendEmailCommand({
        FromEmailAddress: message.from ?? this.defaultFrom,
        Destination: { ToAddresses: message.to },
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: { Html: { Data: message.html, Charset: 'UTF-8' }, Text: { Data: message.text, Charset: 'UTF-8' } },
          },
        },
      }),
    );
    return { messageId: out.MessageId ?? '' };
  }
}
