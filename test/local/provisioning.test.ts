import { avatarBucketName, tableName } from '../../functions/shared/config/data-config';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { DescribeTableCommand, DescribeTimeToLiveCommand, DynamoDBClient, ListTablesCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, ListStreamsCommand } from '@aws-sdk/client-dynamodb-streams';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { getDocumentClient, getS3Client } from '../../functions/shared/aws/clients';
import { type KeyAttribute, tables, usersTable } from '../../functions/shared/tables/index';
import { BACKEND_ENV, provisionResources } from '../../local/backends/index';
import { STREAM_ANCHOR_KEY, provisionTable } from '../../local/backends/table-provisioning';
import { passesFilter } from '../../local/fold/stream-batches';
import { streamConsumerDefinitions } from '../../local/fold/stream-consumers';

/**
 * What the test set-up provisioned for this file on the shared backends: tables exactly as defined,
 * provisioning that can run again, databases isolated per access key id, and objects stored intact.
 */

const endpoints = {
  dynamodbEndpoint: process.env[BACKEND_ENV.dynamodbEndpoint] ?? '',
  s3Endpoint: process.env[BACKEND_ENV.s3Endpoint] ?? '',
};

function dynamoDbAs(accessKeyId: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint: endpoints.dynamodbEndpoint, region: 'us-east-1', credentials: { accessKeyId, secretAccessKey: 'local' } });
}

const ownDatabase = () => dynamoDbAs(process.env.AWS_ACCESS_KEY_ID ?? '');

function keySchema(partitionKey: KeyAttribute, sortKey?: KeyAttribute) {
  return [{ AttributeName: partitionKey.name, KeyType: 'HASH' }, ...(sortKey ? [{ AttributeName: sortKey.name, KeyType: 'RANGE' }] : [])];
}

describe.each(tables.map((definition) => [definition.id, definition] as const))('the %s table in DynamoDB Local', (_id, definition) => {
  const describeTable = () => ownDatabase().send(new DescribeTableCommand({ TableName: tableName(definition) }));

  it('has the primary key of its definition', async () => {
    const { Table } = await describeTable();

    expect(Table?.KeySchema).toEqual(keySchema(definition.partitionKey, definition.sortKey));
  });

  it('has exactly the indexes of its definition, with their keys and projections', async () => {
    const { Table } = await describeTable();

    const actual = (Table?.GlobalSecondaryIndexes ?? []).map((index) => ({
      name: index.IndexName,
      keys: index.KeySchema,
      projection: index.Projection?.ProjectionType,
      attributes: [...(index.Projection?.NonKeyAttributes ?? [])].sort(),
    }));
    const expected = definition.indexes.map((index) => ({
      name: index.indexName,
      keys: keySchema(index.partitionKey, index.sortKey),
      projection: index.projection.type,
      attributes: index.projection.type === 'INCLUDE' ? [...index.projection.attributes].sort() : [],
    }));
    expect(actual.sort((a, b) => String(a.name).localeCompare(String(b.name)))).toEqual(expected.sort((a, b) => a.name.localeCompare(b.name)));
  });

  it('has time to live exactly as its definition says', async () => {
    const { TimeToLiveDescription } = await ownDatabase().send(new DescribeTimeToLiveCommand({ TableName: tableName(definition) }));

    const expected = definition.timeToLiveAttribute ? { TimeToLiveStatus: 'ENABLED', AttributeName: definition.timeToLiveAttribute } : { TimeToLiveStatus: 'DISABLED' };
    expect(TimeToLiveDescription).toMatchObject(expected);
  });
});

