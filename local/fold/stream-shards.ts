import { DescribeStreamCommand, type DynamoDBStreamsClient, GetShardIteratorCommand, ListStreamsCommand, type Shard, TrimmedDataAccessException } from '@aws-sdk/client-dynamodb-streams';

/**
 * Finding a table's stream on DynamoDB Local and its shards, in the order a Lambda event source
 * mapping reads them, for the stream poller (stream-poller.ts). The stream is found once
 * (ListStreams: its ARN changes only when the table is made anew) and its shards listed again only
 * when one ends or every few seconds, so that a poll costs one GetRecords per shard. DescribeTable is
 * never called: DynamoDB Local answers it by walking the table (725 ms at 100k entries, measured),
 * and serves nothing else meanwhile.
 */

/** How long a list of shards is trusted before a poll lists them again (new shards appear when one ends, which a poll sees). */
const SHARD_LIST_TTL_MS = 10_000;

/** A table's stream ARN and its shards, parents before children. */
export interface StreamLayout {
  readonly streamArn: string;
  readonly shards: Shard[];
}

/** The stream of one table on a local endpoint and its shards, looked up only as often as a poll needs. */
export class StreamShards {
  private stream: { readonly arn: string; shards: Shard[]; listedAt: number } | undefined;

  public constructor(
    private readonly streams: DynamoDBStreamsClient,
    private readonly tableName: string,
  ) {}

  /** The table's stream ARN and shards, parents before children as a mapping reads them (listed again when `fresh`, or once they are old). */
  public async current(fresh = false): Promise<StreamLayout> {
    if (this.stream === undefined) this.stream = { arn: await this.latestStream(), shards: [], listedAt: 0 };
    if (fresh || Date.now() - this.stream.listedAt > SHARD_LIST_TTL_MS) {
      this.stream.shards = await this.listShards(this.stream.arn);
      this.stream.listedAt = Date.now();
    }
    return { streamArn: this.stream.arn, shards: this.stream.shards };
  }

  /** Forget the stream, so that the next look finds it again (the table was made anew, or a shard is gone). */
  public forget(): void {
    this.stream = undefined;
  }

  /** The ARN of the table's newest stream (a table made anew has a new one; its label is its creation time). */
  private async latestStream(): Promise<string> {
    const found: { StreamArn?: string; StreamLabel?: string }[] = [];
    let start: string | undefined;
    do {
      const output = await this.streams.send(new ListStreamsCommand({ TableName: this.tableName, ExclusiveStartStreamArn: start }));
      found.push(...(output.Streams ?? []));
      start = output.LastEvaluatedStreamArn;
    } while (start !== undefined);
    const newest = found.sort((a, b) => ((a.StreamLabel ?? '') < (b.StreamLabel ?? '') ? 1 : -1))[0]?.StreamArn;
    if (newest === undefined) throw new Error(`Table ${this.tableName} has no stream: create it from its definition (npm start does).`);
    return newest;
  }

  private async listShards(streamArn: string): Promise<Shard[]> {
    const shards: Shard[] = [];
    let start: string | undefined;
    do {
      const { StreamDescription } = await this.streams.send(new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }));
      shards.push(...(StreamDescription?.Shards ?? []));
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start !== undefined);
    // A mapping reads a parent shard to its end before its children (a record's updates stay in order).
    const ids = new Set(shards.map((shard) => shard.ShardId));
    const depth = (shard: Shard): number => {
      const parent = shards.find((candidate) => candidate.ShardId === shard.ParentShardId);
      return parent !== undefined && ids.has(parent.ShardId) ? depth(parent) + 1 : 0;
    };
    return [...shards].sort((a, b) => depth(a) - depth(b));
  }
}

/**
 * An iterator of a shard just after sequence number `after`, or at its oldest record kept when
 * there is none, or when `after` is older than the stream keeps (24 hours).
 */
export async function shardIteratorAfter(streams: DynamoDBStreamsClient, streamArn: string, shardId: string, after: string | undefined): Promise<string | undefined> {
  const request = after === undefined ? { ShardIteratorType: 'TRIM_HORIZON' as const } : { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER' as const, SequenceNumber: after };
  try {
    return (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ...request }))).ShardIterator;
  } catch (error) {
    if (!(error instanceof TrimmedDataAccessException)) throw error;
    return (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator;
  }
}
