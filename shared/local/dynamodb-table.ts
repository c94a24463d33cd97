import {
  CreateTableCommand,
  DescribeTableCommand,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, TABLE } from '../store/table';

/** Creates the table from the shared definition unless it exists. */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  const tables = await client.send(new ListTablesCommand({}));
  if (!tables.TableNames?.includes(tableName)) {
    try {
      await client.send(new CreateTableCommand(createTableInput(tableName)));
      await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { Enabled: true, AttributeName: TABLE.ttlAttribute } }));
    } catch (error) {
      if (!(error instanceof ResourceInUseException)) throw error;
    }
  }
  for (;;) {
    const table = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (table.Table?.TableStatus === 'ACTIVE') return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
