import { runEntryPoint } from '../local/entry-points';

/** `npm run --silent cli -- …` as someone who does not know it yet types it. */
const cli = (...args: string[]) => runEntryPoint('cli', args);

describe('cli usage', () => {
  it.each([['--help'], ['-h'], ['help']])('%s prints the usage on stdout, starts nothing and exits 0', async (flag) => {
    const run = await cli(flag);

    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Usage: npm run --silent cli -- <command> \[options\]\n/);
    expect(run.stdout).toMatch(/^ {2}token --user ID \[--ttl SECONDS\]\n {6}Prints a bearer token for the user, valid for 3600 s/m);
    expect(run.stderr).toBe('');
  });

  it("prints one command's usage for `<command> --help`", async () => {
    const run = await cli('media-log', 'import', '--help');

    expect(run.status).toBe(0);
    expect(run.stdout).toBe('Usage: npm run --silent cli -- media-log import FILE.ndjson\nImports media log entries, one JSON object a line; a bad line writes nothing.\n');
  });

  it('prints the usage on stderr and exits 2 without a command', async () => {
    const run = await cli();

    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^Usage: npm run --silent cli -- <command>/);
  });

  it.each<[string[], string]>([
    [['frobnicate'], "usage error: unknown command 'frobnicate' (see --help)."],
    [['user', 'rename', '7'], "usage error: unknown command 'user rename' (see --help)."],
    [['--verbose'], "usage error: unknown option '--verbose' (see --help)."],
    [['token', '--user', '1', '--forever'], "usage error: Unknown option '--forever'"],
  ])('says in one line that %j is unknown, and exits 2', async (args, message) => {
    const run = await cli(...args);

    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`${message}\n`);
    expect(run.stdout).toBe('');
  });
});

describe('cli settings', () => {
  it.each<[string, Record<string, string>, RegExp]>([
    ['a malformed limit', { AVATAR_MAX_BYTES: '-1' }, /^AVATAR_MAX_BYTES="-1" cannot be used: set a whole number from 1 to 104857600/],
    ['a DATA_DIR that is a file', { DATA_DIR: '/dev/null' }, /^DATA_DIR \/dev\/null cannot be used: it is a file, not a folder; set DATA_DIR to a folder you can write to\.$/],
  ])('refuses %s in one line, exit 1', async (_case, env, message) => {
    const run = await runEntryPoint('cli', ['token', '--user', '1'], { env: { DYNAMODB_ENDPOINT: undefined, S3_ENDPOINT: undefined, ...env } });

    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
    expect(run.stdout).toBe('');
  });
});
