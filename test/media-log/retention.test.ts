import { counterChanges } from '../../functions/media-log/fold/counter-deltas';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { MediaLogRecount } from '../../functions/media-log/fold/recount';
import { MediaLogWriter } from '../../functions/media-log/feed/entry-writer';
import { isExpiry, readEntryChanges, type StreamRecord } from '../../functions/media-log/fold/stream-changes';
import { ListMediaLogQuerySchema } from '../../functions/media-log/listing/list-schemas';
import { createMediaLogListing, type MediaLogListing } from '../../functions/media-log/listing/media-log-listing';
import { entryItem } from '../../functions/media-log/model/entry-item';
import { mediaLogKeys } from '../../functions/media-log/model/keys';
import { Retention } from '../../functions/media-log/model/retention';
import type { MediaLogEntry, MediaLogList } from '../../functions/media-log/model/schemas';
import type { Caller } from '../../functions/shared/access/roles';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { MEDIA_LOG_ATTRIBUTES, mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { UserScopeReader } from '../../functions/shared/tables/user-scope-reader';
import { usersTable } from '../../functions/shared/tables/users-table';
import { marshall } from '@aws-sdk/util-dynamodb';
import { CountFold } from '../../functions/media-log/fold/count-fold';
import { entryChanges } from '../../functions/media-log/fold/stream-changes';
import { COUNTER_SCOPES } from '../../functions/media-log/model/keys';
import { mediaLogCountsTable } from '../../functions/shared/tables/media-log-table';
import { foldLog, storeEntries } from '../harness/media-log';
import { createTestUser, type TestUser } from '../harness/users';
import { sorted } from './log-fixture';
import { entryOf, walkListing } from './walk-fixture';

/**
 * A retention window that cuts through imported entries (DESIGN.md 7b, round five): whatever TTL
 * has yet removed (DynamoDB Local removes nothing), listings and totals start at the window.
 */

const NOW = Date.parse('2026-06-10T13:37:00.000Z');
const RETENTION = new Retention(10);
const FLOOR = '2026-05-31T13:37:00.000Z';
const hoursBefore = (hours: number) => new Date(NOW - hours * 3_600_000).toISOString();

describe('a media log kept for ten days', () => {
  let root: TestUser;
  let owner: TestUser;
  let entries: MediaLogEntry[];
  let kept: MediaLogEntry[];
  let listing: MediaLogListing;
  const url = `https://media.example.com/retention/${Date.now()}.mp4`;

  const list = (caller: Caller, query: Record<string, unknown>): Promise<MediaLogList> => listing.list(caller, ListMediaLogQuerySchema.parse(query));
  const ids = (values: readonly MediaLogEntry[]) => values.map((entry) => entry.id);
  const keptWhere = (accept: (entry: MediaLogEntry) => boolean) => sorted(kept.filter(accept));

  beforeAll(async () => {
    root = await createTestUser({ role: 'root' });
    owner = await createTestUser({ role: 'user' });
    // Twenty days of one user's requests every 7 hours, across a month's end, every fifth an
    // error, every third of one url: the window starts in the middle of the 31st of May.
    entries = Array.from({ length: 69 }, (_, index) =>
      entryOf({
        send: hoursBefore(1 + index * 7),
        'user-id': owner.record.id,
        ...(index % 5 === 0 ? { status: 'error' as const } : {}),
        ...(index % 3 === 0 ? { url } : {}),
      }),
    );
    kept = entries.filter((entry) => entry.send >= FLOOR);
    await storeEntries(entries);
    listing = createMediaLogListing(getDocumentClient(), { retention: RETENTION, now: () => NOW });
  }, 120_000);

  it('starts at the window: entries older than ten days are neither listed nor counted', async () => {
    expect(kept.length).toBeGreaterThan(20);
    expect(kept.length).toBeLessThan(entries.length);
    const reply = await list(owner.caller, { pagination: { limit: '100' } });
    expect(ids(reply.log)).toEqual(ids(sorted(kept)));
    expect(reply.pagination).toMatchObject({ total: kept.length, 'total-exact': true, next: null });
  });

  it('walks the window by cursor, each entry once, oldest first too', async () => {
    const newest = await walkListing(listing, owner.caller, {}, 7);
    expect(ids(newest.entries)).toEqual(ids(sorted(kept)));
    const oldest = await walkListing(listing, owner.caller, { sort: { order: 'asc' } }, 7);
    expect(ids(oldest.entries)).toEqual(ids(sorted(kept)).reverse());
    expect(new Set(oldest.pages.map((page) => page.reply.pagination.total))).toEqual(new Set([kept.length]));
  });

  it('clamps a send range that starts before the window, and finds nothing in one that ends before it', async () => {
    const from = await list(owner.caller, { send: { from: '2026-05-01T00:00:00.000Z' }, pagination: { limit: '100' } });
    expect(ids(from.log)).toEqual(ids(sorted(kept)));
    expect(from.pagination.total).toBe(kept.length);
    const before = await list(owner.caller, { send: { from: '2026-05-01T00:00:00.000Z', to: '2026-05-30T00:00:00.000Z' } });
    expect(before.log).toEqual([]);
    expect(before.pagination).toMatchObject({ total: 0, 'total-exact': true, next: null });
  });

  it('lists and counts within the window for a user filter, a status filter, a url and page numbers', async () => {
    const byUser = await list(root.caller, { 'user-id': String(owner.record.id), pagination: { limit: '100' } });
    expect(byUser.pagination.total).toBe(kept.length);
    const errors = await list(root.caller, { 'user-id': String(owner.record.id), status: 'error', pagination: { limit: '100' } });
    expect(ids(errors.log)).toEqual(ids(keptWhere((entry) => entry.status === 'error')));
    expect(errors.pagination.total).toBe(keptWhere((entry) => entry.status === 'error').length);
    const byUrl = await list(owner.caller, { url, pagination: { limit: '100' } });
    expect(ids(byUrl.log)).toEqual(ids(keptWhere((entry) => entry.url === url)));
    expect(byUrl.pagination).toMatchObject({ total: keptWhere((entry) => entry.url === url).length, 'total-exact': true });
    const second = await list(owner.caller, { pagination: { limit: '10', page: '2' } });
    expect(ids(second.log)).toEqual(ids(sorted(kept).slice(10, 20)));
  });

  it('recounts only the buckets inside the window: one TTL is emptying is left alone, a counter it corrects keeps its expiry', async () => {
    const client = getDocumentClient();
    const partition = mediaLogKeys.counterPartition(COUNTER_SCOPES.user(owner.record.id), 'month', null);
    const june = { pk: partition, sk: '2026-06' };
    const may = { pk: partition, sk: '2026-05' };
    await client.send(new UpdateCommand({ TableName: tableName(mediaLogCountsTable), Key: june, UpdateExpression: 'ADD n :five', ExpressionAttributeValues: { ':five': 5 } }));
    // May straddles the window's start: TTL removes its entries one by one, its counter keeps them.
    await client.send(new DeleteCommand({ TableName: tableName(mediaLogCountsTable), Key: may }));
    const report = await new MediaLogRecount(client, { entries: tableName(mediaLogTable), counts: tableName(mediaLogCountsTable) }, RETENTION, () => NOW).run(() => foldLog());
    expect(report.corrected).toContainEqual({ ...june, added: { n: -5 } });
    expect(report.corrected.some((corrected) => corrected.sk < '2026-05-31T13')).toBe(false);
    const read = async (key: typeof june) => (await client.send(new GetCommand({ TableName: tableName(mediaLogCountsTable), Key: key }))).Item;
    expect(await read(may)).toBeUndefined();
    expect(await read(june)).toMatchObject({ n: keptWhere((entry) => entry.send >= '2026-06').length, [MEDIA_LOG_ATTRIBUTES.expiresAt]: RETENTION.counterExpiresAt('2026-06') });
  }, 120_000);

  it('does not show an entry past the window by its id', async () => {
    const old = entries.find((entry) => entry.send < FLOOR) as MediaLogEntry;
    const reply = await list(owner.caller, { request: old.id });
    expect(reply.log).toEqual([]);
    expect(reply.pagination.total).toBe(0);
  });
});

describe('entries written under a retention window', () => {
  it('carry their expiry, the send time plus the window, for TTL to act on', async () => {
    const client = getDocumentClient();
    const writer = new MediaLogWriter(client, tableName(mediaLogTable), new UserScopeReader(client, tableName(usersTable)), undefined, new Retention(30));
    const entry = entryOf({ send: '2026-06-01T00:00:00.500Z', 'user-id': 61 });
    expect(await writer.writeAll([entry])).toEqual(['written']);
    const { Item } = await client.send(new GetCommand({ TableName: tableName(mediaLogTable), Key: mediaLogKeys.entry(entry.id) }));
    expect(Item?.[MEDIA_LOG_ATTRIBUTES.expiresAt]).toBe(Date.parse('2026-07-01T00:00:01.000Z') / 1000);
  });

  it('carry none when the log keeps everything', async () => {
    const client = getDocumentClient();
    const writer = new MediaLogWriter(client, tableName(mediaLogTable), new UserScopeReader(client, tableName(usersTable)));
    const entry = entryOf({ send: '2026-06-01T00:00:00.000Z', 'user-id': 62 });
    await writer.write(entry);
    const { Item } = await client.send(new GetCommand({ TableName: tableName(mediaLogTable), Key: mediaLogKeys.entry(entry.id) }));
    expect(Item).toBeDefined();
    expect(Item?.[MEDIA_LOG_ATTRIBUTES.expiresAt]).toBeUndefined();
  });
});

describe('the fold and TTL removals', () => {
  const entry = entryOf({ send: '2026-06-01T00:00:00.000Z', 'user-id': 63 });
  const removal = (userIdentity?: StreamRecord['userIdentity']): StreamRecord => ({
    eventName: 'REMOVE',
    ...(userIdentity ? { userIdentity } : {}),
    dynamodb: { Keys: marshall(mediaLogKeys.entry(entry.id)), OldImage: marshall(entryItem(entry)), SequenceNumber: '4200000000000000000001' },
  });

  it('writes each counter item with its bucket\'s expiry: the bucket\'s end plus the window', async () => {
    const client = getDocumentClient();
    const counted = entryOf({ send: '2026-06-14T09:30:00.000Z', 'user-id': 64 });
    const insert: StreamRecord = { eventName: 'INSERT', dynamodb: { Keys: marshall(mediaLogKeys.entry(counted.id)), NewImage: marshall(entryItem(counted)), SequenceNumber: '4200000000000000000002' } };
    await new CountFold(client, tableName(mediaLogCountsTable), undefined, undefined, new Retention(10)).apply('shard-retention', counterChanges(entryChanges([insert])));
    const counter = async (level: 'month' | 'day' | 'hour', parent: string | null, bucket: string) =>
      (await client.send(new GetCommand({ TableName: tableName(mediaLogCountsTable), Key: { pk: mediaLogKeys.counterPartition(COUNTER_SCOPES.all, level, parent), sk: bucket } }))).Item;
    const tenDaysAfter = (end: string) => Date.parse(end) / 1000 + 10 * 86_400;
    expect((await counter('month', null, '2026-06'))?.[MEDIA_LOG_ATTRIBUTES.expiresAt]).toBe(tenDaysAfter('2026-07-01T00:00:00.000Z'));
    expect((await counter('day', '2026-06', '2026-06-14'))?.[MEDIA_LOG_ATTRIBUTES.expiresAt]).toBe(tenDaysAfter('2026-06-15T00:00:00.000Z'));
    expect((await counter('hour', '2026-06-14', '2026-06-14T09'))?.[MEDIA_LOG_ATTRIBUTES.expiresAt]).toBe(tenDaysAfter('2026-06-14T10:00:00.000Z'));
  });

  it('leaves out a removal by TTL (AWS marks it as the service dynamodb.amazonaws.com)', () => {
    const expired = removal({ type: 'Service', principalId: 'dynamodb.amazonaws.com' });
    expect(isExpiry(expired)).toBe(true);
    expect(readEntryChanges([expired])).toEqual({ changes: [], unreadable: [] });
  });

  it('still folds a removal by anyone else', () => {
    const deleted = removal();
    expect(isExpiry(deleted)).toBe(false);
    expect(isExpiry(removal({ type: 'Service', principalId: 'backup.amazonaws.com' }))).toBe(false);
    expect(readEntryChanges([deleted]).changes).toEqual([expect.objectContaining({ before: expect.objectContaining({ id: entry.id }) })]);
  });
});
