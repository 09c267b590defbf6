import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { rekeyMovedUsersFunction } from '../../functions/media-log/family/family-functions';
import { usersKeys } from '../../functions/shared/tables/users-keys';
import { MemoryCheckpoints } from '../../local/fold/checkpoints';
import { LocalStreamConsumer } from '../../local/fold/stream-consumer';
import { familyMoves, familyRekey } from '../../functions/media-log/family/family-stores';
import { entryItem } from '../../functions/media-log/model/entry-item';
import { MEDIA_LOG_ATTRIBUTES } from '../../functions/shared/tables/media-log-table';
import { UserScopeReader } from '../../functions/shared/tables/user-scope-reader';
import { usersTable } from '../../functions/shared/tables/users-table';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { runEntryPoint } from '../harness/cli-runner';
import { foldLog, storeEntries } from '../harness/media-log';
import { createTestUser, type TestUser } from '../harness/users';
import { sorted, walkCursor } from './log-fixture';

/**
 * A family's own listing reads the family its entries were written with (DESIGN.md 7b, round
 * five): it shows its members' entries and nobody else's, and a sub user moved to another parent by
 * the operator takes its entries along. While they are re-keyed, the listings of both families
 * leave that user's entries out, say their totals are inexact, and stay right for everyone else.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'frontend-api-family-move-'));
const cli = (args: string[]) => runEntryPoint('cli.ts', args, { DATA_DIR: dataDir });

let first: TestUser;
let second: TestUser;
let moved: TestUser;
let stays: TestUser;
const written = new Map<number, MediaLogEntry[]>();

beforeAll(async () => {
  first = await createTestUser({ role: 'user' });
  second = await createTestUser({ role: 'user' });
  moved = await createTestUser({ role: 'sub', parent: first.record.id });
  stays = await createTestUser({ role: 'sub', parent: first.record.id });
  const users = [first, second, moved, stays].map((user) => user.record.id);
  const entries = sampleMediaLogEntries(160, { userIds: users, start: new Date('2026-03-01T00:00:00Z'), spanMs: 40 * 86_400_000, seed: 21 });
  for (const id of users) written.set(id, entries.filter((entry) => entry['user-id'] === id));
  await storeEntries(entries);
}, 120_000);

const of = (...users: TestUser[]) => sorted(users.flatMap((user) => written.get(user.record.id) ?? []));

/** The whole of a listing, by cursor, with its totals and whether they were exact. */
async function listing(user: TestUser, query = '') {
  const walk = await walkCursor(user.token, query, 25);
  return { entries: walk.entries, totals: [...new Set(walk.totals)], exact: [...new Set(walk.pages.map((page) => page.body.pagination['total-exact']))] };
}

describe('a family\'s own listing', () => {
  it('shows its members\' entries with an exact total, and no entry of another family', async () => {
    const own = await listing(first);
    const other = await listing(second);

    expect(own).toEqual({ entries: of(first, moved, stays), totals: [of(first, moved, stays).length], exact: [true] });
    expect(other).toEqual({ entries: of(second), totals: [of(second).length], exact: [true] });
  });

  it('shows nothing of another family\'s sub user asked for by id', async () => {
    const asked = await listing(second, `user-id=${moved.record.id}`);

    expect(asked).toEqual({ entries: [], totals: [0], exact: [true] });
  });

  it('leaves out the entries of a user being re-keyed, says its total is inexact, and shows the rest', async () => {
    const moves = familyMoves(getDocumentClient());
    await moves.mark(moved.record.id, [first.record.id, second.record.id]);
    try {
      const own = await listing(first);
      const other = await listing(second);

      expect(own.entries).toEqual(of(first, stays));
      expect(own.exact).toEqual([false]);
      expect(other.entries).toEqual(of(second));
      // The operator asking about the user hears it too.
      const get = await cli(['user', 'get', String(moved.record.id)]);
      expect(get.status).toBe(0);
      expect(get.stderr).toContain(`the media log entries of user ${moved.record.id} are still moving to family ${first.record.id}`);
    } finally {
      await moves.clear(moved.record.id, [first.record.id, second.record.id]);
    }
    expect(await listing(first)).toEqual({ entries: of(first, moved, stays), totals: [of(first, moved, stays).length], exact: [true] });
  });
});

