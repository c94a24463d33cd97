import { describe, expect, it } from 'vitest';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { createStreamHandler } from '../../shared/events/stream-handler';
import { OUTBOX_ENTITY, type DomainEvent } from '../../shared/platform/events';

const event = (id: string): DomainEvent => ({ id, type: 'product.created', accountId: 'a', mode: 'test', created: 1, data: { id } });
const record = (seq: string, eventName: 'INSERT' | 'MODIFY', image: Record<string, unknown>) => ({
  eventName,
  dynamodb: { SequenceNumber: seq, NewImage: marshall(image) as never },
});

describe('stream dispatcher', () => {
  const stream = {
    Records: [
      record('1', 'INSERT', { PK: 'x', SK: '1', entity: OUTBOX_ENTITY, event: JSON.stringify(event('e1')) }),
      record('2', 'INSERT', { PK: 'x', SK: '2', entity: 'Product', name: 'not an event' }),
      record('3', 'MODIFY', { PK: 'x', SK: '3', entity: OUTBOX_ENTITY, event: JSON.stringify(event('e3')) }),
      record('4', 'INSERT', { PK: 'x', SK: '4', entity: OUTBOX_ENTITY, event: JSON.stringify(event('e4')) }),
    ],
  } as unknown as DynamoDBStreamEvent;

  it('publishes only outbox inserts, in order', async () => {
    const published: string[] = [];
    const handler = createStreamHandler(() => ({ publish: async (events) => void published.push(...events.map((e) => e.id)) }));
    expect(await handler(stream)).toEqual({ batchItemFailures: [] });
    expect(published).toEqual(['e1', 'e4']);
  });

  it('reports the first record it could not publish, so the retry starts there', async () => {
    const published: string[] = [];
    const handler = createStreamHandler(() => ({
      publish: async (events) => {
        if (events[0]!.id === 'e4') throw new Error('throttled');
        published.push(...events.map((e) => e.id));
      },
    }));
    expect(await handler(stream)).toEqual({ batchItemFailures: [{ itemIdentifier: '4' }] });
    expect(published).toEqual(['e1']);
  });
});
