import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dataConfig } from '../../functions/shared/config/data-config';
import { ConfigurationError, resetConfiguration } from '../../functions/shared/config/define-config';
import { cursorConfig } from '../../functions/shared/listing/cursor-config';

/**
 * A deployed function fails closed on configuration: without its table names, bucket or cursor key
 * (or with a key too short to protect anything) it does not start, rather than fall back to a
 * default table or a public built-in key. Only the local environment supplies local defaults.
 */

const saved = { ...process.env };

afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
  resetConfiguration();
});

/** Import a handler module in a fresh process, as Lambda does at cold start, with `env` as its whole environment. */
function coldStart(handler: string, env: Record<string, string | undefined>): Promise<{ status: number; stderr: string }> {
  const script = `await import(${JSON.stringify(pathToFileURL(join(process.cwd(), handler)).href)});`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: env as NodeJS.ProcessEnv, timeout: 60_000 }, (error, _stdout, stderr) =>
      resolve({ status: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
}

describe('the data configuration', () => {
  it('names every missing table and the bucket instead of defaulting to Users, MediaLog or avatars', () => {
    delete process.env.USERS_TABLE_NAME;
    delete process.env.MEDIA_LOG_TABLE_NAME;
    delete process.env.MEDIA_LOG_COUNTS_TABLE_NAME;
    delete process.env.MEDIA_LOG_DELTAS_TABLE_NAME;
    delete process.env.IDEMPOTENCY_TABLE_NAME;
    delete process.env.LIVE_CONNECTIONS_TABLE_NAME;
    delete process.env.AVATAR_BUCKET_NAME;
    resetConfiguration();
    expect(() => dataConfig()).toThrow(ConfigurationError);
    expect(() => dataConfig()).toThrow(/USERS_TABLE_NAME is required.*MEDIA_LOG_TABLE_NAME is required.*MEDIA_LOG_COUNTS_TABLE_NAME is required.*MEDIA_LOG_DELTAS_TABLE_NAME is required.*IDEMPOTENCY_TABLE_NAME is required.*LIVE_CONNECTIONS_TABLE_NAME is required.*AVATAR_BUCKET_NAME is required/);
  });
});

describe('a table layout stated by the stack', () => {
  it('that this code keeps is accepted', () => {
    process.env.MEDIA_LOG_TABLE_LAYOUT = '2';
    process.env.MEDIA_LOG_COUNTS_TABLE_LAYOUT = '2';
    resetConfiguration();
    expect(() => dataConfig()).not.toThrow();
  });

  it('that this code does not keep stops the function: half-way through an update, it never writes one layout into the other', () => {
    process.env.MEDIA_LOG_COUNTS_TABLE_LAYOUT = '3';
    resetConfiguration();
    expect(() => dataConfig()).toThrow(ConfigurationError);
    expect(() => dataConfig()).toThrow(/MEDIA_LOG_COUNTS_TABLE_LAYOUT=3, but this code keeps the MediaLogCounts table in layout 2/);
  });
});

describe('the cursor key', () => {
  it.each([
    ['missing', undefined, /CURSOR_SECRET is required/],
    ['shorter than 32 characters', 'frontend-api-cursor', /CURSOR_SECRET must be at least 32 characters/],
  ])('is refused when %s', (_name, value, message) => {
    if (value === undefined) delete process.env.CURSOR_SECRET;
    else process.env.CURSOR_SECRET = value;
    resetConfiguration();
    expect(() => cursorConfig()).toThrow(message);
  });
});

describe('a cold start', () => {
  const environment = () => ({
    PATH: process.env.PATH,
    AWS_REGION: 'us-east-1',
    USERS_TABLE_NAME: 'users-prod',
    MEDIA_LOG_TABLE_NAME: 'media-log-prod',
    MEDIA_LOG_COUNTS_TABLE_NAME: 'media-log-counts-prod',
    MEDIA_LOG_DELTAS_TABLE_NAME: 'media-log-deltas-prod',
    IDEMPOTENCY_TABLE_NAME: 'idempotency-prod',
    LIVE_CONNECTIONS_TABLE_NAME: 'live-connections-prod',
    AVATAR_BUCKET_NAME: 'avatars-prod',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  });

  it('of a paging function without its cursor key fails, naming it', async () => {
    const started = await coldStart('functions/users/list-users.ts', environment());
    expect(started.status).not.toBe(0);
    expect(started.stderr).toMatch(/CURSOR_SECRET is required/);
  }, 60_000);

  it('of the counter fold under a media log layout its code does not keep fails, naming it', async () => {
    const started = await coldStart('functions/media-log/fold/fold-media-log-counts.ts', { ...environment(), MEDIA_LOG_TABLE_LAYOUT: '3', MEDIA_LOG_COUNTS_TABLE_LAYOUT: '3' });
    expect(started.status).not.toBe(0);
    expect(started.stderr).toMatch(/MEDIA_LOG_TABLE_LAYOUT=3, but this code keeps the MediaLog table in layout 2/);
  }, 60_000);

  it('of the same function with every variable set succeeds', async () => {
    const started = await coldStart('functions/users/list-users.ts', { ...environment(), CURSOR_SECRET: 'a'.repeat(48) });
    expect(started).toEqual({ status: 0, stderr: '' });
  }, 60_000);
});