describe('moving a sub user to another parent', () => {
  it('re-keys its entries to the new family, saying so while it runs, and the new family\'s totals count them', async () => {
    const run = await cli(['user', 'update', String(moved.record.id), '--parent', String(second.record.id)]);

    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: moved.record.id, parent: { id: second.record.id } });
    expect(run.stderr).toContain(`the media log entries of user ${moved.record.id} move from family ${first.record.id} to family ${second.record.id} in the background`);
    expect(run.stderr).toContain(`re-keying the media log entries of user ${moved.record.id} from family ${first.record.id} to family ${second.record.id}`);
    expect(run.stderr).toMatch(new RegExp(`${written.get(moved.record.id)?.length} entries read, ${written.get(moved.record.id)?.length} re-keyed`));
    expect(await listing(first)).toEqual({ entries: of(first, stays), totals: [of(first, stays).length], exact: [true] });
    expect(await listing(second)).toEqual({ entries: of(second, moved), totals: [of(second, moved).length], exact: [true] });
    expect((await listing(moved)).entries).toEqual(of(moved));
  }, 120_000);

  it('keys the moved user\'s next entries to its new family', async () => {
    const [next] = sampleMediaLogEntries(1, { userIds: [moved.record.id], start: new Date('2026-05-01T00:00:00Z'), spanMs: 1000, seed: 22 });
    await storeEntries([next as MediaLogEntry]);
    written.set(moved.record.id, [...(written.get(moved.record.id) ?? []), next as MediaLogEntry]);

    expect((await listing(second)).entries).toEqual(of(second, moved));
    expect((await listing(first)).entries).toEqual(of(first, stays));
  });
});

describe('a move the background re-key gave up on', () => {
  it('is finished by `media-log rekey ID --from FAMILY`, its marks cleared', async () => {
    const third = await createTestUser({ role: 'user' });
    // Moved, marked, and never re-keyed: as a re-key whose batch reached its failure queue leaves it.
    const moves = familyMoves(getDocumentClient());
    await moves.mark(moved.record.id, [second.record.id, third.record.id]);
    await getDocumentClient().send(new UpdateCommand({ TableName: tableName(usersTable), Key: usersKeys.profile(moved.record.id), UpdateExpression: 'SET parentId = :parent', ExpressionAttributeValues: { ':parent': third.record.id } }));
    expect((await listing(third)).exact).toEqual([false]);

    const run = await cli(['media-log', 'rekey', String(moved.record.id), '--from', String(second.record.id)]);

    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${written.get(moved.record.id)?.length} entries re-keyed, 0 already in their family\n`);
    expect(await listing(third)).toEqual({ entries: of(moved), totals: [of(moved).length], exact: [true] });
    expect(await listing(second)).toEqual({ entries: of(second), totals: [of(second).length], exact: [true] });
  }, 120_000);

  it('is refused without the family the user left, with a usage line', async () => {
    const run = await cli(['media-log', 'rekey', String(moved.record.id)]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('media-log rekey takes a user ID and --from FAMILY');
  });
});

describe('a sub user moved by another path than the CLI (the console, a script)', () => {
  it('has its entries re-keyed in the background by the users table stream\'s consumer', async () => {
    const parent = await createTestUser({ role: 'user' });
    const other = await createTestUser({ role: 'user' });
    const sub = await createTestUser({ role: 'sub', parent: parent.record.id });
    const entries = sampleMediaLogEntries(12, { userIds: [sub.record.id], start: new Date('2026-06-01T00:00:00Z'), spanMs: 86_400_000, seed: 23 });
    await storeEntries(entries);
    await getDocumentClient().send(new UpdateCommand({ TableName: tableName(usersTable), Key: usersKeys.profile(sub.record.id), UpdateExpression: 'SET parentId = :parent', ExpressionAttributeValues: { ':parent': other.record.id } }));
    // Until its consumer has run, the new family does not list the entries yet.
    expect((await listing(other)).entries).toEqual([]);

    // The users table's stream, delivered to the deployed handler as its event source mapping delivers it.
    const consumer = new LocalStreamConsumer(rekeyMovedUsersFunction, new MemoryCheckpoints());
    try {
      await consumer.drain();
    } finally {
      await consumer.stop();
    }
    await foldLog();

    expect(await listing(other)).toEqual({ entries: sorted(entries), totals: [entries.length], exact: [true] });
    expect(await listing(parent)).toEqual({ entries: [], totals: [0], exact: [true] });
    expect(await familyMoves(getDocumentClient()).movingUsers(other.record.id)).toEqual([]);
  }, 120_000);
});

describe('entries written before families were kept', () => {
  it('are keyed to their user\'s family by the backfill, once, and counted there', async () => {
    const [old] = sampleMediaLogEntries(1, { userIds: [stays.record.id], start: new Date('2026-02-01T00:00:00Z'), spanMs: 1000, seed: 23 });
    const { [MEDIA_LOG_ATTRIBUTES.family]: _family, [MEDIA_LOG_ATTRIBUTES.partition.family]: _partition, ...item } = entryItem(old as MediaLogEntry);
    await getDocumentClient().send(new PutCommand({ TableName: tableName(mediaLogTable), Item: item }));
    await foldLog();
    expect((await listing(first)).entries).toEqual(of(first, stays));
    const rekey = familyRekey(getDocumentClient());
    const users = new UserScopeReader(getDocumentClient(), tableName(usersTable));

    const report = await rekey.backfill(users);
    await foldLog();
    const again = await rekey.backfill(users);

    written.set(stays.record.id, [...(written.get(stays.record.id) ?? []), old as MediaLogEntry]);
    expect(report.rekeyed).toBe(1);
    expect(again).toEqual({ entries: 0, rekeyed: 0 });
    expect(await listing(first)).toEqual({ entries: of(first, stays), totals: [of(first, stays).length], exact: [true] });
  });
});
