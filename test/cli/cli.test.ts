import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { createTestUser } from '../harness/users';

const dataDir = mkdtempSync(join(tmpdir(), 'frontend-api-cli-'));

/** Run the operator CLI as an operator would, on this test file's backends and database. */
function cli(args: string[], env: Record<string, string> = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(process.cwd(), 'bin', 'cli.ts'), ...args],
      { env: { ...process.env, DATA_DIR: dataDir, NODE_OPTIONS: '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('cli user create', () => {
  it('creates a user and prints it as JSON', async () => {
    const run = await cli(['user', 'create', '--email', 'cli-ada@example.com', '--role', 'admin', '--first-name', 'Ada']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ email: 'cli-ada@example.com', role: 'admin', status: 'active', 'first-name': 'Ada', parent: null });
  });

  it('refuses a taken email', async () => {
    await cli(['user', 'create', '--email', 'cli-twice@example.com']);
    const again = await cli(['user', 'create', '--email', 'CLI-TWICE@example.com']);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
  });

  it('requires a parent of role user for a sub user', async () => {
    const missing = await cli(['user', 'create', '--email', 'cli-sub1@example.com', '--role', 'sub']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/parent: A sub user needs a parent of role user/);
    const admin = await createTestUser({ role: 'admin' });
    const wrongParent = await cli(['user', 'create', '--email', 'cli-sub2@example.com', '--role', 'sub', '--parent', String(admin.record.id)]);
    expect(wrongParent.status).toBe(1);
    expect(wrongParent.stderr).toMatch(/parent user does not exist or is not of role user/);
  });

  it('refuses an unknown role with the field named', async () => {
    const run = await cli(['user', 'create', '--email', 'cli-x@example.com', '--role', 'emperor']);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/role:/);
  });

  it('says the invalid fields as the one reason, on one line', async () => {
    const run = await cli(['user', 'create', '--email', 'not-an-address', '--role', 'emperor']);

    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe('error: email: Invalid email address; role: Invalid option: expected one of "root"|"admin"|"user"|"sub"');
    expect(run.stderr).not.toMatch(/invalid parameters or fields/);
  });
});

describe('cli token', () => {
  it('mints a token for the user, signed by the data directory key', async () => {
    const user = await createTestUser();
    const run = await cli(['token', '--user', String(user.record.id), '--ttl', '120']);
    expect(run.status).toBe(0);
    const claims = decodeJwt(run.stdout.trim());
    expect(claims).toMatchObject({ sub: user.record.subject, iss: 'urn:frontend-api:local', aud: 'frontend-api' });
    expect((claims.exp as number) - (claims.iat as number)).toBe(120);
  });

  it('refuses in one line when an external issuer is configured', async () => {
    const run = await cli(['token', '--user', '1'], { AUTH_ISSUER: 'https://idp.example.test/', AUTH_AUDIENCE: 'x', AUTH_JWKS_URL: 'http://127.0.0.1:9/jwks' });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/external issuer/);
  });
});

describe('cli seed', () => {
  it('creates demo users and log entries', async () => {
    const run = await cli(['seed', '--users', '6', '--log', '30']);
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe('6 users and 30 media log entries created');
  });

  it('runs again on the same data without clashing with the entries of the first run', async () => {
    await cli(['seed', '--users', '1', '--log', '3']);

    const again = await cli(['seed', '--users', '1', '--log', '3']);

    expect(again.status).toBe(0);
    expect(again.stdout.trim()).toBe('1 users and 3 media log entries created');
  });

  it('shows its progress as plain lines on stderr when stderr is no terminal', async () => {
    const run = await cli(['seed', '--users', '2', '--log', '5']);

    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/^users: 0\/2\nusers: 2\/2 in \d+\.\d s \(\d+\/s\)\nmedia log: 0\/5\nmedia log: 5\/5 in \d+\.\d s \(\d+\/s\)$/m);
  });
});
