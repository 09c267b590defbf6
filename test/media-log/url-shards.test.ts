import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { entryItem } from '../../functions/media-log/model/entry-item';
import { mediaLogKeys, urlHash } from '../../functions/media-log/model/keys';
import { SHARDS } from '../../functions/media-log/model/shards';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { MEDIA_LOG_ATTRIBUTES, mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { foldLog, storeEntries } from '../harness/media-log';
import { invoke } from '../harness/invoke';
import { createTestUser, type TestUser } from '../harness/users';
import { sorted } from './log-fixture';
import { entryOf, idWhere } from './walk-fixture';

/**
 * A url is sharded like a user (one url may take 40 % of the requests): its requests spread over
 * its shards by their ids, and a url listing merges them. Shard 0's partition is the bare hash,
 * where every request was indexed before urls were sharded: those are found without a re-key.
 */

const URL = `https://media.example.com/videos/sharded-${Date.now()}.mp4`;
let owner: TestUser;

beforeAll(async () => {
  owner = await createTestUser({ role: 'user' });
});

describe('a url listing over the url\'s shards', () => {
  it('spreads a url\'s requests over its shards, by id', () => {
    expect(SHARDS.url).toBe(2);
    const hash = urlHash(URL);
    expect(mediaLogKeys.urlShards(hash)).toEqual([hash, `${hash}#1`]);
    const inShard = (shard: number) => entryItem(entryOf({ id: idWhere((id) => mediaLogKeys.shardsOf(id).url === shard), send: '2026-03-01T00:00:00.000Z', 'user-id': 1, url: URL }));
    expect(inShard(0)[MEDIA_LOG_ATTRIBUTES.partition.url]).toBe(hash);
    expect(inShard(1)[MEDIA_LOG_ATTRIBUTES.partition.url]).toBe(`${hash}#1`);
  });

  it('lists and counts the requests of every shard, and those indexed before urls were sharded, in send order', async () => {
    const at = (minute: number) => new Date(Date.parse('2026-03-01T00:00:00.000Z') + minute * 60_000).toISOString();
    const current = Array.from({ length: 12 }, (_, index) => entryOf({ send: at(index * 2), 'user-id': owner.record.id, url: URL }));
    await storeEntries(current);
    // Requests stored before urls were sharded: their url partition is the bare hash, whatever their id's shard.
    const earlier = Array.from({ length: 4 }, (_, index) => entryOf({ id: idWhere((id) => mediaLogKeys.shardsOf(id).url === 1), send: at(index * 2 + 1), 'user-id': owner.record.id, url: URL }));
    for (const entry of earlier) {
      const item = { ...entryItem(entry), [MEDIA_LOG_ATTRIBUTES.partition.url]: urlHash(URL) };
      await getDocumentClient().send(new PutCommand({ TableName: tableName(mediaLogTable), Item: item }));
    }
    await foldLog();
    expect(new Set(current.map((entry) => mediaLogKeys.shardsOf(entry.id).url))).toEqual(new Set([0, 1]));

    const response = await invoke('listMediaLog', { token: owner.token, query: `url=${encodeURIComponent(URL)}&pagination[limit]=100` });
    expect(response.status).toBe(200);
    expect(response.body.log.map((entry: { id: string }) => entry.id)).toEqual(sorted([...current, ...earlier]).map((entry) => entry.id));
    expect(response.body.pagination).toMatchObject({ total: 16, 'total-exact': true });
  });
});
