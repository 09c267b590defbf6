import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deployedFunctions } from '../../functions/deployed-functions';
import { invoke } from '../harness/invoke';
import { createTestUser } from '../harness/users';

const dataDir = mkdtempSync(join(tmpdir(), 'frontend-api-invoke-'));

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

/** Run `npm run invoke` as a developer would, on this test file's backends and database. */
function runInvoke(args: string[], stdin?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', join(process.cwd(), 'bin', 'invoke.ts'), ...args],
      { env: { ...process.env, DATA_DIR: dataDir, NODE_OPTIONS: '', POWERTOOLS_LOG_LEVEL: 'INFO' }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    if (stdin !== undefined) child.stdin?.end(stdin);
    else child.stdin?.end();
  });
}

describe('npm run invoke', () => {
  it('--list prints every route, the authorizer, the scheduled function, the queue consumer and the stream consumer, tab-separated', async () => {
    const run = await runInvoke(['--list']);
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(deployedFunctions.length);
    expect(lines).toContain('reconcileAvatarObjects\tSCHEDULE rate(1 day)');
    expect(lines).toContain('getUser\tGET /frontend/api/v1/user/{user-id}');
    expect(lines).toContain('authorizer\tAUTHORIZER');
    expect(lines).toContain('ingestMediaLog\tQUEUE MediaLogEvents');
    expect(lines).toContain('foldMediaLogCounts\tSTREAM MediaLog');
    expect(lines).toContain('liveConnect\tWEBSOCKET $connect');
  });

  it('--generate-event builds the gateway event, with the real authorizer context for --user', async () => {
    const parent = await createTestUser({ role: 'user' });
    const sub = await createTestUser({ role: 'sub', parent: parent.record.id });
    const run = await runInvoke(['--generate-event', `PUT /user/${sub.record.id}?a=1&a=2`, '--body', '{"first-name":"Gen"}', '--header', 'X-Trace: t1', '--user', String(sub.record.id)]);
    expect(run.status).toBe(0);
    const event = JSON.parse(run.stdout);
    expect(event).toMatchObject({
      resource: '/frontend/api/v1/user/{user-id}',
      pathParameters: { 'user-id': String(sub.record.id) },
      multiValueQueryStringParameters: { a: ['1', '2'] },
      queryStringParameters: { a: '2' },
      headers: { 'X-Trace': 't1', 'Content-Type': 'application/json' },
      body: '{"first-name":"Gen"}',
      requestContext: {
        resourcePath: '/frontend/api/v1/user/{user-id}',
        httpMethod: 'PUT',
        stage: 'local',
        identity: { sourceIp: '127.0.0.1' },
        authorizer: { userId: String(sub.record.id), role: 'sub', parentId: String(parent.record.id) },
      },
    });
  });

  it('invokes a function on a generated event from stdin; the write is visible to other callers at once; logs stay off stdout', async () => {
    const user = await createTestUser();
    const generated = await runInvoke(['--generate-event', 'PUT /user/current', '--body', '{"last-name":"Invoked"}', '--user', String(user.record.id)]);
    const run = await runInvoke(['updateCurrentUser'], generated.stdout);
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)['last-name']).toBe('Invoked');
    // Exactly the headers the function returns, as API Gateway would get them: none whose value is undefined.
    expect(Object.keys(result.headers)).not.toContain('Server');
    expect(Object.values(result.headers)).not.toContain('undefined');
    expect(run.stderr).toMatch(/"message":"Request"/);
    const reread = await invoke('getCurrentUser', { token: user.token });
    expect(reread.body['last-name']).toBe('Invoked');
  });

  it('invokes the authorizer from an event file, and exits 1 with Unauthorized for a bad token', async () => {
    const event = await runInvoke(['--generate-event', 'GET /user/current', '--header', 'Authorization: Bearer nonsense']);
    const file = join(dataDir, 'proxy.json');
    writeFileSync(file, event.stdout);
    const authorizerEvent = {
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:us-east-1:123456789012:api/prod/GET/frontend/api/v1/user/current',
      ...JSON.parse(event.stdout),
    };
    writeFileSync(join(dataDir, 'authorizer.json'), JSON.stringify(authorizerEvent));
    const refused = await runInvoke(['authorizer', '--event', join(dataDir, 'authorizer.json')]);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim().split('\n').at(-1)).toBe('Unauthorized');
    expect(refused.stdout).toBe('');
  });

  it.each([['--help'], ['-h']])('%s prints the usage on stdout and exits 0', async (flag) => {
    const run = await runInvoke([flag]);

    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Usage: npm run --silent invoke -- <options>\n/);
    expect(run.stdout).toMatch(/^ {2}NAME \[--event FILE\|-\] \[--user ID\]$/m);
    expect(run.stderr).toBe('');
  });

  it('warns on stderr, and still runs, when the event was made for another route', async () => {
    const user = await createTestUser();
    const generated = await runInvoke(['--generate-event', 'PUT /user/current', '--body', '{"last-name":"Elsewhere"}', '--user', String(user.record.id)]);

    const run = await runInvoke(['getCurrentUser'], generated.stdout);

    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).statusCode).toEqual(expect.any(Number));
    expect(run.stderr).toContain(
      'warning: the event is PUT /frontend/api/v1/user/current, but getCurrentUser serves GET /frontend/api/v1/user/current (it is an event for updateCurrentUser); running it anyway.\n',
    );
  });

  it('does not warn when the event fits the function', async () => {
    const user = await createTestUser();
    const generated = await runInvoke(['--generate-event', 'GET /user/current', '--user', String(user.record.id)]);

    const run = await runInvoke(['getCurrentUser'], generated.stdout);

    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).statusCode).toBe(200);
    expect(run.stderr).not.toContain('warning:');
  });

  it.each([
    [['--verbose'], undefined, /^usage error: unknown option '--verbose' \(see --help\)\.\n$/],
    [['--list=yes'], undefined, /^usage error: Option '--list' does not take an argument \(see --help\)\.\n$/],
    [['noSuchFunction'], undefined, /no function named 'noSuchFunction'/],
    [['getCurrentUser', '--event', '/nonexistent/event.json'], undefined, /cannot read the event/],
    [['getCurrentUser'], '{not json', /not valid JSON/],
    [['getCurrentUser'], '{"version":"2.0","routeKey":"GET /x"}', /HTTP API \(v2\) event/],
    [['getCurrentUser'], '{"hello":"world"}', /not an API Gateway REST proxy event/],
    [['--generate-event', 'FETCH'], undefined, /expected 'METHOD PATH/],
    [['--generate-event', 'GET /nowhere'], undefined, /no route matches/],
    [['--generate-event', 'SQS'], undefined, /^usage error: --generate-event SQS takes one --body per message\.\n$/],
    [['--generate-event', 'sqs', '--body', '{}', '--user', '1'], undefined, /an SQS event has no --user or --header/],
    [['ingestMediaLog'], '{"Records":[{"eventSource":"aws:sqs","body":"{}"}]}', /Records must be SQS messages/],
    [['ingestMediaLog'], '{"httpMethod":"GET","path":"/","resource":"/","requestContext":{}}', /ingestMediaLog takes an SQS event/],
  ])('exits 2 with a one-line reason for %j', async (args, stdin, reason) => {
    const run = await runInvoke(args as string[], stdin as string | undefined);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(reason as RegExp);
  });
});
