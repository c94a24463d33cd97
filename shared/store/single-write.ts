import { DeleteCommand, type DeleteCommandInput, PutCommand, type PutCommandInput, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';

/**
 * A transaction of one put, update or delete sent as that write alone, with the same condition.
 * One item's write is atomic either way, and DynamoDB bills a transaction's items twice: a mail
 * queued on its own, a note on a session, a guard put alone cost half. A condition check alone
 * stays a transaction (it writes nothing to send alone).
 */
export function singleWriteCommand(entry: { Put?: object; Update?: object; Delete?: object; ConditionCheck?: object }): PutCommand | undefined {
  const billed = { ReturnConsumedCapacity: 'TOTAL' as const };
  if (entry.Put) return new PutCommand({ ...(entry.Put as PutCommandInput), ...billed });
  if (entry.Update) return new UpdateCommand({ ...(entry.Update as UpdateCommandInput), ...billed }) as unknown as PutCommand;
  if (entry.Delete) return new DeleteCommand({ ...(entry.Delete as DeleteCommandInput), ...billed }) as unknown as PutCommand;
  return undefined;
}
