import type { DynamoDBRecord } from 'aws-lambda';
import fc from 'fast-check';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CountFold } from '../../../functions/media-log/fold/count-fold';
import { counterChanges } from '../../../functions/media-log/fold/counter-deltas';
import { entryChanges } from '../../../functions/media-log/fold/stream-changes';
import { getDocumentClient } from '../../../functions/shared/aws/clients';
import { tableName } from '../../../functions/shared/config/data-config';
import { mediaLogCountsTable } from '../../../functions/shared/tables/media-log-table';
import { LocalMediaLogFold } from '../../../local/fold/media-log-fold';

/**
 * The stream's records delivered to the fold the ways Lambda may deliver them: in batches of any
 * size, some twice, some after a crash that wrote part of their counters, some bisected into halves
 * after a failure, and an old batch again at the end.
 */

/** What befalls one batch. */
export type BatchFate = 'once' | 'twice' | 'crash' | 'bisect';

/** How the records travel to the fold. */
export interface FoldDelivery {
  readonly cuts: readonly number[];
  readonly fates: readonly BatchFate[];
  /** After how many counter writes a crashing delivery fails. */
  readonly crashAfter: readonly number[];
  /** Which batch is delivered once more at the very end. */
  readonly lateRepeat: number;
}

/** Generated {@link FoldDelivery}s. */
export const foldDelivery: fc.Arbitrary<FoldDelivery> = fc.record({
  cuts: fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 6 }),
  fates: fc.array(fc.constantFrom<BatchFate>('once', 'twice', 'crash', 'bisect'), { minLength: 7, maxLength: 7 }),
  crashAfter: fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 7, maxLength: 7 }),
  lateRepeat: fc.nat(),
});

/** A client whose counter writes fail from the `after + 1`-th on: a fold that died mid-batch. */
function crashingClient(after: number): DynamoDBDocumentClient {
  const real = getDocumentClient();
  let writes = 0;
  return {
    send: async (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
      if (command instanceof UpdateCommand && (writes += 1) > after) throw Object.assign(new Error('Task timed out'), { name: 'TimeoutError' });
      return real.send(command as never);
    },
  } as unknown as DynamoDBDocumentClient;
}

/** Tracks which of the stream's records earlier runs already delivered, so each run folds only its own. */
export class ChaoticFold {
  private delivered = 0;

  /** Fold the records added to the stream since the last call, delivered as `how` says. */
  public async run(how: FoldDelivery): Promise<void> {
    const local = new LocalMediaLogFold();
    let shardId: string;
    let records: DynamoDBRecord[];
    try {
      const held = await local.heldRecords();
      if (held.length !== 1) throw new Error(`Expected one stream shard on DynamoDB Local, found ${held.length}.`);
      ({ shardId, records } = held[0] as { shardId: string; records: DynamoDBRecord[] });
    } finally {
      await local.stop();
    }
    const fresh = records.slice(this.delivered);
    this.delivered = records.length;
    const cuts = [...new Set(how.cuts.filter((cut) => cut < fresh.length))].sort((a, b) => a - b);
    const batches = [0, ...cuts].map((from, index) => fresh.slice(from, cuts[index] ?? fresh.length)).filter((batch) => batch.length > 0);
    const fold = new CountFold(getDocumentClient(), tableName(mediaLogCountsTable));
    const apply = (batch: readonly DynamoDBRecord[], client?: DynamoDBDocumentClient) =>
      (client ? new CountFold(client, tableName(mediaLogCountsTable)) : fold).apply(shardId, entryChanges(batch));
    for (const [index, batch] of batches.entries()) {
      const fate = how.fates[index % how.fates.length] as BatchFate;
      const counters = counterChanges(entryChanges(batch)).size;
      if ((fate === 'crash' || fate === 'bisect') && counters > 0) {
        // The first delivery dies after some of its counter writes (fewer than all of them);
        // Lambda then delivers it again, whole or in halves.
        const after = (how.crashAfter[index % how.crashAfter.length] as number) % counters;
        await expect(apply(batch, crashingClient(after))).rejects.toThrow('Task timed out');
      }
      if (fate === 'bisect' && batch.length > 1) {
        const half = Math.ceil(batch.length / 2);
        await apply(batch.slice(0, half));
        await apply(batch.slice(half));
      } else {
        await apply(batch);
      }
      if (fate === 'twice') await apply(batch);
    }
    const late = batches[how.lateRepeat % Math.max(1, batches.length)];
    if (late !== undefined) await apply(late);
  }
}
