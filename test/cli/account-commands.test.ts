import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEntryPoint } from '../harness/cli-runner';
import { invoke } from '../harness/invoke';
import { createTestUser } from '../harness/users';

/** The operator's lever: `user update`, `user delete`, `user get`, each effective on the next request. */

const dataDir = mkdtempSync(join(tmpdir(), 'frontend-api-accounts-'));
const cli = (args: string[], env: Record<string, string> = {}) => runEntryPoint('cli.ts', args, { DATA_DIR: dataDir, ...env });
/** What stderr says from the refusal on: the lines before it say which back-ends the command used. */
const refusalLines = (stderr: string) => {
  const lines = stderr.trimEnd().split('\n');
  return lines.slice(lines.findIndex((line) => line.startsWith('error:')));
};

describe('cli user update', () => {
  it('suspends a user, who gets 403 on its next request, and reactivates it', async () => {
    const user = await createTestUser({ role: 'user' });
    const run = await cli(['user', 'update', String(user.record.id), '--status', 'suspended']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: user.record.id, status: 'suspended' });
    expect((await invoke('getCurrentUser', { token: user.token })).status).toBe(403);
    expect((await cli(['user', 'update', String(user.record.id), '--status', 'active'])).status).toBe(0);
    expect((await invoke('getCurrentUser', { token: user.token })).status).toBe(200);
  });

  it('promotes a sub user to admin, dropping its parent, and says why a bad change is refused', async () => {
    const parent = await createTestUser({ role: 'user' });
    const sub = await createTestUser({ role: 'sub', parent: parent.record.id });
    const promoted = await cli(['user', 'update', String(sub.record.id), '--role', 'admin']);
    expect(JSON.parse(promoted.stdout)).toMatchObject({ role: 'admin', parent: null });
    const refused = await cli(['user', 'update', String(parent.record.id), '--role', 'sub']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/parent: A sub user needs a parent of role user/);
    const missing = await cli(['user', 'update', '999999', '--status', 'active']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/No such user/);
  });
});

describe('cli user delete and get', () => {
  it('deletes a user, whose token is then refused with 401, and frees its email', async () => {
    const user = await createTestUser({ role: 'user' });
    expect((await cli(['user', 'get', String(user.record.id)])).stdout).toContain(user.record.email);
    const run = await cli(['user', 'delete', String(user.record.id)]);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: user.record.id, email: user.record.email });
    expect((await invoke('getCurrentUser', { token: user.token })).status).toBe(401);
    expect((await cli(['user', 'get', String(user.record.id)])).status).toBe(1);
    expect((await cli(['user', 'create', '--email', user.record.email])).status).toBe(0);
  });

  it('refuses to delete a user that has sub users, with the reason', async () => {
    const parent = await createTestUser({ role: 'user' });
    await createTestUser({ role: 'sub', parent: parent.record.id });
    const run = await cli(['user', 'delete', String(parent.record.id)]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/has sub users/);
    expect((await invoke('getCurrentUser', { token: parent.token })).status).toBe(200);
  });

  it('says the refusal in one line, without the field list of a change nobody asked for', async () => {
    const parent = await createTestUser({ role: 'user' });
    await createTestUser({ role: 'sub', parent: parent.record.id });

    const run = await cli(['user', 'delete', String(parent.record.id)]);

    expect(refusalLines(run.stderr)).toEqual(['error: The user has sub users: delete or move them first.']);
  });
});

describe('cli user list', () => {
  it('prints every user of the given roles and statuses, across listing pages, by id', async () => {
    // More than one page of the listing (100 a page).
    const admins = [];
    for (let index = 0; index < 105; index += 15) admins.push(...(await Promise.all(Array.from({ length: 15 }, () => createTestUser({ role: 'admin' })))));
    await cli(['user', 'update', String(admins[1]?.record.id), '--status', 'suspended']);
    const all = await cli(['user', 'list']);
    expect(all.status).toBe(0);
    const everyone = JSON.parse(all.stdout) as { id: number; role: string; status: string }[];
    expect(everyone.map((user) => user.id)).toEqual([...everyone.map((user) => user.id)].sort((a, b) => a - b));
    expect(everyone.map((user) => user.id)).toEqual(expect.arrayContaining(admins.map((admin) => admin.record.id)));
    expect(new Set(everyone.map((user) => user.id)).size).toBe(everyone.length);
    const active = JSON.parse((await cli(['user', 'list', '--role', 'admin', '--status', 'active'])).stdout) as { id: number; role: string; status: string }[];
    expect(active.every((user) => user.role === 'admin' && user.status === 'active')).toBe(true);
    expect(active.map((user) => user.id)).toEqual(expect.arrayContaining([admins[0]?.record.id, admins[2]?.record.id]));
    expect(active.map((user) => user.id)).not.toContain(admins[1]?.record.id);
    const both = JSON.parse((await cli(['user', 'list', '--role', 'admin', '--status', 'active,suspended'])).stdout) as { id: number }[];
    expect(both.map((user) => user.id)).toEqual(expect.arrayContaining(admins.map((admin) => admin.record.id)));
    expect(active).toHaveLength(both.length - 1);
  });

  it('refuses an unknown role with the field named', async () => {
    const run = await cli(['user', 'list', '--role', 'king']);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/role/);
    expect(run.stdout).toBe('');
  });
});

describe('cli user create with an external issuer', () => {
  it('requires --subject: the default local subject is no token of that issuer', async () => {
    const run = await cli(['user', 'create', '--email', 'external@example.com'], {
      AUTH_ISSUER: 'https://idp.example.com/', AUTH_AUDIENCE: 'frontend', AUTH_JWKS_URL: 'http://127.0.0.1:9/jwks.json',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--subject/);
  });
});
