import { AsyncLocalStorage } from 'node:async_hooks';
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';

/**
 * Counts the DynamoDB capacity units one request consumed, for `npm run bench` and the
 * `x-consumed-capacity` answer header of the local runtime.
 */
export interface CapacityMeter {
  read: number;
  write: number;
}

const storage = new AsyncLocalStorage<CapacityMeter>();

export const withCapacityMeter = <T>(meter: CapacityMeter, fn: () => Promise<T>) => storage.run(meter, fn);

export function recordCapacity(kind: 'read' | 'write', consumed: ConsumedCapacity | ConsumedCapacity[] | undefined): void {
  const meter = storage.getStore();
  if (!meter || !consumed) return;
  for (const entry of Array.isArray(consumed) ? consumed : [consumed]) meter[kind] += entry.CapacityUnits ?? 0;
}
