import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mapConcurrently } from '../../shared/async/map-concurrently';
import { exponentialDelay, fullJitter, retryUnprocessed, type Backoff } from '../../shared/async/retry';
import { chunksOf } from '../../shared/chunks';

/** Most requests of one BatchWriteItem (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html). */
const DELETES_PER_REQUEST = 25;

/** BatchWriteItem requests in flight at once. */
const REQUESTS_IN_FLIGHT = 4;

/** Unprocessed deletes are sent again a few times; a delta left behind goes with its TTL (it is never applied twice: see below). */
const DELETE_BACKOFF: Backoff = { attempts: 5, delayMs: exponentialDelay(50, 1_000), jitter: fullJitter };

/**
 * Delete the delta items the second stage applied, once their counters are written. The second
 * stage reads deltas from the stream, never from the table, so a delta deleted or not adds nothing
 * again: deleting keeps the table small (its stream's shards few), and a delete that fails fails
 * the batch, whose counter writes the watermarks then refuse as already folded.
 */
export async function deleteAppliedDeltas(client: DynamoDBDocumentClient, tableName: string, keys: readonly { readonly pk: string; readonly sk: string }[]): Promise<void> {
  await mapConcurrently(chunksOf(keys, DELETES_PER_REQUEST), REQUESTS_IN_FLIGHT, (chunk) =>
    retryUnprocessed(
      chunk.map((key) => ({ DeleteRequest: { Key: { pk: key.pk, sk: key.sk } } })),
      async (pending) => {
        const output = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending as never } }));
        return (output.UnprocessedItems?.[tableName] ?? []) as never;
      },
      DELETE_BACKOFF,
    ),
  );
}