describe('provisioning', () => {
  it('can run again: tables, their items and the bucket stay as they were', async () => {
    const key = { pk: `USER#${randomBytes(4).toString('hex')}`, sk: 'PROFILE' };
    await getDocumentClient().send(new PutCommand({ TableName: tableName(usersTable), Item: key }));

    const report = await provisionResources(endpoints);

    expect(report.tables.map((table) => table.outcome)).toEqual(tables.map(() => 'existed'));
    expect(report.bucket.outcome).toBe('existed');
    const read = await getDocumentClient().send(new GetCommand({ TableName: tableName(usersTable), Key: key }));
    expect(read.Item).toEqual(key);
  });

  // DynamoDB Local looks a stream's first record up on every write and poll by walking every
  // table's stream records written before it (table-provisioning.ts, anchorStream): a new stream
  // gets its first records at creation, which no consumer is handed.
  it.each(tables.filter((definition) => definition.stream !== undefined).map((definition) => [definition.id, definition] as const))(
    'starts the stream of a %s table it creates at once, with records no stream consumer is handed, and leaves the table empty',
    async (_id, definition) => {
      const accessKeyId = `anchor${randomBytes(8).toString('hex')}`;
      const client = dynamoDbAs(accessKeyId);
      const name = `anchored-${definition.id}`;

      const result = await provisionTable(client, { definition, name });

      expect(result.outcome).toBe('created');
      const streams = new DynamoDBStreamsClient({ endpoint: endpoints.dynamodbEndpoint, region: 'us-east-1', credentials: { accessKeyId, secretAccessKey: 'local' } });
      const arn = (await streams.send(new ListStreamsCommand({ TableName: name }))).Streams?.[0]?.StreamArn;
      const shard = (await streams.send(new DescribeStreamCommand({ StreamArn: arn }))).StreamDescription?.Shards?.[0]?.ShardId;
      const iterator = (await streams.send(new GetShardIteratorCommand({ StreamArn: arn, ShardId: shard, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator;
      const { Records = [] } = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
      expect(Records.map((record) => record.eventName)).toEqual(['INSERT', 'REMOVE']);
      expect(Records.map((record) => record.dynamodb?.Keys?.[definition.partitionKey.name])).toEqual([{ S: STREAM_ANCHOR_KEY }, { S: STREAM_ANCHOR_KEY }]);
      const consumers = streamConsumerDefinitions().filter((consumer) => consumer.table === definition.id);
      expect(consumers.length).toBeGreaterThan(0);
      for (const consumer of consumers) expect(Records.filter((record) => passesFilter(record, consumer))).toEqual([]);
      expect((await client.send(new ScanCommand({ TableName: name }))).Count).toBe(0);
    },
  );

  it('creates the tables in the database of this access key id only', async () => {
    const other = await dynamoDbAs(`other${randomBytes(8).toString('hex')}`).send(new ListTablesCommand({}));
    const own = await ownDatabase().send(new ListTablesCommand({}));

    expect(own.TableNames).toEqual(expect.arrayContaining(tables.map((definition) => tableName(definition))));
    expect(other.TableNames).toEqual([]);
  });
});

describe('objects in the local S3', () => {
  const bytes = randomBytes(256 * 1024);

  it('read back byte for byte what was put through the SDK', async () => {
    const key = `avatars/${randomBytes(8).toString('hex')}.webp`;
    await getS3Client().send(new PutObjectCommand({ Bucket: avatarBucketName(), Key: key, Body: bytes, ContentType: 'image/webp' }));

    const object = await getS3Client().send(new GetObjectCommand({ Bucket: avatarBucketName(), Key: key }));

    expect(Buffer.from(await object.Body!.transformToByteArray()).equals(bytes)).toBe(true);
  });

  it('keep a streamed upload intact', async () => {
    const key = `avatars/${randomBytes(8).toString('hex')}.webp`;
    const body = Readable.from([bytes.subarray(0, 100_000), bytes.subarray(100_000)]);
    await getS3Client().send(new PutObjectCommand({ Bucket: avatarBucketName(), Key: key, Body: body, ContentLength: bytes.length }));

    const object = await getS3Client().send(new GetObjectCommand({ Bucket: avatarBucketName(), Key: key }));

    expect(Buffer.from(await object.Body!.transformToByteArray()).equals(bytes)).toBe(true);
  });

  it('are served by a plain, unsigned HTTP GET of <endpoint>/<bucket>/<key>', async () => {
    const key = `avatars/${randomBytes(8).toString('hex')}.webp`;
    await getS3Client().send(new PutObjectCommand({ Bucket: avatarBucketName(), Key: key, Body: bytes, ContentType: 'image/webp', CacheControl: 'public, max-age=31536000, immutable' }));

    const response = await fetch(`${endpoints.s3Endpoint}/${avatarBucketName()}/${key}`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });
});
