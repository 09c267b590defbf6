import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { deployedFunctionNamed } from '../../functions/deployed-functions';
import type { StreamConsumerDefinition } from '../../functions/shared/deployment/function-definitions';
import { clientOptions } from '../../functions/shared/aws/clients';
import { dataConfig, tableName } from '../../functions/shared/config/data-config';
import { tables } from '../../functions/shared/tables/index';
import { runFunction } from '../invoke/run-function';
import { MemoryCheckpoints, type CheckpointStore } from './checkpoints';
import type { BatchRunner } from './stream-batches';
import { StreamPoller, type DrainResult } from './stream-poller';

/**
 * One stream consumer of the deployed list, run locally the way its event source mapping runs it
 * in AWS: its table's stream polled four times a second, as Lambda polls a DynamoDB stream's
 * shards (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html#services-ddb-polling), batch
 * after batch with its own checkpoints. Every consumer of a stream reads it on its own, as two event
 * source mappings of one stream do.
 */

/** How often a consumer polls its stream: Lambda's base rate for DynamoDB streams, four times a second. */
export const POLL_INTERVAL_MS = 250;

/** A DynamoDB Streams client for the functions' configured endpoint, region and (on loopback) credentials. */
export function streamsClient(): DynamoDBStreamsClient {
  const config = dataConfig();
  return new DynamoDBStreamsClient(clientOptions({ region: config.region, endpoint: config.dynamodbEndpoint, accessKey: config.accessKey }));
}

/** What a local consumer may run with instead of the defaults. */
export interface LocalConsumerOptions {
  readonly batchSize?: number;
  readonly streams?: DynamoDBStreamsClient;
}

/** The deployed name of the table a consumer reads the stream of. */
function consumedTableName(definition: StreamConsumerDefinition): string {
  const table = tables.find((candidate) => candidate.id === definition.table);
  if (table === undefined) throw new Error(`${definition.name} consumes the stream of table ${definition.table}, which no table definition has.`);
  return tableName(table);
}

/** Runs one stream consumer over its table's stream, one pass at a time. */
export class LocalStreamConsumer {
  private passes: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private readonly streams: DynamoDBStreamsClient;
  private readonly poller: StreamPoller;

  /**
   * `run` runs the consumer on a batch; by default as `invoke` runs a function. `options` replace the
   * event source mapping's batch size and the Streams client (tests that cut batches smaller, or
   * watch the calls a poll makes).
   */
  public constructor(
    public readonly definition: StreamConsumerDefinition,
    checkpoints: CheckpointStore = new MemoryCheckpoints(),
    run?: BatchRunner,
    options: LocalConsumerOptions = {},
  ) {
    const target = deployedFunctionNamed(definition.name);
    if (target === undefined) throw new Error(`${definition.name} is not in the list of deployed functions.`);
    this.streams = options.streams ?? streamsClient();
    const consumer = { ...definition, ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }) };
    this.poller = new StreamPoller(this.streams, consumedTableName(definition), consumer, checkpoints, run ?? ((event) => runFunction(target, event)));
  }

  /** Deliver every change the stream holds now; passes never overlap, so a caller waits for the one running. */
  public drain(): Promise<DrainResult> {
    const pass = this.passes.then(() => this.poller.drain());
    this.passes = pass.catch(() => undefined);
    return pass;
  }

  /** The shards of the stream and the records each holds now that the consumer's filter lets through, as Lambda would deliver them. */
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
   * whose run did not finish is read again from the checkpoint by the next start.
   */
  public async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.passes;
    this.streams.destroy();
  }
}
