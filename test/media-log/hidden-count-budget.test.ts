import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { COUNT_READ_BUDGET } from '../../functions/shared/listing/pagination';
import { mediaLogIndexName } from '../../functions/shared/tables/media-log-table';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { invoke } from '../harness/invoke';
import { storeEntries } from '../harness/media-log';
import { attachReadMeter } from '../../functions/shared/observability/read-meter';
import { createTestUser, type TestUser } from '../harness/users';

/**
 * An admin's listing leaves root users' entries out, and so must its total. Root users keep
 * counters by month and day only: inside a busy hour the listing counts their entries by reading
 * them. Every count stays within the count budget (DESIGN 4): when a root user's entries in the
 * range's edge buckets outnumber it, the total is a lower bound, said so, instead of a read of all.
 */

let admin: TestUser;
let root: TestUser;
let user: TestUser;
let entries: MediaLogEntry[];

const hour = (day: string, from: number) => new Date(`${day}T${String(from).padStart(2, '0')}:00:00Z`);

beforeAll(async () => {
  admin = await createTestUser({ role: 'admin' });
  root = await createTestUser({ role: 'root' });
  user = await createTestUser({ role: 'user' });
  entries = [
    // A root user's busy hour: more entries than the count budget reads.
    ...sampleMediaLogEntries(COUNT_READ_BUDGET + 300, { userIds: [root.record.id], start: hour('2026-02-10', 10), spanMs: 3_600_000, seed: 51 }),
    ...sampleMediaLogEntries(200, { userIds: [user.record.id], start: hour('2026-02-10', 0), spanMs: 86_400_000, seed: 52 }),
    // A quiet day: the root user's few entries are read and subtracted exactly.
    ...sampleMediaLogEntries(5, { userIds: [root.record.id], start: hour('2026-02-11', 10), spanMs: 3_600_000, seed: 53 }),
    ...sampleMediaLogEntries(200, { userIds: [user.record.id], start: hour('2026-02-11', 0), spanMs: 86_400_000, seed: 54 }),
  ];
  await storeEntries(entries);
}, 300_000);

/** The admin's page, with what its counting read: counted entries and entries read from the users' partitions. */
async function adminPage(query: string) {
  const meter = attachReadMeter(getDocumentClient());
  const response = await invoke('listMediaLog', { token: admin.token, query });
  meter.detach();
  expect(response.status).toBe(200);
  const tally = meter.tally();
  return { body: response.body, countReads: tally.countedItems + (tally.byIndex[mediaLogIndexName('user')] ?? 0) };
}

const visible = (from: string, to: string) => entries.filter((entry) => entry['user-id'] !== root.record.id && entry.send >= from && entry.send <= to).length;

describe('an admin\'s total inside a root user\'s busy hour', () => {
  it.each([['page 1', 1], ['a deep page', 5]])('stays within the count budget on %s, and says the total is a lower bound', async (_, page) => {
    const { body, countReads } = await adminPage(`send[from]=2026-02-10T10:17:00Z&send[to]=2026-02-10T18:00:00Z&pagination[limit]=5&pagination[page]=${page}`);

    expect(countReads).toBeLessThanOrEqual(COUNT_READ_BUDGET);
    expect(body.pagination['total-exact']).toBe(false);
    // A lower bound, and a close one: only the busy hour's own entries are left uncounted.
    expect(body.pagination.total).toBeLessThanOrEqual(visible('2026-02-10T10:17:00.000Z', '2026-02-10T18:00:00.000Z'));
    expect(body.pagination.total).toBeGreaterThanOrEqual(visible('2026-02-10T11:00:00.000Z', '2026-02-10T18:00:00.000Z'));
    expect(body.log.every((entry: MediaLogEntry) => entry['user-id'] === user.record.id)).toBe(true);
  });

  it('is exact where the root user\'s entries fit in the budget', async () => {
    const { body, countReads } = await adminPage('send[from]=2026-02-11T10:17:00Z&send[to]=2026-02-11T18:00:00Z&pagination[limit]=5');

    expect(countReads).toBeLessThanOrEqual(COUNT_READ_BUDGET);
    expect(body.pagination).toMatchObject({ 'total-exact': true, total: visible('2026-02-11T10:17:00.000Z', '2026-02-11T18:00:00.000Z') });
  });
});
