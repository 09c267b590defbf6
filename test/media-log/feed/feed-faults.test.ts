import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { InternalServerError } from '@aws-sdk/client-dynamodb';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getDocumentClient } from '../../../functions/shared/aws/clients';
import type { Caller } from '../../../functions/shared/access/roles';
import { createTestUser } from '../../harness/users';
import { deliver, failedBodies, filtersOf, listLog, requestMessage, scanEntries, statusMessage } from './feed-fixture';

/**
 * DynamoDB failing in the middle of a batch. DynamoDB Local cannot fail on demand, so the shared
 * client's `send` is wrapped to fail chosen writes (each change is one conditional put or update):
 * either before DynamoDB sees them (a 500) or after it applied them (the answer lost on the way
 * back, as in a timeout). Either way the consumer must store whole changes only, report exactly the
 * affected messages for retry, and end exact, once folded, when SQS redelivers them.
 */

let root: Caller;
let nextUser = 30_000;

beforeAll(async () => {
  root = (await createTestUser({ role: 'root' })).caller;
});

afterEach(() => jest.restoreAllMocks());

const SEND = Date.parse('2026-07-01T08:00:00.000Z');
const iso = (offsetMs: number) => new Date(SEND + offsetMs).toISOString();

type Fault = 'before' | 'after';

/** Makes the `nth` write of an entry (1-based) sent from now on fail, before or after DynamoDB applied it. */
function failWrite(nth: number, fault: Fault): () => number {
  const client = getDocumentClient();
  const send = client.send.bind(client);
  let writes = 0;
  jest.spyOn(client, 'send').mockImplementation((async (command: unknown) => {
    if (!(command instanceof PutCommand || command instanceof UpdateCommand)) return send(command as never);
    writes += 1;
    if (writes !== nth) return send(command as never);
    if (fault === 'after') {
      await send(command as never);
      throw Object.assign(new Error('Socket timed out without a response'), { name: 'TimeoutError' });
    }
    throw new InternalServerError({ message: 'Internal server error', $metadata: { httpStatusCode: 500 } });
  }) as never);
  return () => writes;
}

/** Totals for the user and every status filter, as listed, and as a full scan counts them. */
async function totals(user: number): Promise<{ listed: Record<string, number>; scanned: Record<string, number> }> {
  const entries = (await scanEntries()).filter((entry) => entry['user-id'] === user);
  const listed: Record<string, number> = { all: (await listLog(root, `user-id=${user}`)).total };
  const scanned: Record<string, number> = { all: entries.length };
  for (const { field, value } of filtersOf(entries)) {
    listed[`${field}=${value}`] = (await listLog(root, `user-id=${user}&${field}=${value}`)).total;
    scanned[`${field}=${value}`] = entries.filter((entry) => entry[field] === value).length;
  }
  return { listed, scanned };
}

/** Redeliver what failed, as SQS does, until nothing fails. */
async function redeliver(bodies: string[]): Promise<void> {
  for (let round = 1; bodies.length > 0; round += 1) {
    if (round > 5) throw new Error(`Still failing: ${bodies.join(', ')}`);
    const { response, records } = await deliver(bodies);
    bodies = failedBodies(response, records);
  }
}

describe.each<Fault>(['before', 'after'])('a write failing %s DynamoDB applied it', (fault) => {
  it('in a batch of new requests: whole entries only, the failed one reported, exact after redelivery', async () => {
    const user = (nextUser += 1);
    // 60 requests of one user, one conditional put each; the second fails.
    const messages = Array.from({ length: 60 }, (_, index) => requestMessage({ id: randomUUID(), send: iso(index * 3_600_000), url: `https://media.example.com/${index % 3}.mp4`, 'user-id': user }));
    const sent = failWrite(2, fault);
    const { response, records } = await deliver(messages);
    expect(sent()).toBeGreaterThanOrEqual(3);
    jest.restoreAllMocks();

    const failed = failedBodies(response, records);
    expect(failed).toHaveLength(1);
    const stored = new Set((await scanEntries()).map((entry) => entry.id));
    const ids = (bodies: readonly string[]) => bodies.map((body) => (JSON.parse(body) as { entry: { id: string } }).entry.id);
    // Failed before: none of the failed messages' entries is stored; after: all of them are. Never a part.
    const storedOfFailed = ids(failed).filter((id) => stored.has(id));
    expect(storedOfFailed).toEqual(fault === 'before' ? [] : ids(failed));
    // Whatever is stored is counted exactly, before any redelivery.
    const midway = await totals(user);
    expect(midway.listed).toEqual(midway.scanned);
    expect(midway.listed.all).toBe(fault === 'before' ? messages.length - failed.length : messages.length);

    await redeliver(failed);
    const end = await totals(user);
    expect(end.listed).toEqual(end.scanned);
    expect(end.listed.all).toBe(messages.length);
  });

  it('in a batch of status changes: the failed change is reported, the others applied, exact after redelivery', async () => {
    const user = (nextUser += 1);
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    await deliver(ids.map((id, index) => requestMessage({ id, send: iso(index), url: 'https://media.example.com/s.mp4', 'user-id': user })));
    const changes = ids.map((id) => statusMessage(id, 'status', 'success', iso(60_000)));
    // Changes of different entries run at once: which one is the second write is not fixed.
    failWrite(2, fault);
    const { response, records } = await deliver(changes);
    jest.restoreAllMocks();

    const failed = failedBodies(response, records);
    expect(failed).toHaveLength(1);
    const midway = await totals(user);
    expect(midway.listed).toEqual(midway.scanned);
    expect(midway.listed['status=success']).toBe(fault === 'before' ? 2 : 3);

    await redeliver(failed);
    const end = await totals(user);
    expect(end.listed).toEqual(end.scanned);
    expect(end.listed['status=success']).toBe(3);
    expect(end.listed['status=pending']).toBeUndefined();
  });
});
