import { join } from 'node:path';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { deployedFunctionNamed } from '../../functions/deployed-functions';
import { foldMediaLogCountsFunction } from '../../functions/media-log/fold/stream-functions';
import { clientOptions } from '../../functions/shared/aws/clients';
import { dataConfig, tableName } from '../../functions/shared/config/data-config';
import { mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { DATA_DIR_LAYOUT } from '../backends/data-dir-layout';
import { runFunction } from '../invoke/run-function';
import { FileCheckpoints, MemoryCheckpoints, type CheckpointStore } from './checkpoints';
import type { BatchRunner } from './stream-batches';
import { StreamPoller, type DrainResult } from './stream-poller';

/**
 * The media log's fold, run locally the way its event source mapping runs it in AWS (DESIGN.md
 * section 7b): `npm start` polls the stream four times a second, as Lambda polls a DynamoDB
 * stream's shards (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html#services-ddb-polling),
 * and the commands that write the log (`media-log import`, `seed`, `invoke ingestMediaLog`) fold
 * what they wrote before they return, so a listing right after them has exact totals.
 */

/** How often `npm start` polls the stream: Lambda's base rate for DynamoDB streams, four times a second. */
export const POLL_INTERVAL_MS = 250;

/** A DynamoDB Streams client for the functions' configured endpoint, region and (on loopback) credentials. */
function streamsClient(): DynamoDBStreamsClient {
  const config = dataConfig();
  return new DynamoDBStreamsClient(clientOptions({ region: config.region, endpoint: config.dynamodbEndpoint, accessKey: config.accessKey }));
}

/** What a local fold may run with instead of the defaults. */
export interface LocalFoldOptions {
  readonly batchSize?: number;
  readonly streams?: DynamoDBStreamsClient;
}

/** Runs the fold over the media log's stream, one pass at a time. */
export class LocalMediaLogFold {
  private passes: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private readonly streams: DynamoDBStreamsClient;
  private readonly poller: StreamPoller;

  /**
   * `run` runs the fold on a batch; by default as `invoke` runs a function. `options` replace the
   * event source mapping's batch size and the Streams client (tests that cut batches smaller, or
   * watch the calls a poll makes).
   */
  public constructor(checkpoints: CheckpointStore = new MemoryCheckpoints(), run?: BatchRunner, options: LocalFoldOptions = {}) {
    const target = deployedFunctionNamed(foldMediaLogCountsFunction.name);
    if (target === undefined) throw new Error(`${foldMediaLogCountsFunction.name} is not in the list of deployed functions.`);
    this.streams = options.streams ?? streamsClient();
    const consumer = { ...foldMediaLogCountsFunction, ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }) };
    this.poller = new StreamPoller(this.streams, tableName(mediaLogTable), consumer, checkpoints, run ?? ((event) => runFunction(target, event)));
  }

  /** Fold every change the stream holds now; passes never overlap, so a caller waits for the one running. */
  public drain(): Promise<DrainResult> {
    const pass = this.passes.then(() => this.poller.drain());
    this.passes = pass.catch(() => undefined);
    return pass;
  }

  /** The shards of the stream and the entry changes each holds now, as Lambda would deliver them. */
  public heldRecords(): ReturnType<StreamPoller['heldRecords']> {
    return this.poller.heldRecords();
  }

  /**
   * Poll until {@link stop}; a failed pass is reported and the next one starts from the last
   * checkpoint. The same failure pass after pass (a table without its stream) is reported once.
   */
  public start(onError: (error: unknown) => void, intervalMs = POLL_INTERVAL_MS): void {
    let reported: string | undefined;
    const tick = () => {
      this.drain()
        .then(() => {
          reported = undefined;
        })
        .catch((error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          if (message !== reported) onError(error);
          reported = message;
        })
        .finally(() => {
          if (this.timer !== undefined) this.timer = setTimeout(tick, intervalMs);
        });
    };
    this.timer = setTimeout(tick, intervalMs);
  }

  /**
   * Stop polling and wait for the pass under way. Stopping at any point loses nothing: a batch
   * whose fold did not finish is read again from the checkpoint by the next start, and the fold's
   * watermarks keep what it had written from counting twice.
   */
  public async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.passes;
    this.streams.destroy();
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

/** The checkpoints of a data directory's fold, shared by `npm start` and the commands run beside it. */
export function dataDirCheckpoints(dataDir: string): CheckpointStore {
  return new FileCheckpoints(join(dataDir, DATA_DIR_LAYOUT.foldCheckpoints));
}
