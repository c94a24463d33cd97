import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';

/**
 * Counts the DynamoDB capacity units one request consumed, for `npm run bench` and the
 * `x-consumed-capacity` answer header of the local runtime.
 */
export interface CapacityMeter {
  read: number;
  write: number;
}

export function recordCapacity(meter: CapacityMeter, kind: 'read' | 'write', consumed: ConsumedCapacity | ConsumedCapacity[] | undefined): void {
  if (!consumed) return;
  for (const entry of Array.isArray(consumed) ? consumed : [consumed]) meter[kind] += entry.CapacityUnits ?? 0;
}
