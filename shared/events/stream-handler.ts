import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { BusPort } from '../platform/ports';
import { eventsFromStreamImages } from './dispatcher';

/**
 * The outbox dispatcher as a Lambda handler for the table stream (Powertools batch processing).
 * Records go to the bus one at a time, in order; a record that could not be published is reported,
 * Lambda retries from the lowest reported one, and consumers drop repeats by event id.
 */
export function createStreamHandler(bus: () => BusPort) {
  const processor = new BatchProcessor(EventType.DynamoDBStreams);
  const publish = async (record: DynamoDBRecord) => {
    const image = record.dynamodb?.NewImage ? unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>) : undefined;
    const events = eventsFromStreamImages([{ eventName: record.eventName, newImage: image }]);
    if (events.length) await bus().publish(events);
  };
  return (event: DynamoDBStreamEvent, context?: Context): Promise<DynamoDBBatchResponse> =>
    processPartialResponse(event, publish, processor, { context, processInParallel: false, throwOnFullBatchFailure: false }) as Promise<DynamoDBBatchResponse>;
}
