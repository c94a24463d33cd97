import { describe, expect, it } from 'vitest';
import { PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { ConflictException, CreateScheduleCommand, DeleteScheduleCommand, ResourceNotFoundException, UpdateScheduleCommand } from '@aws-sdk/client-scheduler';
import { DecryptCommand, EncryptCommand } from '@aws-sdk/client-kms';
import { GetEmailIdentityCommand, NotFoundException, SendBulkEmailCommand, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { EventBridgeBus } from '../../shared/adapters/aws/bus';
import { SqsQueue } from '../../shared/adapters/aws/queue';
import { jobsQueueFor } from '../../shared/adapters/aws/env';
import { loadConfig } from '../../shared/platform/config';
import { EventBridgeScheduler, scheduleName } from '../../shared/adapters/aws/scheduler';
import { KmsEncryption } from '../../shared/adapters/aws/encryption';
import { SesEmail } from '../../shared/adapters/aws/email';
import type { DomainEvent } from '../../shared/platform/events';

// These ports have no local AWS engine to run against, so their requests are checked exactly.
type Sent = { name: string; input: any };
function fakeClient(answer: (command: any) => unknown = () => ({})) {
  const sent: Sent[] = [];
  return {
    sent,
    client: {
      send: async (command: any) => {
        sent.push({ name: command.constructor.name, input: command.input });
        const result = answer(command);
        if (result instanceof Error) throw result;
        return result;
      },
    } as any,
  };
}

const event = (i: number): DomainEvent => ({ id: `e${i}`, type: 'product.created', accountId: 'a', mode: 'test', created: 1, data: { i } });

describe('EventBridge bus', () => {
  it('puts events in batches of ten with the type as detail-type', async () => {
    const { client, sent } = fakeClient(() => ({ FailedEntryCount: 0 }));
    await new EventBridgeBus(client, 'bus-1').publish(Array.from({ length: 23 }, (_, i) => event(i)));
    expect(sent.map((s) => s.input.Entries.length)).toEqual([10, 10, 3]);
    expect(sent[0]!.name).toBe(PutEventsCommand.name);
    expect(sent[0]!.input.Entries[0]).toEqual({
      EventBusName: 'bus-1',
      Source: 'creator-commerce',
      DetailType: 'product.created',
      Detail: JSON.stringify(event(0)),
    });
  });

  it('fails the whole call when EventBridge refuses any entry, so the stream retries', async () => {
    const { client } = fakeClient(() => ({ FailedEntryCount: 1 }));
    await expect(new EventBridgeBus(client, 'bus-1').publish([event(1)])).rejects.toThrow(/refused 1/);
  });
});

describe('SQS queue', () => {
  it('sends JSON with the per-message delay, clamped to what SQS accepts', async () => {
    const { client, sent } = fakeClient();
    const queue = new SqsQueue(client, { webhooks: 'https://sqs/webhooks' });
    await queue.send('webhooks', { deliveryId: 'd1' }, { delaySeconds: 4 });
    await queue.send('webhooks', { deliveryId: 'd2' }, { delaySeconds: 5000 });
    expect(sent[0]).toEqual({
      name: SendMessageCommand.name,
      input: { QueueUrl: 'https://sqs/webhooks', MessageBody: '{"deliveryId":"d1"}', DelaySeconds: 4 },
    });
    expect(sent[1]!.input.DelaySeconds).toBe(900);
    await expect(queue.send('jobs', {})).rejects.toThrow(/not configured/);
  });

  it('sends a job to the jobs queue of the group handling its type, and refuses a type no group handles', async () => {
    const { client, sent } = fakeClient();
    const env = {
      config: loadConfig({ JOBS_QUEUE_URL_PREFIX: 'https://sqs/cc-jobs-' }),
      queueUrls: {},
      jobGroupOf: { 'sheets.batch': 'sheets', 'processor.deliver': 'processor' },
    };
    const queue = new SqsQueue(client, {}, jobsQueueFor(env, env.config.JOBS_QUEUE_URL_PREFIX, 'JOBS_QUEUE_URL_PREFIX'));
    await queue.send('jobs', { type: 'processor.deliver', payload: { notificationId: 'n1' } });
    expect(sent[0]!.input.QueueUrl).toBe('https://sqs/cc-jobs-processor');
    await expect(queue.send('jobs', { type: 'unknown.job', payload: {} })).rejects.toThrow(/No jobs queue handles job type unknown.job/);
    expect(sent).toHaveLength(1);
  });
});

describe('EventBridge Scheduler', () => {
  const options = { group: 'g1', roleArn: 'arn:role', jobsQueueArn: (type: string) => `arn:queue-${type.split('.')[0]}` };

  it('creates a one-time, self-deleting schedule that puts the job on the jobs queue of its type', async () => {
    const { client, sent } = fakeClient();
    await new EventBridgeScheduler(client, options).schedule('invoice-upcoming:sub 1', new Date('2026-12-01T10:00:00.123Z'), {
      type: 'invoice.upcoming',
      payload: { id: 1 },
    });
    expect(sent).toEqual([
      {
        name: CreateScheduleCommand.name,
        input: {
          Name: 'invoice-upcoming-sub-1',
          GroupName: 'g1',
          ScheduleExpression: 'at(2026-12-01T10:00:00)',
          ScheduleExpressionTimezone: 'UTC',
          FlexibleTimeWindow: { Mode: 'OFF' },
          ActionAfterCompletion: 'DELETE',
          Target: { Arn: 'arn:queue-invoice', RoleArn: 'arn:role', Input: JSON.stringify({ type: 'invoice.upcoming', payload: { id: 1 } }) },
        },
      },
    ]);
  });

  it('replaces an existing schedule of the same name and ignores deleting a missing one', async () => {
    const { client, sent } = fakeClient((command) =>
      command instanceof CreateScheduleCommand
        ? new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} })
        : command instanceof DeleteScheduleCommand
          ? new ResourceNotFoundException({ message: 'missing', Message: 'missing', $metadata: {} })
          : {},
    );
    const scheduler = new EventBridgeScheduler(client, options);
    await scheduler.schedule('t', new Date(0), { type: 'x', payload: {} });
    await scheduler.cancel('t');
    expect(sent.map((s) => s.name)).toEqual([CreateScheduleCommand.name, UpdateScheduleCommand.name, DeleteScheduleCommand.name]);
  });

  it('keeps names within 64 valid characters, distinct for distinct long names', () => {
    const a = scheduleName('x'.repeat(100) + 'a');
    const b = scheduleName('x'.repeat(100) + 'b');
    expect(a.length).toBeLessThanOrEqual(64);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[0-9a-zA-Z_.-]+$/);
  });
});

