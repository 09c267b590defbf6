import { runSmokeCommand } from './smoke-runner';

/**
 * The command line of `npm run smoke`: --help, and every mistake answered with one line on stderr
 * and exit 2 before any request is made (the URLs here point at a closed loopback port anyway).
 */

const URL_ARGS = ['--url', 'http://127.0.0.1:9/frontend/api/v1'];

describe('npm run smoke -- --help', () => {
  it('prints the usage and exits 0', async () => {
    const run = await runSmokeCommand(['--help']);
    expect(run.stdout).toMatch(/^usage: npm run --silent smoke -- --url API_URL \[--token TOKEN\] \[--origin ORIGIN\] \[--timeout-ms N\]\n/);
    expect(run.stdout).toContain('Exit status: 0 when every check that ran passed, 1 when one failed, 2 for a usage error.');
    expect(run.status).toBe(0);
  });
});

describe('a usage error', () => {
  it.concurrent.each([
    ['no --url', [], "--url is required: the API's base URL (the ApiUrl stack output)."],
    ['a URL that is not http(s)', ['--url', 'ftp://example.com/frontend/api/v1'], "--url takes the API's base URL, http(s)://host/…/frontend/api/v1 without query or credentials; got 'ftp://example.com/frontend/api/v1'."],
    ['a URL that does not parse', ['--url', 'api.example.com'], "--url takes the API's base URL, http(s)://host/…/frontend/api/v1 without query or credentials; got 'api.example.com'."],
    ['an unknown option', [...URL_ARGS, '--retries', '3'], "Unknown option '--retries'"],
    ['a time limit of 0', [...URL_ARGS, '--timeout-ms', '0'], '--timeout-ms takes a whole number of milliseconds from 1 to 600000.'],
    ['an origin with a path', [...URL_ARGS, '--origin', 'https://app.example.com/'], "--origin takes an origin as a browser sends it, e.g. https://app.example.com (no path, no trailing slash); got 'https://app.example.com/'."],
    ['a token with its scheme', [...URL_ARGS, '--token', 'Bearer abc'], '--token takes the bearer token itself (letters, digits and -._~+/, without "Bearer ").'],
  ])('(%s) is one line on stderr, nothing on stdout, exit 2', async (_case, args, reason) => {
    const run = await runSmokeCommand(args);
    expect(run.stderr).toMatch(new RegExp(`^usage error: ${reason.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\n]*\\n$`));
    expect(run.stdout).toBe('');
    expect(run.status).toBe(2);
  });
});
