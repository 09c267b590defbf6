import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { entryItem } from '../../functions/media-log/model/entry-item';
import { mediaLogKeys } from '../../functions/media-log/model/keys';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { MEDIA_LOG_ATTRIBUTES, mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { foldLog, storeEntries } from '../harness/media-log';
import { createTestUser, type TestUser } from '../harness/users';
import { sorted } from './log-fixture';
import { entryOf, idWhere, listingWith, walkListing } from './walk-fixture';

/**
 * Two walks that once lost entries without an error (issue 39), each replayed on the product's own
 * listing against DynamoDB Local.
 */

const errorShard = (id: string) => mediaLogKeys.shardsOf(id).status('error');
const at = (base: string, minutes: number) => new Date(Date.parse(base) + minutes * 60_000).toISOString();

describe('a page that spends its read budget on one shard', () => {
  let root: TestUser;
  let few: TestUser;
  let wanted: MediaLogEntry[];

  beforeAll(async () => {
    root = await createTestUser({ role: 'root' });
    few = await createTestUser({ role: 'user' });
    const many = await createTestUser({ role: 'user' });
    const base = '2026-06-01T00:00:00.000Z';
    // The user asked for has two errors, both in shard B of the error index: one among the newest
    // (its 10th entry), one far older (past its 600th); its other requests succeed.
    wanted = [
      entryOf({ id: idWhere((id) => errorShard(id) === 1), send: at(base, 9_990), 'user-id': few.record.id, status: 'error' }),
      entryOf({ id: idWhere((id) => errorShard(id) === 1), send: at(base, 100), 'user-id': few.record.id, status: 'error' }),
    ];
    const fewSuccesses = Array.from({ length: 300 }, (_, index) => entryOf({ send: at(base, index * 33), 'user-id': few.record.id }));
    // Another user's errors: shard A holds a thousand between the two, shard B some six hundred
    // between them too, so that the merge reads far into A while B's first match waits in its buffer.
    const inA = Array.from({ length: 1000 }, (_, index) => entryOf({ id: idWhere((id) => errorShard(id) === 0), send: at(base, 9_000 - index * 8), 'user-id': many.record.id, status: 'error' }));
    const inB = Array.from({ length: 600 }, (_, index) => entryOf({ id: idWhere((id) => errorShard(id) === 1), send: at(base, 9_950 - index * 14), 'user-id': many.record.id, status: 'error' }));
    await storeEntries([...wanted, ...fewSuccesses, ...inA, ...inB]);
  }, 300_000);

  it('resumes at the least-advanced shard, so the walk returns both errors and the total says so', async () => {
    // Eight read units a request: the page's share runs out some two hundred index items in.
    const walk = await walkListing(listingWith(8), root.caller, { 'user-id': String(few.record.id), status: 'error' }, 10);

    expect(walk.entries.map((entry) => entry.id)).toEqual(sorted(wanted).map((entry) => entry.id));
    expect(walk.pages.length).toBeGreaterThan(2);
    expect(new Set(walk.pages.map((page) => page.reply.pagination.total))).toEqual(new Set([2]));
    // Pages end for the budget, not for want of entries: short pages, each with the cursor that goes on.
    expect(walk.pages.slice(0, -1).every((page) => page.reply.pagination.next !== null)).toBe(true);
  }, 120_000);
});

describe('a status-filtered page whose index items are older than their entries', () => {
  let root: TestUser;
  let pending: MediaLogEntry[];

  beforeAll(async () => {
    root = await createTestUser({ role: 'root' });
    const owner = await createTestUser({ role: 'user' });
    const base = '2026-07-01T00:00:00.000Z';
    pending = Array.from({ length: 30 }, (_, index) => entryOf({ send: at(base, index * 10), 'user-id': owner.record.id, status: 'pending' }));
    await storeEntries(pending);
    // The newest requests have finished, but the status index still has them under `pending` (in
    // AWS a global secondary index is updated after its table): as if read just before the change.
    const finished = Array.from({ length: 15 }, (_, index) => entryOf({ send: at(base, 400 + index), 'user-id': owner.record.id }));
    for (const entry of finished) {
      const item = { ...entryItem(entry), [MEDIA_LOG_ATTRIBUTES.partition.status]: mediaLogKeys.status('pending', mediaLogKeys.shardsOf(entry.id).status('pending')) };
      await getDocumentClient().send(new PutCommand({ TableName: tableName(mediaLogTable), Item: item }));
    }
    await foldLog();
  }, 300_000);

  it('replaces the entries it drops by reading on: a full first page, its cursor, and every pending request once', async () => {
    const walk = await walkListing(listingWith(200), root.caller, { status: 'pending' }, 10);

    expect(walk.pages[0]?.reply.log).toHaveLength(10);
    expect(walk.pages[0]?.reply.pagination.next).toEqual(expect.any(String));
    expect(walk.entries.map((entry) => entry.id)).toEqual(sorted(pending).map((entry) => entry.id));
    // Every page full until the entries run out; a Query that stops at its Limit may leave one empty page to learn the end.
    expect(walk.pages.slice(0, 3).map((page) => page.reply.log.length)).toEqual([10, 10, 10]);
    expect(walk.pages.slice(3).every((page) => page.reply.log.length === 0 && page.reply.pagination.next === null)).toBe(true);
    expect(new Set(walk.pages.map((page) => page.reply.pagination.total))).toEqual(new Set([30]));
  }, 120_000);
});
