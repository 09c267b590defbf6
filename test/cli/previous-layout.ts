import { randomUUID } from 'node:crypto';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { chunksOf } from '../../functions/shared/chunks';

/**
 * A media log table of the previous layout, as the previous release stored it (one item per entry
 * under `ENTRY#<id>` / `ENTRY`): what `media-log migrate --from TABLE` copies from.
 */

/** An entry item as the previous release stored it. */
export function previousItem(userId: number, send: string, statuses: readonly [string, string, string, string], changedAt: string) {
  const id = randomUUID();
  return {
    pk: `ENTRY#${id}`,
    sk: 'ENTRY',
    id,
    send,
    url: `https://media.example.com/previous/${id}.mp4`,
    userId,
    sendKey: `${send}#${id}`,
    logPartition: `LOG#${send.slice(0, 7)}`,
    status: statuses[0],
    statusFfscan: statuses[1],
    statusMediainfo: statuses[2],
    statusScanReport: statuses[3],
    statusAt: changedAt,
    statusFfscanAt: changedAt,
    statusMediainfoAt: changedAt,
    statusScanReportAt: send,
  };
}

/** A previous entry item. */
export type PreviousItem = ReturnType<typeof previousItem>;

/** Create a table of the previous layout named `name` holding `items`. */
export async function createPreviousTable(name: string, items: readonly PreviousItem[]): Promise<void> {
  await getDocumentClient().send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
    }),
  );
  for (const chunk of chunksOf(items, 25)) {
    await getDocumentClient().send(new BatchWriteCommand({ RequestItems: { [name]: chunk.map((Item) => ({ PutRequest: { Item } })) } }));
  }
}
