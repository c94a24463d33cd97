import type { DynamoDBStreamEvent, DynamoDBBatchResponse } from 'aws-lambda';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { lambdaDeps } from '../../shared/adapters/aws/deps';
import { eventsFromStreamImages } from '../../shared/events/dispatcher';

/**
 * Outbox dispatcher: table stream (filtered to outbox inserts by the event source mapping) to the
 * bus. A failure reports the first unsent record, so Lambda retries from there and nothing is lost.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const { ports } = lambdaDeps();
  for (const record of event.Records) {
    const events = eventsFromStreamImages([
      { eventName: record.eventName, newImage: record.dynamodb?.NewImage ? unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>) : undefined },
    ]);
    try {
      if (events.length) await ports.bus.publish(events);
    } catch {
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber! }] };
    }
  }
  return { batchItemFailures: [] };
};
