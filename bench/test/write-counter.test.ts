import { BatchWriteCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getDocumentClient, getDynamoDbClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { mediaLogCountsTable, mediaLogDeltasTable } from '../../functions/shared/tables/media-log-table';
import { attachWriteCounter } from '../capacity-meter';

/**
 * The import bench counts the items the feed and the fold write beside it, table by table. On the
 * test file's DynamoDB Local: every single-item write, batch request and transaction write is one
 * item of its table, a condition check or a read none, and a refused write still took its turn.
 */

const counts = tableName(mediaLogCountsTable);
const deltas = tableName(mediaLogDeltasTable);

it('counts the items each request writes, per table, through the document client', async () => {
  const client = getDocumentClient();
  const counter = attachWriteCounter(getDynamoDbClient());
  try {
    await client.send(new PutCommand({ TableName: counts, Item: { pk: 'BENCH#1', sk: 'a', n: 1 } }));
    await client.send(new BatchWriteCommand({ RequestItems: { [deltas]: [{ PutRequest: { Item: { pk: 'BENCH#1', sk: 'a' } } }, { PutRequest: { Item: { pk: 'BENCH#1', sk: 'b' } } }] } }));
    await client.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: deltas, Item: { pk: 'BENCH#1', sk: 'c' } } },
          { ConditionCheck: { TableName: counts, Key: { pk: 'BENCH#1', sk: 'a' }, ConditionExpression: 'attribute_exists(pk)' } },
        ],
      }),
    );
    await client.send(new QueryCommand({ TableName: counts, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'BENCH#1' } }));
    await expect(client.send(new UpdateCommand({ TableName: counts, Key: { pk: 'BENCH#1', sk: 'a' }, UpdateExpression: 'SET n = :n', ConditionExpression: 'n = :other', ExpressionAttributeValues: { ':n': 2, ':other': 5 } }))).rejects.toThrow();

    expect(counter.take()).toEqual({ [counts]: 2, [deltas]: 3 });
    expect(counter.take()).toEqual({});
  } finally {
    counter.detach();
  }
  await client.send(new PutCommand({ TableName: counts, Item: { pk: 'BENCH#1', sk: 'b', n: 1 } }));
  expect(counter.take()).toEqual({});
});