describe('KMS and SES', () => {
  it('encrypts and decrypts with the encryption context', async () => {
    const { client, sent } = fakeClient((command) =>
      command instanceof EncryptCommand ? { CiphertextBlob: Buffer.from('cipher') } : { Plaintext: Buffer.from('plain') },
    );
    const kms = new KmsEncryption(client, 'key-1');
    const ciphertext = await kms.encrypt('plain', { webhookId: 'w1' });
    expect(ciphertext).toBe(Buffer.from('cipher').toString('base64'));
    expect(await kms.decrypt(ciphertext, { webhookId: 'w1' })).toBe('plain');
    expect(sent[0]).toMatchObject({ name: EncryptCommand.name, input: { KeyId: 'key-1', EncryptionContext: { webhookId: 'w1' } } });
    expect(sent[1]).toMatchObject({ name: DecryptCommand.name, input: { KeyId: 'key-1', EncryptionContext: { webhookId: 'w1' } } });
  });

  it('sends simple mail with text and HTML parts', async () => {
    const { client, sent } = fakeClient(() => ({ MessageId: 'm-1' }));
    const result = await new SesEmail(client, 'from@example.com').send({ to: ['a@example.com'], subject: 'Hi', html: '<p>Hi</p>', text: 'Hi' });
    expect(result.messageId).toBe('m-1');
    expect(sent[0]).toEqual({
      name: SendEmailCommand.name,
      input: {
        FromEmailAddress: 'from@example.com',
        Destination: { ToAddresses: ['a@example.com'] },
        Content: {
          Simple: {
            Subject: { Data: 'Hi', Charset: 'UTF-8' },
            Body: { Html: { Data: '<p>Hi</p>', Charset: 'UTF-8' }, Text: { Data: 'Hi', Charset: 'UTF-8' } },
          },
        },
      },
    });
  });

  it('sends a newsletter message with sender name, reply-to, RFC 8058 headers and tags through the configuration set', async () => {
    const { client, sent } = fakeClient(() => ({ MessageId: 'm-2' }));
    await new SesEmail(client, 'from@example.com', 'cs-1').send({
      to: ['a@example.com'],
      from: 'creator@example.com',
      fromName: 'Ann "The" Creator',
      replyTo: 'reply@example.com',
      subject: 'Hi',
      html: '<p>Hi</p>',
      text: 'Hi',
      headers: { 'List-Unsubscribe': '<https://x/u>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      tags: { accountId: 'a1', mode: 'test' },
    });
    expect(sent[0]).toEqual({
      name: SendEmailCommand.name,
      input: {
        FromEmailAddress: '"Ann \\"The\\" Creator" <creator@example.com>',
        Destination: { ToAddresses: ['a@example.com'] },
        ReplyToAddresses: ['reply@example.com'],
        Content: {
          Simple: {
            Subject: { Data: 'Hi', Charset: 'UTF-8' },
            Body: { Html: { Data: '<p>Hi</p>', Charset: 'UTF-8' }, Text: { Data: 'Hi', Charset: 'UTF-8' } },
            Headers: [
              { Name: 'List-Unsubscribe', Value: '<https://x/u>' },
              { Name: 'List-Unsubscribe-Post', Value: 'List-Unsubscribe=One-Click' },
            ],
          },
        },
        EmailTags: [
          { Name: 'accountId', Value: 'a1' },
          { Name: 'mode', Value: 'test' },
        ],
        ConfigurationSetName: 'cs-1',
      },
    });
  });

  it('sends a bulk message as an inline template with per-destination data and headers, and reports each result', async () => {
    const { client, sent } = fakeClient(() => ({
      BulkEmailEntryResults: [
        { Status: 'SUCCESS', MessageId: 'm-a' },
        { Status: 'MESSAGE_REJECTED', Error: 'rejected' },
      ],
    }));
    const results = await new SesEmail(client, 'from@example.com', 'cs-1').sendBulk({
      fromName: 'Ann',
      subject: 'News',
      html: '<a href="{{u}}">x</a>',
      text: 'x {{u}}',
      tags: { postId: 'p1' },
      destinations: [
        { to: 'a@example.com', data: { u: 'https://x/a' }, headers: { 'List-Unsubscribe': '<https://x/a>' } },
        { to: 'b@example.com', data: { u: 'https://x/b' } },
      ],
    });
    expect(results).toEqual([
      { to: 'a@example.com', messageId: 'm-a' },
      { to: 'b@example.com', error: 'rejected' },
    ]);
    expect(sent[0]).toEqual({
      name: SendBulkEmailCommand.name,
      input: {
        FromEmailAddress: '"Ann" <from@example.com>',
        DefaultContent: { Template: { TemplateContent: { Subject: 'News', Html: '<a href="{{u}}">x</a>', Text: 'x {{u}}' }, TemplateData: '{}' } },
        BulkEmailEntries: [
          {
            Destination: { ToAddresses: ['a@example.com'] },
            ReplacementEmailContent: { ReplacementTemplate: { ReplacementTemplateData: '{"u":"https://x/a"}' } },
            ReplacementHeaders: [{ Name: 'List-Unsubscribe', Value: '<https://x/a>' }],
          },
          {
            Destination: { ToAddresses: ['b@example.com'] },
            ReplacementEmailContent: { ReplacementTemplate: { ReplacementTemplateData: '{"u":"https://x/b"}' } },
          },
        ],
        DefaultEmailTags: [{ Name: 'postId', Value: 'p1' }],
        ConfigurationSetName: 'cs-1',
      },
    });
    await expect(
      new SesEmail(client, 'f@example.com').sendBulk({
        subject: 's',
        html: 'h',
        text: 't',
        destinations: Array.from({ length: 51 }, (_, i) => ({ to: `${i}@x.com`, data: {} })),
      }),
    ).rejects.toThrow(/50/);
  });

  it('reads the sender identity status, falling back to the domain identity', async () => {
    const { client, sent } = fakeClient((command) =>
      command.input.EmailIdentity === 'me@example.com'
        ? new NotFoundException({ message: 'no', $metadata: {} })
        : { VerifiedForSendingStatus: true, VerificationStatus: 'SUCCESS' },
    );
    expect(await new SesEmail(client, 'f@example.com').senderIdentity('me@example.com')).toEqual({ verified: true, status: 'SUCCESS' });
    expect(sent.map((s) => [s.name, s.input])).toEqual([
      [GetEmailIdentityCommand.name, { EmailIdentity: 'me@example.com' }],
      [GetEmailIdentityCommand.name, { EmailIdentity: 'example.com' }],
    ]);
    const none = fakeClient(() => new NotFoundException({ message: 'no', $metadata: {} }));
    expect(await new SesEmail(none.client, 'f@example.com').senderIdentity('x@y.com')).toEqual({ verified: false, status: 'NOT_FOUND' });
  });
});
