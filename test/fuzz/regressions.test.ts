import { decodeQuery } from '../../functions/shared/http/query-decoding';
import { invoke } from '../harness/invoke';
import { createTestUser } from '../harness/users';

/**
 * Inputs the fuzzer once found mishandled, kept as regressions: query keys and header names that
 * are names of Object.prototype members (`valueOf`, `constructor`, `__proto__`), which plain
 * object maps confused with inherited members, and a list filter repeating a value, which sent
 * duplicate keys to DynamoDB.
 */
describe('inputs the fuzzer found', () => {
  it('answers the query key valueOf with a 400 problem', async () => {
    const user = await createTestUser();
    const response = await invoke('listUsers', { token: user.token, query: 'valueOf=1' });
    expect(response.status).toBe(400);
  });

  it('answers headers named constructor and __proto__ like any other header', async () => {
    const user = await createTestUser();
    const response = await invoke('getCurrentUser', { token: user.token, headers: JSON.parse('{"constructor":"x","__proto__":"y"}') });
    expect(response.status).toBe(200);
  });

  it('lists users for a status filter that repeats a value', async () => {
    const root = await createTestUser({ role: 'root' });
    const response = await invoke('listUsers', { token: root.token, query: 'status=active,active' });
    expect(response.status).toBe(200);
  });

  it('decodes __proto__ and valueOf as plain parameter names', () => {
    const decoded = decodeQuery(JSON.parse('{"__proto__[x]":["1"],"valueOf":["2"]}'), null);
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(Object.keys(decoded)).toEqual(['__proto__', 'valueOf']);
  });

  it.each(['__proto__[x]=1', 'valueOf=1', 'constructor=1'])('refuses %s as an unknown parameter', async (query) => {
    const user = await createTestUser();
    const response = await invoke('listUsers', { token: user.token, query });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ name: query.replace(/[[=].*$/, ''), reason: 'Unknown parameter.' }]);
  });
});
