import type { Context, SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { jobsFunction, jobsRouterFunction } from '../../shared/composition/lambda';
import type { Deps } from '../../shared/platform/context';

const record = (id: string, body: unknown) => ({
  messageId: id,
  body: JSON.stringify(body),
  receiptHandle: id,
  attributes: {},
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:eu-west-1:1:q',
  awsRegion: 'eu-west-1',
});
const context = { getRemainingTimeInMillis: () => 60_000 } as Context;

describe('jobs functions', () => {
  it('the old jobs queue forwards each job as is to the jobs queue (the port picks its group), failing only a bad message', async () => {
    const sent: { queue: string; message: Record<string, unknown> }[] = [];
    const deps = {
      ports: { queue: { send: async (queue: string, message: Record<string, unknown>) => void sent.push({ queue, message }) } },
    } as unknown as Deps;
    const job = { type: 'automation.step', scope: { accountId: 'a1', mode: 'test' }, payload: { step: 1 } };
    const event = { Records: [record('m1', job), record('m2', { payload: {} }), record('m3', { ...job, recurring: 'nightly' })] } as SQSEvent;
    const answer = await jobsRouterFunction(() => deps)(event, context);
    expect(sent).toEqual([
      { queue: 'jobs', message: job },
      { queue: 'jobs', message: { ...job, recurring: 'nightly' } },
    ]);
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
  });

  it('a job group function runs its own job types and fails any other', async () => {
    const ran: string[] = [];
    const handler = jobsFunction({ 'imports.sweep': async (job) => void ran.push(job.type) }, () => ({}) as Deps);
    const answer = await handler(
      { Records: [record('m1', { type: 'imports.sweep', payload: {} }), record('m2', { type: 'automation.step', payload: {} })] } as SQSEvent,
      context,
    );
    expect(ran).toEqual(['imports.sweep']);
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
  });
});
