import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PortReservation, reservePort } from '../../local/backends/ports';
import { stateFilePath } from '../../local/backends/state-file';
import { runEntryPoint, startLocalServer, type EnvOverrides } from './entry-points';

/**
 * `npm start` (bin/local.ts) as a newcomer meets it: it says on stderr what it starts and how long
 * each step took, prints only its URLs on stdout, and refuses bad settings, a taken port or an
 * unusable data directory in one line, before starting anything.
 */

const scratch = mkdtempSync(join(tmpdir(), 'frontend-api-npm-start-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** No bring-your-own endpoints: `npm start` starts its own children, as on a developer machine. */
const OWN_BACKENDS: EnvOverrides = { DYNAMODB_ENDPOINT: undefined, S3_ENDPOINT: undefined };

/** A folder this process cannot write to; as root (which ignores permission bits), sysfs. */
function unwritableFolder(): string {
  const folder = mkdtempSync(join(scratch, 'read-only-'));
  chmodSync(folder, 0o555);
  for (const candidate of [folder, '/sys']) {
    try {
      writeFileSync(join(candidate, 'probe'), '');
    } catch {
      return candidate;
    }
  }
  throw new Error('no unwritable folder found to test with');
}

describe('npm start on a new data directory', () => {
  const dataDir = join(scratch, 'data');
  let server: Awaited<ReturnType<typeof startLocalServer>>;

  beforeAll(async () => {
    server = await startLocalServer({ ...OWN_BACKENDS, DATA_DIR: dataDir, PORT: '0' });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('says on stderr what it starts and how long each step took', () => {
    const lines = server.stderr().trim().split('\n').filter((line) => !line.startsWith('still '));

    expect(lines).toEqual([
      expect.stringMatching(/^starting (DynamoDB Local|local S3)…$/),
      expect.stringMatching(/^starting (DynamoDB Local|local S3)…$/),
      expect.stringMatching(/^(DynamoDB Local|local S3) ready on http:\/\/127\.0\.0\.1:\d+ in \d+\.\d s$/),
      expect.stringMatching(/^(DynamoDB Local|local S3) ready on http:\/\/127\.0\.0\.1:\d+ in \d+\.\d s$/),
      'creating the tables and the bucket…',
      expect.stringMatching(/^tables and bucket ready in \d+\.\d s \(created Users, MediaLogV2, MediaLogCountsV2, MediaLogDeltas, Idempotency, LiveConnections, \S+\)$/),
      expect.stringMatching(/^Frontend API ready in \d+\.\d s$/),
    ]);
    expect(new Set(lines.slice(0, 2)).size).toBe(2);
  });

  it('prints only the URLs on stdout', () => {
    expect(server.stdout().trim().split('\n')).toEqual([
      expect.stringMatching(/^Frontend API listening on http:\/\/127\.0\.0\.1:\d+\/frontend\/api\/v1$/),
      expect.stringMatching(/^Live media log \(WebSocket\): ws:\/\/127\.0\.0\.1:\d+\/live$/),
      expect.stringMatching(/^Interactive documentation: http:\/\/127\.0\.0\.1:\d+\/frontend\/api\/v1\/docs$/),
    ]);
  });

  it('lets a CLI command say in one line that it uses these back-ends, and keep stdout for its result', async () => {
    const run = await runEntryPoint('cli', ['user', 'create', '--email', 'reuse@example.com'], { env: { ...OWN_BACKENDS, DATA_DIR: dataDir } });

    expect(run.status).toBe(0);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^using the back-ends of npm start \\(pid \\d+\\) on ${dataDir}$`))]);
    expect(JSON.parse(run.stdout)).toMatchObject({ email: 'reuse@example.com' });
  }, 60_000);

  it('sends a browser from its address and the API base URL to the docs page', async () => {
    const origin = new URL(server.apiUrl).origin;

    const answers = await Promise.all([`${origin}/`, server.apiUrl].map((url) => fetch(url, { redirect: 'manual' })));

    expect(answers.map((answer) => [answer.status, answer.headers.get('location')])).toEqual([
      [302, '/frontend/api/v1/docs'],
      [302, '/frontend/api/v1/docs'],
    ]);
  });

  it('stops its back-ends on Ctrl-C and exits 0', async () => {
    const ended = await server.stop();

    expect(ended.status).toBe(0);
    expect(existsSync(stateFilePath(dataDir))).toBe(false);
  }, 30_000);
});

describe('npm start refusing what cannot work, in one line and before starting anything', () => {
  let blocker: PortReservation;
  let busyPort: number;

  beforeAll(async () => {
    blocker = await reservePort(0, 'the test', 'none');
    busyPort = blocker.port;
  });

  afterAll(() => blocker.release());

  const aFile = () => {
    const file = join(scratch, `file-${Math.random()}`);
    writeFileSync(file, 'not a folder');
    return file;
  };

  it.each<[string, () => EnvOverrides, RegExp]>([
    ['a port taken by another process', () => ({ PORT: String(busyPort) }), /^The local gateway cannot listen on port \d+: it is already in use; stop what holds it, or set PORT to another port/],
    ['PORT=80000', () => ({ PORT: '80000' }), /^PORT="80000" cannot be used: set a whole number from 0 to 65535 \(the port of the local gateway/],
    ['PORT=abc', () => ({ PORT: 'abc' }), /^PORT="abc" cannot be used: set a whole number from 0 to 65535/],
    ['AVATAR_MAX_BYTES=-1', () => ({ AVATAR_MAX_BYTES: '-1' }), /^AVATAR_MAX_BYTES="-1" cannot be used: set a whole number from 1 to 104857600 \(the largest avatar image fetched, in bytes\), or unset it for 10 MB\.$/],
    ['AUTHORIZER_CACHE_TTL=x', () => ({ AUTHORIZER_CACHE_TTL: 'x' }), /^AUTHORIZER_CACHE_TTL="x" cannot be used: set a whole number from 0 to 3600/],
    ['DATA_DIR naming a file', () => ({ DATA_DIR: aFile() }), /^DATA_DIR \S+ cannot be used: it is a file, not a folder; set DATA_DIR to a folder you can write to\.$/],
    ['DATA_DIR inside a file', () => ({ DATA_DIR: join(aFile(), 'data') }), /^DATA_DIR \S+ cannot be used: \S+ is a file, not a folder;/],
    ['DATA_DIR in a folder it cannot write to', () => ({ DATA_DIR: unwritableFolder() }), /^DATA_DIR \S+ cannot be used: permission denied; set DATA_DIR to a folder you can write to\.$/],
  ])('refuses %s', async (_case, env, message) => {
    const overrides = { ...OWN_BACKENDS, DATA_DIR: join(scratch, `unused-${Math.random()}`), PORT: '0', ...env() };

    const run = await runEntryPoint('local', [], { env: overrides });

    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
    expect(run.stdout).toBe('');
  }, 60_000);

  it('leaves a new data directory uncreated when the port is taken', async () => {
    const dataDir = join(scratch, 'never-created');

    await runEntryPoint('local', [], { env: { ...OWN_BACKENDS, DATA_DIR: dataDir, PORT: String(busyPort) } });

    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);
});
