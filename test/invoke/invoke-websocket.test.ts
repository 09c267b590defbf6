import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webSocketRoutes } from '../../functions/live/connections/websocket-routes';

/**
 * `invoke` and the live media log's WebSocket routes (DESIGN.md 7c, 8): listed as
 * `NAME<TAB>WEBSOCKET <route key>`, their events generated as the local WebSocket server builds
 * them, and run once on such an event.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'frontend-api-invoke-ws-'));

function runInvoke(args: string[], stdin?: string): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', join(process.cwd(), 'bin', 'invoke.ts'), ...args],
      { env: { ...process.env, DATA_DIR: dataDir, NODE_OPTIONS: '' }, timeout: 90_000 },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(stdin ?? '');
  });
}

describe('npm run invoke and the WebSocket routes', () => {
  it('--list names each WebSocket route by its route key, and the live consumers and sweep', async () => {
    const lines = (await runInvoke(['--list'])).stdout.trim().split('\n');
    for (const route of webSocketRoutes) expect(lines).toContain(`${route.name}\tWEBSOCKET ${route.routeKey}`);
    expect(lines).toEqual(expect.arrayContaining(['notifyMediaLogWatchers\tSTREAM MediaLog', 'reviseLiveAccess\tSTREAM Users', 'closeExpiredLiveConnections\tSCHEDULE rate(1 minute)']));
  }, 90_000);

  it("--generate-event 'WEBSOCKET $connect?…' builds the $connect event with the headers given", async () => {
    const run = await runInvoke(['--generate-event', 'WEBSOCKET $connect?ticket=abc', '--header', 'Origin: http://localhost:5173', '--connection', 'Conn1234567890A=']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      headers: { Origin: 'http://localhost:5173', Host: expect.stringMatching(/^127\.0\.0\.1:\d+$/) },
      queryStringParameters: { ticket: 'abc' },
      requestContext: { routeKey: '$connect', eventType: 'CONNECT', connectionId: 'Conn1234567890A=', stage: 'live' },
    });
  }, 90_000);

  it('runs a route on a generated message event: $connect refuses an unknown ticket, $default answers a frame that is not JSON', async () => {
    const connect = await runInvoke(['--generate-event', `WEBSOCKET $connect?ticket=${'A'.repeat(43)}`]);
    const refused = await runInvoke(['liveConnect'], connect.stdout);
    expect(refused.status).toBe(0);
    expect(JSON.parse(refused.stdout)).toEqual({ statusCode: 401 });

    const message = await runInvoke(['--generate-event', 'WEBSOCKET $default', '--body', 'hello']);
    const answered = await runInvoke(['liveDefault'], message.stdout);
    expect(answered.status).toBe(0);
    expect(JSON.parse(JSON.parse(answered.stdout).body)).toMatchObject({ type: 'error', status: 400, code: 'malformed_body' });
  }, 180_000);

  it.each([
    [['--generate-event', 'WEBSOCKET publish', '--body', '{}'], undefined, /has no route publish/],
    [['--generate-event', 'WEBSOCKET subscribe'], undefined, /needs the message/],
    [['--generate-event', 'GET /user/current', '--connection', 'x'], undefined, /--connection goes with/],
    [['liveDefault'], '{"httpMethod":"GET","path":"/","resource":"/","requestContext":{}}', /liveDefault takes an API Gateway WebSocket event/],
  ])('exits 2 with a one-line reason for %j', async (args, stdin, reason) => {
    const run = await runInvoke(args as string[], stdin as string | undefined);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(reason as RegExp);
  }, 90_000);
});
