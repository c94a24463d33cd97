import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { BusPort } from '../platform/ports';
import { eventsFromStreamImages } from './dispatcher';

/**
 * The outbox dispatcher as a Lambda handler for the table stream. Records go to the bus in order;
 * at the first failure it reports that record, so Lambda retries from there and nothing is lost
 * (records before it were sent; consumers drop repeats by event id).
 */
export function createStreamHandler(bus: () => BusPort) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    for (const record of event.Records) {
      const image = record.dynamodb?.NewImage ? unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>) : undefined;
      const events = eventsFromStreamImages([{ eventName: record.eventName, newImage: image }]);
      try {
        if (events.length) await bus().publish(events);
      } catch {
        return { batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber! }] };
      }
    }
    return { batchItemFailures: [] };
  };
}
