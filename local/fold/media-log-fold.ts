import { join } from 'node:path';
import { applyMediaLogDeltasFunction, foldMediaLogCountsFunction } from '../../functions/media-log/fold/stream-functions';
import { dataConfig, tableName } from '../../functions/shared/config/data-config';
import { mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { DATA_DIR_LAYOUT } from '../backends/data-dir-layout';
import { FileCheckpoints, MemoryCheckpoints, type CheckpointStore } from './checkpoints';
import type { BatchRunner } from './stream-batches';
import type { DrainResult } from './stream-poller';
import { LocalStreamConsumer, type LocalConsumerOptions } from './stream-consumer';

/**
 * The media log's fold, run locally as its two event source mappings run it (DESIGN.md 7b, round
 * five): `npm start` polls both streams with every other stream consumer (stream-consumers.ts), and
 * the commands that write the log (`media-log import`, `seed`, `invoke ingestMediaLog`) fold what
 * they wrote through both stages before they return, so a listing right after them has exact totals.
 */

export { POLL_INTERVAL_MS } from './stream-consumer';

/** Where each stage keeps its checkpoints, by consumer name. */
export type CheckpointsOf = (consumer: string) => CheckpointStore;

/** What the local fold may run with instead of the defaults: the first stage's runner and options (tests that inject faults there). */
export interface LocalFoldOptions extends LocalConsumerOptions {
  readonly run?: BatchRunner;
  /** The second stage's runner (tests that inject faults there). */
  readonly runDeltas?: BatchRunner;
  /** The second stage's batch size instead of its mapping's (`batchSize` is the first stage's). */
  readonly deltasBatchSize?: number;
}

/** What a drain of both stages did. */
export interface FoldDrainResult extends DrainResult {
  /** The second stage's part: delta records read and handed over. */
  readonly deltas: DrainResult;
}

/** Memory checkpoints per consumer, kept as long as the function returned is (the default: a process of its own). */
export function memoryCheckpoints(): CheckpointsOf {
  const stores = new Map<string, CheckpointStore>();
  return (consumer) => {
    const store = stores.get(consumer) ?? new MemoryCheckpoints();
    stores.set(consumer, store);
    return store;
  };
}

/** The fold's two stages as local stream consumers: the media log's stream into deltas, and the deltas' stream into counters. */
export class LocalMediaLogFold {
  /** The first stage: the media log's stream into deltas. */
  public readonly entries: LocalStreamConsumer;
  /** The second stage: the deltas' stream into counters. */
  public readonly deltas: LocalStreamConsumer;

  public constructor(checkpointsOf: CheckpointsOf = memoryCheckpoints(), options: LocalFoldOptions = {}) {
    const { run, runDeltas, deltasBatchSize, batchSize, streams } = options;
    const shared = streams === undefined ? {} : { streams };
    this.entries = new LocalStreamConsumer(foldMediaLogCountsFunction, checkpointsOf(foldMediaLogCountsFunction.name), run, { ...shared, ...(batchSize === undefined ? {} : { batchSize }) });
    this.deltas = new LocalStreamConsumer(applyMediaLogDeltasFunction, checkpointsOf(applyMediaLogDeltasFunction.name), runDeltas, { ...shared, ...(deltasBatchSize === undefined ? {} : { batchSize: deltasBatchSize }) });
  }

  /** Fold every change the media log's stream holds now through both stages: the first, then the second on what it wrote. */
  public async drain(): Promise<FoldDrainResult> {
    const entries = await this.entries.drain();
    const deltas = await this.deltas.drain();
    return { ...entries, deltas };
  }

  /** The records of the media log's stream the first stage would be handed (for `invoke --generate-event`). */
  public heldRecords(): ReturnType<LocalStreamConsumer['heldRecords']> {
    return this.entries.heldRecords();
  }

  /** Poll both streams until {@link stop}, as `npm start` does; `onError` hears of a failed pass. */
  public start(onError: (error: unknown) => void, intervalMs?: number): void {
    this.entries.start(onError, intervalMs);
    this.deltas.start(onError, intervalMs);
  }

  /** Stop both stages once their passes under way are done. */
  public async stop(): Promise<void> {
    await Promise.all([this.entries.stop(), this.deltas.stop()]);
  }
}

/** Run `work` on a fold of both stages of its own (memory checkpoints), then stop it. */
export async function withLocalFold<T>(work: (fold: LocalMediaLogFold) => Promise<T>): Promise<T> {
  const fold = new LocalMediaLogFold();
  try {
    return await work(fold);
  } finally {
    await fold.stop();
  }
}

let processFold: { readonly key: string; readonly fold: LocalMediaLogFold } | undefined;

/**
 * Fold what this process (or anyone) wrote to the media log and is not counted yet, through both
 * stages: the last step of the commands that write the log. One fold per endpoint, database and
 * table in a process.
 */
export async function foldPendingChanges(checkpointsOf?: CheckpointsOf): Promise<FoldDrainResult> {
  const config = dataConfig();
  const key = JSON.stringify([config.dynamodbEndpoint, config.accessKey?.id, config.region, tableName(mediaLogTable)]);
  if (processFold?.key !== key) processFold = { key, fold: new LocalMediaLogFold(checkpointsOf) };
  return processFold.fold.drain();
}

/**
 * The checkpoints of a stream consumer in a data directory, shared by `npm start` and the commands
 * run beside it: one file per consumer, as each event source mapping keeps its own position.
 */
export function dataDirCheckpoints(dataDir: string, consumer: string): CheckpointStore {
  return new FileCheckpoints(join(dataDir, DATA_DIR_LAYOUT.streamCheckpoints(consumer)));
}

/** Every consumer's checkpoints in a data directory ({@link dataDirCheckpoints}), for the fold's two stages. */
export function dataDirCheckpointsOf(dataDir: string): CheckpointsOf {
  return (consumer) => dataDirCheckpoints(dataDir, consumer);
}
