import { decodeQuery } from '../../functions/shared/http/query-decoding';
import { invoke } from '../harness/invoke';
import { createTestUser } from '../harness/users';

/**
 * Bugs the fuzzer found in code other tests own, reproduced. `it.failing` passes while the bug is
 * there: when a fix lands, the test fails, and becomes a plain `it`.
 *
 * Query keys (and header names) that are names of Object.prototype members: the local gateway's
 * event builder (local/gateway/proxy-event.ts, `(multi[key] ??= []).push(...)` on a plain object)
 * finds the inherited member and throws a TypeError, so `invoke` throws and `npm start` answers 500;
 * in AWS the event is fine, and the query decoder (functions/shared/http/query-decoding.ts) answers
 * `valueOf=1` with a misleading reason and lets `__proto__[x]=1` through as no parameter at all.
 *
 * A status filter repeating a value, `GET /user?status=active,active` as root or admin: the
 * counters' BatchGetItem (functions/users/user-list-repository.ts, countByRoleAndStatus) gets the
 * same key twice, DynamoDB refuses ("Provided list of item keys contains duplicates") and the
 * client gets a 500.
 */
describe('known bugs found by fuzzing', () => {
  it.failing('answers the query key valueOf with a 400 problem (the local gateway throws a TypeError)', async () => {
    const user = await createTestUser();
    const response = await invoke('listUsers', { token: user.token, query: 'valueOf=1' });
    expect(response.status).toBe(400);
  });

  it.failing('answers a header named constructor like any other header (the local gateway throws a TypeError)', async () => {
    const user = await createTestUser();
    const response = await invoke('getCurrentUser', { token: user.token, headers: { constructor: 'x' } });
    expect(response.status).toBe(200);
  });

  it.failing('lists users for a status filter that repeats a value (500: duplicate keys in BatchGetItem)', async () => {
    const root = await createTestUser({ role: 'root' });
    const response = await invoke('listUsers', { token: root.token, query: 'status=active,active' });
    expect(response.status).toBe(200);
  });

  it.failing('refuses the query parameter __proto__[x] as unknown (the decoder drops it silently)', () => {
    expect(() => decodeQuery(JSON.parse('{"__proto__[x]":["1"]}'), null)).toThrow();
  });

  it.failing('names valueOf an unknown parameter (the decoder says it was given both as a value and as an object)', () => {
    expect(() => decodeQuery({ valueOf: ['1'] }, null)).toThrow(expect.objectContaining({ errors: [{ name: 'valueOf', reason: 'Unknown parameter.' }] }));
  });
});
