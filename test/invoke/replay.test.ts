import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { functionNamed, runFunction } from '../../local/invoke/run-function';
import { createTestUser } from '../harness/users';

const EVENTS = join(import.meta.dirname, '..', 'events');

/** A recorded event with the placeholders filled for this file's user. */
function recorded(file: string, values: Record<string, string | number>): unknown {
  let text = readFileSync(join(EVENTS, file), 'utf8');
  for (const [name, value] of Object.entries(values)) text = text.replaceAll(`{${name}}`, String(value));
  return JSON.parse(text);
}

describe('replaying events in the exact shape AWS sends', () => {
  it('serves a sample proxy event with the authorizer context filled in', async () => {
    const user = await createTestUser({ role: 'user', 'first-name': 'Replay' });
    const result = (await runFunction(functionNamed('getCurrentUser'), recorded('get-current-user.json', { USER: user.record.id, ROLE: 'user' }))) as { statusCode: number; body: string };
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toMatchObject({ id: user.record.id, 'first-name': 'Replay' });
  });

  it('serves an event without headers (null headers and multiValueHeaders)', async () => {
    const user = await createTestUser();
    const result = (await runFunction(functionNamed('getCurrentUser'), recorded('get-current-user-no-headers.json', { USER: user.record.id, ROLE: 'user' }))) as { statusCode: number };
    expect(result.statusCode).toBe(200);
  });

  it('decodes an isBase64Encoded JSON body', async () => {
    const user = await createTestUser();
    const result = (await runFunction(functionNamed('updateCurrentUser'), recorded('update-current-user-base64.json', { USER: user.record.id, ROLE: 'user' }))) as { statusCode: number; body: string };
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)['first-name']).toBe('Replayed');
  });

  it('reads repeated query keys from multiValueQueryStringParameters', async () => {
    const root = await createTestUser({ role: 'root' });
    await createTestUser({ role: 'user' });
    await createTestUser({ role: 'admin' });
    const result = (await runFunction(functionNamed('listUsers'), recorded('list-users-multi-query.json', { USER: root.record.id, ROLE: 'root' }))) as { statusCode: number; body: string };
    expect(result.statusCode).toBe(200);
    const body = JSON.parse(result.body);
    expect(body.filter).toEqual({ role: ['user', 'admin'] });
    expect(body.pagination.limit).toBe(2);
    expect(body.sort.field).toBe('email');
  });

  it('takes the path parameter of /user/{user-id}', async () => {
    const user = await createTestUser();
    const result = (await runFunction(functionNamed('getUser'), recorded('get-user-by-id.json', { USER: user.record.id, ROLE: 'user' }))) as { statusCode: number; body: string };
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body).id).toBe(user.record.id);
  });

  it('runs the authorizer on a REQUEST authorizer event and refuses a bad token with Unauthorized', async () => {
    const user = await createTestUser({ role: 'admin' });
    const allowed = (await runFunction(functionNamed('authorizer'), recorded('authorizer-request.json', { TOKEN: user.token }))) as { context: unknown; policyDocument: { Statement: { Resource: string }[] } };
    expect(allowed.context).toEqual({ userId: String(user.record.id), role: 'admin', parentId: '', exp: expect.any(String) });
    expect(allowed.policyDocument.Statement[0]?.Resource).toBe('arn:aws:execute-api:us-east-1:123456789012:abcdef123/prod/*');
    await expect(runFunction(functionNamed('authorizer'), recorded('authorizer-request.json', { TOKEN: 'forged' }))).rejects.toThrow('Unauthorized');
  });

  it('runs a background function on a scheduled event', async () => {
    const scheduled = { version: '0', id: 'c2f0a4d2-0000-4000-8000-000000000000', 'detail-type': 'Scheduled Event', source: 'aws.events', account: '123456789012', time: '2026-11-23T03:00:00Z', region: 'us-east-1', resources: [], detail: {} };
    const report = (await runFunction(functionNamed('reconcileAvatarObjects'), scheduled)) as { examined: number; deleted: unknown[] };
    expect(report).toMatchObject({ examined: 0, deleted: [] });
    await expect(runFunction(functionNamed('reconcileAvatarObjects'), recorded('get-current-user.json', { USER: 1, ROLE: 'user' }))).rejects.toThrow(/scheduled event/);
  });

  it('refuses an authorizer event for a route and a proxy event for the authorizer', async () => {
    await expect(runFunction(functionNamed('getCurrentUser'), recorded('authorizer-request.json', { TOKEN: 'x' }))).rejects.toThrow(/REST proxy event/);
    await expect(runFunction(functionNamed('authorizer'), recorded('get-current-user.json', { USER: 1, ROLE: 'user' }))).rejects.toThrow(/authorizer event/);
  });
});
