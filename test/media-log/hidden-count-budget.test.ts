import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { COUNT_READ_UNITS, LISTING_READ_UNITS } from '../../functions/media-log/listing/read-costs';
import { BYTES_PER_READ_UNIT } from '../../functions/shared/listing/read-budget';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { invoke } from '../harness/invoke';
import { storeEntries } from '../harness/media-log';
import { attachReadMeter } from '../../local/metering/read-meter';
import { createTestUser, type TestUser } from '../harness/users';

/**
 * An admin's listing leaves root users' entries out, and so must its total. Root users keep
 * counters by month and day only: inside a busy hour the listing counts their entries by reading
 * them. Every count stays within the count budget (DESIGN 4): when a root user's entries in the
 * range's edge buckets outnumber it, the total is a lower bound, said so, instead of a read of all.
 */

/**
 * A root user's busy hour. A range starting at 10:05 cuts it: the 55 minutes inside are counted in
 * the whole log's index, hidden entries filtered out by DynamoDB but read all the same (index items
 * of about 120 bytes): some 7,500 of them, more than counting may read.
 */
const BUSY_HOUR = Math.ceil((COUNT_READ_UNITS * BYTES_PER_READ_UNIT) / 100);

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
    ...sampleMediaLogEntries(BUSY_HOUR, { userIds: [root.record.id], start: hour('2026-02-10', 10), spanMs: 3_600_000, seed: 51 }),
    ...sampleMediaLogEntries(200, { userIds: [user.record.id], start: hour('2026-02-10', 0), spanMs: 86_400_000, seed: 52 }),
    // A quiet day: the root user's few entries are read and subtracted exactly.
    ...sampleMediaLogEntries(5, { userIds: [root.record.id], start: hour('2026-02-11', 10), spanMs: 3_600_000, seed: 53 }),
    ...sampleMediaLogEntries(200, { userIds: [user.record.id], start: hour('2026-02-11', 0), spanMs: 86_400_000, seed: 54 }),
  ];
  await storeEntries(entries);
}, 300_000);

/** The admin's page, with the read units it spent (the caller's own profile aside: a few units). */
async function adminPage(query: string) {
  const meter = attachReadMeter(getDocumentClient());
  const response = await invoke('listMediaLog', { token: admin.token, query });
  meter.detach();
  expect(response.status).toBe(200);
  return { body: response.body, units: meter.tally().billedReadUnits };
}

const visible = (from: string, to: string) => entries.filter((entry) => entry['user-id'] !== root.record.id && entry.send >= from && entry.send <= to).length;

describe('an admin\'s total inside a root user\'s busy hour', () => {
  it.each([['page 1', 1], ['a deep page', 5]])('stays within the count budget on %s, and says the total is a lower bound', async (_, page) => {
    const { body, units } = await adminPage(`send[from]=2026-02-10T10:05:00Z&send[to]=2026-02-10T18:00:00Z&pagination[limit]=5&pagination[page]=${page}`);

    expect(units).toBeLessThanOrEqual(LISTING_READ_UNITS + 2);
    expect(body.pagination['total-exact']).toBe(false);
    // A lower bound, and a close one: only the busy hour's own entries are left uncounted.
    expect(body.pagination.total).toBeLessThanOrEqual(visible('2026-02-10T10:05:00.000Z', '2026-02-10T18:00:00.000Z'));
    expect(body.pagination.total).toBeGreaterThanOrEqual(visible('2026-02-10T11:00:00.000Z', '2026-02-10T18:00:00.000Z'));
    expect(body.log.every((entry: MediaLogEntry) => entry['user-id'] === user.record.id)).toBe(true);
  });

  it('is exact where the root user\'s entries fit in the budget', async () => {
    const { body, units } = await adminPage('send[from]=2026-02-11T10:17:00Z&send[to]=2026-02-11T18:00:00Z&pagination[limit]=5');

    expect(units).toBeLessThanOrEqual(LISTING_READ_UNITS + 2);
    expect(body.pagination).toMatchObject({ 'total-exact': true, total: visible('2026-02-11T10:17:00.000Z', '2026-02-11T18:00:00.000Z') });
  });
});
