import type { DynamoDBRecord } from 'aws-lambda';
import fc from 'fast-check';
import { TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CountFold } from '../../../functions/media-log/fold/count-fold';
import { DeltaFold } from '../../../functions/media-log/fold/delta-fold';
import { readDeltaRecords } from '../../../functions/media-log/fold/delta-items';
import { entryChanges } from '../../../functions/media-log/fold/stream-changes';
import { getDocumentClient } from '../../../functions/shared/aws/clients';
import { tableName } from '../../../functions/shared/config/data-config';
import { mediaLogCountsTable, mediaLogDeltasTable } from '../../../functions/shared/tables/media-log-table';
import { LocalMediaLogFold } from '../../../local/fold/media-log-fold';

/**
 * The streams' records delivered to the fold's two stages the ways Lambda may deliver them: in
 * batches of any size, some twice, some after a crash that wrote part of their counters (or a
 * transaction whose answer was lost), some bisected into halves after a failure, and an old batch
 * again at the end.
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

/**
 * A client whose counter writes fail from the `after + 1`-th on: a fold that died mid-batch. The
 * first stage's transaction (one per batch) fails at once: before DynamoDB took it when `after` is
 * even, after it when odd (the answer lost: the retry finds its watermark).
 */
function crashingClient(after: number): DynamoDBDocumentClient {
  const real = getDocumentClient();
  let writes = 0;
  return {
    send: async (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
      const crash = () => Object.assign(new Error('Task timed out'), { name: 'TimeoutError' });
      if (command instanceof TransactWriteCommand) {
        if (after % 2 === 1) await real.send(command);
        throw crash();
      }
      if (command instanceof UpdateCommand && (writes += 1) > after) throw crash();
      return real.send(command as never);
    },
  } as unknown as DynamoDBDocumentClient;
}

/** One stage as the chaos delivers to it: how many writes a batch makes, and how to fold a batch with a client. */
interface ChaoticStage {
  held(fold: LocalMediaLogFold): ReturnType<LocalMediaLogFold['heldRecords']>;
  writes(batch: readonly DynamoDBRecord[]): number;
  apply(shardId: string, batch: readonly DynamoDBRecord[], client: DynamoDBDocumentClient): Promise<unknown>;
}

const STAGES: readonly ChaoticStage[] = [
  {
    held: (fold) => fold.entries.heldRecords(),
    writes: (batch) => (entryChanges(batch).length > 0 ? 2 : 0),
    apply: (shardId, batch, client) => new DeltaFold(client, tableName(mediaLogDeltasTable)).apply(shardId, entryChanges(batch)),
  },
  {
    held: (fold) => fold.deltas.heldRecords(),
    writes: (batch) => readDeltaRecords(batch).counters.size,
    apply: (shardId, batch, client) => new CountFold(client, tableName(mediaLogCountsTable)).apply(shardId, readDeltaRecords(batch).counters),
  },
];

/**
 * Tracks which of each stream's records earlier runs already delivered, so each run folds only its
 * own: the media log's stream into deltas, then the deltas' stream into counters, each delivered
 * as `how` says.
 */
export class ChaoticFold {
  private readonly delivered = [0, 0];

  /** Fold the records added to the streams since the last call, through both stages. */
  public async run(how: FoldDelivery): Promise<void> {
    for (const [index, stage] of STAGES.entries()) await this.runStage(index, stage, how);
  }

  private async runStage(index: number, stage: ChaoticStage, how: FoldDelivery): Promise<void> {
    const local = new LocalMediaLogFold();
    let shardId: string;
    let records: DynamoDBRecord[];
    try {
      const held = await stage.held(local);
      if (held.length !== 1) throw new Error(`Expected one stream shard on DynamoDB Local, found ${held.length}.`);
      ({ shardId, records } = held[0] as { shardId: string; records: DynamoDBRecord[] });
    } finally {
      await local.stop();
    }
    const fresh = records.slice(this.delivered[index]);
    this.delivered[index] = records.length;
    const cuts = [...new Set(how.cuts.filter((cut) => cut < fresh.length))].sort((a, b) => a - b);
    const batches = [0, ...cuts].map((from, at) => fresh.slice(from, cuts[at] ?? fresh.length)).filter((batch) => batch.length > 0);
    const apply = (batch: readonly DynamoDBRecord[], client: DynamoDBDocumentClient = getDocumentClient()) => stage.apply(shardId, batch, client);
    for (const [at, batch] of batches.entries()) {
      const fate = how.fates[at % how.fates.length] as BatchFate;
      const writes = stage.writes(batch);
      if ((fate === 'crash' || fate === 'bisect') && writes > 0) {
        // The first delivery dies after some of its writes (fewer than all of them);
        // Lambda then delivers it again, whole or in halves.
        const after = (how.crashAfter[at % how.crashAfter.length] as number) % writes;
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
