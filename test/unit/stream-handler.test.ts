import { describe, expect, it } from 'vitest';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { createStreamHandler } from '../../shared/events/stream-handler';
import { eventFromItem, mayCarryEvent, OUTBOX_ENTITY, outboxPut, type DomainEvent } from '../../shared/platform/events';

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

  it('publishes a compressed event as Lambda hands it over (its binary as base64 text)', async () => {
    const large = { ...event('big'), data: { id: 'big', text: 'a long product description '.repeat(40) } };
    const put = outboxPut(large);
    if (!('put' in put)) throw new Error('a put');
    expect(put.put.eventZ).toBeInstanceOf(Uint8Array);
    const wire = marshall(put.put) as Record<string, { B?: Uint8Array }>;
    // Lambda's JSON event carries B as base64 text.
    const lambdaImage = { ...wire, eventZ: { B: Buffer.from(wire.eventZ!.B!).toString('base64') } };
    const published: DomainEvent[] = [];
    const handler = createStreamHandler(() => ({ publish: async (events) => void published.push(...events) }));
    await handler({ Records: [{ eventName: 'INSERT', dynamodb: { SequenceNumber: '9', NewImage: lambdaImage } }] } as unknown as DynamoDBStreamEvent);
    expect(JSON.stringify(published)).toBe(JSON.stringify([large]));
  });
});

describe('which stream records the local reader decodes', () => {
  it('only inserts of items with a string event: outbox items and items that carry their event', () => {
    const outbox = marshall({ PK: 'x', SK: 'y', entity: OUTBOX_ENTITY, event: JSON.stringify(event('e1')) });
    expect(mayCarryEvent({ eventName: 'INSERT', newImage: outbox })).toBe(true);
    expect(eventFromItem(unmarshall(outbox))).toEqual(event('e1'));
    expect(mayCarryEvent({ eventName: 'MODIFY', newImage: outbox })).toBe(false);
    expect(mayCarryEvent({ eventName: 'REMOVE' })).toBe(false);
    // A delivery claim or a log entry: no event attribute, never decoded.
    expect(mayCarryEvent({ eventName: 'INSERT', newImage: marshall({ PK: 'x', SK: 'z', entity: 'WebhookAttempt', status: 'success' }) })).toBe(false);
    // An event attribute that is not a string cannot be an event either.
    expect(mayCarryEvent({ eventName: 'INSERT', newImage: marshall({ PK: 'x', SK: 'w', event: 5 }) })).toBe(false);
    expect(eventFromItem({ PK: 'x', SK: 'w', event: 5 })).toBeUndefined();
  });
});
