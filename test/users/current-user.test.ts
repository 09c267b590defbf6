import { invoke } from '../harness/invoke';
import { createTestUser } from '../harness/users';

describe('GET /user/current', () => {
  it('returns the full User with an ETag', async () => {
    const user = await createTestUser({ role: 'user', 'first-name': 'Ada', 'last-name': 'Lovelace' });
    const response = await invoke('getCurrentUser', { token: user.token });
    expect(response.status).toBe(200);
    expect(response.headers.etag).toBe('"1"');
    expect(response.body).toEqual({
      id: user.record.id,
      'additional-emails': null,
      avatars: null,
      created: user.record.created,
      email: user.record.email,
      'first-name': 'Ada',
      'last-name': 'Lovelace',
      parent: null,
      permissions: { 'manage-users': false, 'manage-admins': false, 'manage-sub-users': true, 'media-log-scope': 'own-and-sub-users', 'upload-avatar': true },
      plan: null,
      role: 'user',
      status: 'active',
      updated: user.record.updated,
      username: user.record.username,
    });
  });

  it('carries the parent summary of a sub user', async () => {
    const parent = await createTestUser({ role: 'user' });
    const sub = await createTestUser({ role: 'sub', parent: parent.record.id });
    const response = await invoke('getCurrentUser', { token: sub.token });
    expect(response.body.parent).toEqual({
      id: parent.record.id, email: parent.record.email, role: 'user', status: 'active', username: parent.record.username,
    });
  });
});

describe('PUT /user/current', () => {
  it('updates the names, trims them and bumps updated and the ETag', async () => {
    const user = await createTestUser();
    const response = await invoke('updateCurrentUser', { token: user.token, body: { 'first-name': '  Grace ', 'last-name': 'Hopper' } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ 'first-name': 'Grace', 'last-name': 'Hopper' });
    expect(response.body.updated >= user.record.updated).toBe(true);
    expect(response.headers.etag).toBe('"2"');
    const reread = await invoke('getCurrentUser', { token: user.token });
    expect(reread.body).toMatchObject({ 'first-name': 'Grace', 'last-name': 'Hopper' });
  });

  it('accepts empty names, as a user created without them reads them back, so a read can be sent back as is', async () => {
    const user = await createTestUser({ 'first-name': undefined, 'last-name': undefined });
    const read = await invoke('getCurrentUser', { token: user.token });
    expect(read.body).toMatchObject({ 'first-name': '', 'last-name': '' });
    const back = await invoke('updateCurrentUser', { token: user.token, body: { 'first-name': read.body['first-name'], 'last-name': read.body['last-name'] } });
    expect(back.status).toBe(200);
    const blank = await invoke('updateCurrentUser', { token: user.token, body: { 'first-name': '   ' } });
    expect(blank.body['first-name']).toBe('');
  });

  it.each([
    [{ role: 'root' }, 'role'],
    [{ status: 'active' }, 'status'],
    [{ id: 1 }, 'id'],
    [{ email: 'x@example.test' }, 'email'],
  ])('refuses the mass-assignment attempt %j with 400 and changes nothing', async (extra, field) => {
    const user = await createTestUser();
    const response = await invoke('updateCurrentUser', { token: user.token, body: { 'first-name': 'Mallory', ...extra } });
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.body.errors).toContainEqual({ name: field, reason: expect.any(String) });
    const reread = await invoke('getCurrentUser', { token: user.token });
    expect(reread.body).toMatchObject({ 'first-name': user.record.firstName, role: user.record.role, email: user.record.email });
  });

  it.each([
    ['a name over 100 characters', { 'last-name': 'x'.repeat(101) }, 'last-name'],
    ['a control character', { 'first-name': 'a\u0007b' }, 'first-name'],
    ['a number', { 'first-name': 5 }, 'first-name'],
  ])('refuses %s with a 400 naming the field', async (_, body, field) => {
    const user = await createTestUser();
    const response = await invoke('updateCurrentUser', { token: user.token, body });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { name: string }) => error.name)).toEqual([field]);
  });

  it('answers 400 for malformed JSON and 415 for a body that is not JSON', async () => {
    const user = await createTestUser();
    const malformed = await invoke('updateCurrentUser', { token: user.token, rawBody: '{"first-name":', headers: { 'Content-Type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('malformed_body');
    const text = await invoke('updateCurrentUser', { token: user.token, rawBody: 'first-name=x', headers: { 'Content-Type': 'text/plain' } });
    expect(text.status).toBe(415);
  });

  it('honours If-Match: the current ETag succeeds, a stale one is 412 and changes nothing', async () => {
    const user = await createTestUser();
    const first = await invoke('updateCurrentUser', { token: user.token, body: { 'first-name': 'One' }, headers: { 'If-Match': '"1"' } });
    expect(first.status).toBe(200);
    const stale = await invoke('updateCurrentUser', { token: user.token, body: { 'first-name': 'Two' }, headers: { 'If-Match': '"1"' } });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('precondition_failed');
    const reread = await invoke('getCurrentUser', { token: user.token });
    expect(reread.body['first-name']).toBe('One');
  });

  it('loses none of 20 concurrent updates', async () => {
    const user = await createTestUser();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => invoke('updateCurrentUser', { token: user.token, body: { 'last-name': `Writer ${index}` } })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
    const etags = new Set(responses.map((response) => response.headers.etag));
    expect(etags.size).toBe(20);
    const reread = await invoke('getCurrentUser', { token: user.token });
    expect(reread.headers.etag).toBe('"21"');
  });
});
