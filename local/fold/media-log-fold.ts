import { join } from 'node:path';
import { foldMediaLogCountsFunction } from '../../functions/media-log/fold/stream-functions';
import { dataConfig, tableName } from '../../functions/shared/config/data-config';
import { mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { DATA_DIR_LAYOUT } from '../backends/data-dir-layout';
import { FileCheckpoints, type CheckpointStore } from './checkpoints';
import type { BatchRunner } from './stream-batches';
import type { DrainResult } from './stream-poller';
import { LocalStreamConsumer, type LocalConsumerOptions } from './stream-consumer';

/**
 * The media log's fold, run locally as its event source mapping runs it (DESIGN.md section 7b):
 * `npm start` polls the stream with every other stream consumer (stream-consumers.ts), and the
 * commands that write the log (`media-log import`, `seed`, `invoke ingestMediaLog`) fold what they
 * wrote before they return, so a listing right after them has exact totals.
 */

export { POLL_INTERVAL_MS } from './stream-consumer';

/** The fold as a local stream consumer. */
export class LocalMediaLogFold extends LocalStreamConsumer {
  public constructor(checkpoints?: CheckpointStore, run?: BatchRunner, options: LocalConsumerOptions = {}) {
    super(foldMediaLogCountsFunction, checkpoints, run, options);
  }
}

let processFold: { readonly key: string; readonly fold: LocalMediaLogFold } | undefined;

/**
 * Fold what this process (or anyone) wrote to the media log and is not counted yet: the last step
 * of the commands that write the log. One fold per endpoint, database and table in a process.
 */
export async function foldPendingChanges(checkpoints?: CheckpointStore): Promise<DrainResult> {
  const config = dataConfig();
  const key = JSON.stringify([config.dynamodbEndpoint, config.accessKey?.id, config.region, tableName(mediaLogTable)]);
  if (processFold?.key !== key) processFold = { key, fold: new LocalMediaLogFold(checkpoints) };
  return processFold.fold.drain();
}

/**
 * The checkpoints of a stream consumer in a data directory (the fold's unless named), shared by
 * `npm start` and the commands run beside it: one file per consumer, as each event source mapping
 * keeps its own position.
 */
export function dataDirCheckpoints(dataDir: string, consumer: string = foldMediaLogCountsFunction.name): CheckpointStore {
  return new FileCheckpoints(join(dataDir, DATA_DIR_LAYOUT.streamCheckpoints(consumer)));
}
