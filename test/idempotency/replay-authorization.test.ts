import { userAccounts } from '../../local/tool-composition';
import { useLocalGateway } from '../harness/local-gateway';
import { createTestUser } from '../harness/users';
import { freshKey, keyedCall } from './keyed-requests';

/**
 * A keyed request's stored answer is given again only to a caller who may still make the request
 * (DESIGN.md 5b, issue 39 item 5), over HTTP through the local gateway: a caller demoted,
 * suspended, or whose sub user moved to another parent gets what any request of theirs gets now,
 * never the stored answer; and the `If-Match` a request was sent with is part of what its key
 * stands for.
 */

const gateway = useLocalGateway();

describe('a replay, after the caller lost the right to its request', () => {
  it('answers a demoted admin 404, as it answers its new request, not the stored 200', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const target = await createTestUser({ role: 'user', 'last-name': 'Before' });
    const key = freshKey();
    const rename = (withKey: string | undefined) => keyedCall(gateway, admin, 'PUT', `/user/${target.record.id}`, withKey, { 'last-name': 'Renamed' });

    const first = await rename(key);
    await userAccounts().update(admin.record.id, { role: 'user' });
    const replayed = await rename(key);
    const fresh = await rename(undefined);

    expect(first.status).toBe(200);
    expect({ status: replayed.status, code: replayed.json.code }).toEqual({ status: 404, code: 'not_found' });
    expect({ status: fresh.status, code: fresh.json.code }).toEqual({ status: 404, code: 'not_found' });
  });

  it('answers a suspended caller 403', async () => {
    const user = await createTestUser();
    const key = freshKey();

    const first = await keyedCall(gateway, user, 'PUT', '/user/current', key, { 'first-name': 'Once' });
    await userAccounts().update(user.record.id, { status: 'suspended' });
    const replayed = await keyedCall(gateway, user, 'PUT', '/user/current', key, { 'first-name': 'Once' });

    expect(first.status).toBe(200);
    expect({ status: replayed.status, code: replayed.json.code }).toEqual({ status: 403, code: 'forbidden' });
  });

  it('answers 404 to the former parent of a sub user moved to another parent: its update and its upload form', async () => {
    const parent = await createTestUser({ role: 'user' });
    const other = await createTestUser({ role: 'user' });
    const sub = await createTestUser({ role: 'sub', parent: parent.record.id });
    const [updateKey, formKey] = [freshKey(), freshKey()];
    const update = () => keyedCall(gateway, parent, 'PUT', `/user/${sub.record.id}`, updateKey, { 'first-name': 'Kid' });
    const form = () => keyedCall(gateway, parent, 'POST', `/user/${sub.record.id}/avatar/uploads`, formKey, { 'content-type': 'image/png' });

    const firsts = [await update(), await form()];
    await userAccounts().update(sub.record.id, { parent: other.record.id });
    const replays = [await update(), await form()];

    expect(firsts.map((answer) => answer.status)).toEqual([200, 201]);
    expect(replays.map((answer) => [answer.status, answer.json.code])).toEqual([
      [404, 'not_found'],
      [404, 'not_found'],
    ]);
  });

  it('answers 404, not 422, when the key comes back with another body from a caller who lost the target', async () => {
    const parent = await createTestUser({ role: 'user' });
    const sub = await createTestUser({ role: 'sub', parent: parent.record.id });
    const key = freshKey();

    const first = await keyedCall(gateway, parent, 'PUT', `/user/${sub.record.id}`, key, { 'first-name': 'Kid' });
    await userAccounts().update(sub.record.id, { role: 'user', parent: null });
    const reused = await keyedCall(gateway, parent, 'PUT', `/user/${sub.record.id}`, key, { 'first-name': 'Other' });

    expect(first.status).toBe(200);
    expect({ status: reused.status, code: reused.json.code }).toEqual({ status: 404, code: 'not_found' });
  });

  it('still replays the stored answer to a caller who keeps the right (a sub user moved back and forth in between)', async () => {
    const parent = await createTestUser({ role: 'user' });
    const other = await createTestUser({ role: 'user' });
    const sub = await createTestUser({ role: 'sub', parent: parent.record.id });
    const key = freshKey();
    const update = () => keyedCall(gateway, parent, 'PUT', `/user/${sub.record.id}`, key, { 'first-name': 'Kid' });

    const first = await update();
    await userAccounts().update(sub.record.id, { parent: other.record.id });
    await userAccounts().update(sub.record.id, { parent: parent.record.id });
    const replayed = await update();

    expect(replayed.status).toBe(200);
    expect(replayed.text).toBe(first.text);
  });
});

describe('the If-Match of a keyed request', () => {
  it('is part of what the key stands for: the same key with another If-Match is 422, and nothing is written', async () => {
    const user = await createTestUser({ 'last-name': 'Before' });
    const key = freshKey();

    const first = await keyedCall(gateway, user, 'PUT', '/user/current', key, { 'last-name': 'After' }, { 'If-Match': '"1"' });
    const other = await keyedCall(gateway, user, 'PUT', '/user/current', key, { 'last-name': 'After' }, { 'If-Match': '*' });
    const none = await keyedCall(gateway, user, 'PUT', '/user/current', key, { 'last-name': 'After' });
    const read = await gateway.call('/user/current', { token: user.token });

    expect(first.status).toBe(200);
    expect([other, none].map((answer) => [answer.status, answer.json.code])).toEqual([
      [422, 'idempotency_key_reused'],
      [422, 'idempotency_key_reused'],
    ]);
    expect(read.headers.get('etag')).toBe('"2"');
  });

  it('replays when sent the same, spaces around it aside', async () => {
    const user = await createTestUser();
    const key = freshKey();

    const first = await keyedCall(gateway, user, 'PUT', '/user/current', key, { 'last-name': 'Same' }, { 'If-Match': '"1"' });
    const again = await keyedCall(gateway, user, 'PUT', '/user/current', key, { 'last-name': 'Same' }, { 'If-Match': '  "1" ' });

    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.text).toBe(first.text);
  });

  it('is not part of it on a route that does not read If-Match (an upload form)', async () => {
    const user = await createTestUser();
    const key = freshKey();
    const form = (ifMatch: string) => keyedCall(gateway, user, 'POST', '/user/current/avatar/uploads', key, { 'content-type': 'image/png' }, { 'If-Match': ifMatch });

    const first = await form('"1"');
    const again = await form('"2"');

    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.text).toBe(first.text);
  });
});
