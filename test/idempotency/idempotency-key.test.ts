import { jest } from '@jest/globals';
import { DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getDocumentClient, getDynamoDbClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { IDEMPOTENCY_ATTRIBUTES, idempotencyTable } from '../../functions/shared/tables/idempotency-table';
import { useLocalGateway } from '../harness/local-gateway';
import { createTestUser, type TestUser } from '../harness/users';
import { freshKey, idempotencyRecords, keyedCall } from './keyed-requests';

/**
 * The `Idempotency-Key` on the other unsafe routes (profile updates, upload forms, avatar delete),
 * over HTTP through the local gateway: what a key must look like, what a replay carries, how long a
 * key lives, and that a failed request keeps none.
 */

const gateway = useLocalGateway();
const DAY_SECONDS = 24 * 60 * 60;

/** The records written by `act`: those of the idempotency table that were not there before. */
async function recordsWrittenBy(act: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const before = new Set((await idempotencyRecords()).map((record) => record.id));
  await act();
  return (await idempotencyRecords()).filter((record) => !before.has(record.id));
}

/** Sets a record's attributes as time would have left them (its expiry, or its request's deadline, passed). */
async function age(recordId: unknown, changes: Record<string, unknown>): Promise<void> {
  const names = Object.keys(changes);
  await getDocumentClient().send(
    new UpdateCommand({
      TableName: tableName(idempotencyTable),
      Key: { [IDEMPOTENCY_ATTRIBUTES.id]: recordId },
      UpdateExpression: `SET ${names.map((_, index) => `#n${index} = :v${index}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name, index) => [`#n${index}`, name])),
      ExpressionAttributeValues: Object.fromEntries(names.map((name, index) => [`:v${index}`, changes[name]])),
    }),
  );
}

const rename = (user: TestUser, key: string | undefined, lastName: string, headers: Record<string, string> = {}) =>
  keyedCall(gateway, user, 'PUT', '/user/current', key, { 'last-name': lastName }, headers);

describe('an Idempotency-Key that is not a key', () => {
  it.each([
    ['a bare token, not a quoted string', 'abc-123', 'Must be a quoted string'],
    ['an empty string', '""', 'Must not be empty.'],
    ['256 characters', `"${'k'.repeat(256)}"`, 'Must be at most 255 characters.'],
    ['a character outside printable ASCII', '"cl\u00e9"', 'Must be a quoted string'],
    ['a quote left unescaped', '"a"b"', 'Must be a quoted string'],
    ['two keys', '"a", "b"', 'Must be a quoted string'],
  ])('is a 400 naming the header, and changes nothing: %s', async (_case, key, reason) => {
    const user = await createTestUser({ 'last-name': 'Before' });

    const answer = await rename(user, key, 'After');

    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('validation_failed');
    expect(answer.json.errors).toEqual([{ name: 'Idempotency-Key', reason: expect.stringContaining(reason) }]);
    expect((await gateway.call('/user/current', { token: user.token })).json['last-name']).toBe('Before');
  });

  it('of 255 characters, escapes included, is a key', async () => {
    const user = await createTestUser();
    const key = `"${'\\"'.repeat(2)}${'k'.repeat(253)}"`;

    const first = await rename(user, key, 'Long');
    const again = await rename(user, key, 'Long');

    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
  });
});

describe('a keyed profile update', () => {
  it('replays its answer, ETag included, without updating again (a stale If-Match on the retry included)', async () => {
    const user = await createTestUser();
    const key = freshKey();

    const first = await rename(user, key, 'Lovelace', { 'If-Match': '"1"' });
    const retried = await rename(user, key, 'Lovelace', { 'If-Match': '"1"' });
    const read = await gateway.call('/user/current', { token: user.token });

    expect(first.status).toBe(200);
    expect({ status: retried.status, etag: retried.headers.get('etag'), body: retried.text }).toEqual({ status: 200, etag: '"2"', body: first.text });
    expect(read.headers.get('etag')).toBe('"2"');
  });

  it('of a user by id, by the user who manages it, replays too', async () => {
    const parent = await createTestUser({ role: 'user' });
    const sub = await createTestUser({ role: 'sub', parent: parent.record.id });
    const key = freshKey();

    const first = await keyedCall(gateway, parent, 'PUT', `/user/${sub.record.id}`, key, { 'first-name': 'Kid' });
    const retried = await keyedCall(gateway, parent, 'PUT', `/user/${sub.record.id}`, key, { 'first-name': 'Kid' });

    expect(first.status).toBe(200);
    expect(retried.text).toBe(first.text);
    expect((await gateway.call('/user/current', { token: sub.token })).headers.get('etag')).toBe('"2"');
  });

  it("carries the retry's own CORS, security and caching headers, not those of the first request", async () => {
    const user = await createTestUser();
    const key = freshKey();

    const first = await rename(user, key, 'Origin', { Origin: 'http://localhost:5173' });
    const retried = await rename(user, key, 'Origin', { Origin: 'http://127.0.0.1:8080' });

    expect(retried.text).toBe(first.text);
    expect(retried.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:8080');
    expect(retried.headers.get('vary')).toBe('Origin');
    expect(retried.headers.get('cache-control')).toBe('no-store');
    expect(retried.headers.get('x-content-type-options')).toBe('nosniff');
    expect(retried.headers.get('x-amzn-requestid')).not.toBe(first.headers.get('x-amzn-requestid'));
  });

  it('refuses the key on another operation: 422 idempotency_key_reused', async () => {
    const user = await createTestUser();
    const key = freshKey();

    const renamed = await rename(user, key, 'Once');
    const form = await keyedCall(gateway, user, 'POST', '/user/current/avatar/uploads', key, { 'content-type': 'image/png' });

    expect(renamed.status).toBe(200);
    expect(form.status).toBe(422);
    expect(form.json.code).toBe('idempotency_key_reused');
  });

  it('that failed keeps no key: its retry runs again', async () => {
    const user = await createTestUser();
    const key = freshKey();

    const written = await recordsWrittenBy(() => rename(user, key, 'Stale', { 'If-Match': '"7"' }));
    const retried = await rename(user, key, 'Stale', { 'If-Match': '"1"' });

    expect(written).toEqual([]);
    expect(retried.status).toBe(200);
    expect(retried.json['last-name']).toBe('Stale');
  });
});

describe('a keyed request while the key store fails', () => {
  it('is a 503 with Retry-After when the store throttles, and changes nothing', async () => {
    const user = await createTestUser({ 'last-name': 'Before' });
    const client = getDynamoDbClient();
    const send = client.send.bind(client);
    const throttled = jest.spyOn(client, 'send').mockImplementation((async (command: { input?: { TableName?: string } }) => {
      if (command.input?.TableName === tableName(idempotencyTable)) throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ThrottlingException' });
      return send(command as never);
    }) as never);
    try {
      const answer = await rename(user, freshKey(), 'After');

      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(answer.json.code).toBe('service_unavailable');
    } finally {
      throttled.mockRestore();
    }
    expect((await gateway.call('/user/current', { token: user.token })).json['last-name']).toBe('Before');
  });
});

describe('a keyed upload form', () => {
  it('replays the same form', async () => {
    const user = await createTestUser();
    const key = freshKey();

    const first = await keyedCall(gateway, user, 'POST', '/user/current/avatar/uploads', key, { 'content-type': 'image/png' });
    const retried = await keyedCall(gateway, user, 'POST', '/user/current/avatar/uploads', key, { 'content-type': 'image/png' });
    const unkeyed = await keyedCall(gateway, user, 'POST', '/user/current/avatar/uploads', undefined, { 'content-type': 'image/png' });

    expect(first.status).toBe(201);
    expect(retried.text).toBe(first.text);
    expect(unkeyed.json.source).not.toBe(first.json.source);
  });
});

describe('how long a key lives', () => {
  it('is a day, on a table whose TTL deletes expired records', async () => {
    const user = await createTestUser();
    const startedSeconds = Date.now() / 1000;

    const [record] = await recordsWrittenBy(() => rename(user, freshKey(), 'Ttl'));
    const ttl = await getDynamoDbClient().send(new DescribeTimeToLiveCommand({ TableName: tableName(idempotencyTable) }));

    expect(record?.[IDEMPOTENCY_ATTRIBUTES.status]).toBe('COMPLETED');
    expect(record?.[IDEMPOTENCY_ATTRIBUTES.expiry]).toBeGreaterThanOrEqual(Math.floor(startedSeconds + DAY_SECONDS));
    expect(record?.[IDEMPOTENCY_ATTRIBUTES.expiry]).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000 + DAY_SECONDS));
    expect(ttl.TimeToLiveDescription).toMatchObject({ TimeToLiveStatus: 'ENABLED', AttributeName: IDEMPOTENCY_ATTRIBUTES.expiry });
  });

  it('after which the key is new again, with any body, even before TTL deleted its record', async () => {
    const user = await createTestUser();
    const key = freshKey();
    const [record] = await recordsWrittenBy(() => rename(user, key, 'First'));

    await age(record?.id, { [IDEMPOTENCY_ATTRIBUTES.expiry]: Math.floor(Date.now() / 1000) - 1 });
    const again = await rename(user, key, 'Second');

    expect(again.status).toBe(200);
    expect(again.headers.get('etag')).toBe('"3"');
    expect(again.json['last-name']).toBe('Second');
  });

  it("of a request whose function died before answering is held until that function's deadline, then free", async () => {
    const user = await createTestUser();
    const key = freshKey();
    const [record] = await recordsWrittenBy(() => rename(user, key, 'Died'));

    // As a function that timed out leaves it: in progress, its deadline passed, no answer stored.
    await age(record?.id, { [IDEMPOTENCY_ATTRIBUTES.status]: 'INPROGRESS', [IDEMPOTENCY_ATTRIBUTES.inProgressExpiry]: Date.now() + 60_000 });
    const held = await rename(user, key, 'Died');
    await age(record?.id, { [IDEMPOTENCY_ATTRIBUTES.inProgressExpiry]: Date.now() - 1 });
    const freed = await rename(user, key, 'Died');

    expect(held.status).toBe(409);
    expect(freed.status).toBe(200);
    expect(freed.headers.get('etag')).toBe('"3"');
  });
});
