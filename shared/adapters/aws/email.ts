import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { lazily, type AwsPortEnv } from './env';
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

/** The email port of a function whose needs include `email`. */
export function awsEmailPort(env: AwsPortEnv): EmailPort {
  const email = lazily(() => new SesEmail(new SESv2Client({ region: env.config.AWS_REGION }), env.config.EMAIL_FROM));
  return { send: (message) => email().send(message) };
}
