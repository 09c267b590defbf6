import type { ServerResponse } from 'node:http';
import { freePort } from '../avatars/fetch/local-servers';
import { runSmokeCommand, startFakeStage, type FakeStage } from './smoke-runner';

/**
 * `npm run smoke` against stages that are wrong in the ways a deployment goes wrong — a server
 * that answers 200 to anything, a 401 without its challenge, API Gateway's unconfigured answers —
 * and against no stage at all (refused, cut, silent, not TLS): each check fails with its one-line
 * reason and the command exits 1. Every server here listens on 127.0.0.1.
 */

const TOKEN = 'a.b.c';
const ORIGIN = 'https://app.example.com';
const stages: FakeStage[] = [];

afterEach(async () => {
  await Promise.all(stages.splice(0).map((stage) => stage.close()));
});

async function stageAnswering(status: number, headers: Record<string, string>, body: string): Promise<FakeStage> {
  const stage = await startFakeStage((_request, response: ServerResponse) => response.writeHead(status, headers).end(body));
  stages.push(stage);
  return stage;
}

function failures(lines: readonly string[]): string[] {
  return lines.filter((line) => line.startsWith('FAIL'));
}

describe('npm run smoke against a wrong stage', () => {
  it('fails every check of a server that answers 200 {} to everything', async () => {
    const stage = await stageAnswering(200, { 'content-type': 'application/json' }, '{}');
    const run = await runSmokeCommand(['--url', stage.baseUrl, '--token', TOKEN, '--origin', ORIGIN]);
    expect(run.lines).toEqual([
      'FAIL document: expected openapi 3.1.x, got none; the document has no paths',
      'FAIL 401: expected 401, got 200 (application/json)',
      `FAIL preflight: no Access-Control-Allow-Origin for ${ORIGIN} (is it in the stage's corsOrigins?)`,
      expect.stringMatching(/^FAIL user: the body is not a User \(id: .+\); no ETag; no Cache-Control: no-store on personal data; no Access-Control-Allow-Origin for https:\/\/app\.example\.com/),
      'FAIL 404: expected 404, got 200 (application/json)',
    ]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('smoke: 5 of 5 checks failed\n');
  });

  it('fails the 401 check of a 401 problem without WWW-Authenticate', async () => {
    const problem = { type: 'urn:frontend-api:problem:unauthorized', title: 'Unauthorized', status: 401, detail: 'A valid bearer token is required.', code: 'unauthorized' };
    const stage = await stageAnswering(401, { 'content-type': 'application/problem+json' }, JSON.stringify(problem));
    const run = await runSmokeCommand(['--url', stage.baseUrl]);
    expect(run.lines[1]).toBe('FAIL 401: expected WWW-Authenticate: Bearer error="invalid_token", got none');
    expect(run.status).toBe(1);
  });

  it("fails the problem checks of API Gateway's uncustomised answers", async () => {
    const stage = await stageAnswering(403, { 'content-type': 'application/json' }, '{"message":"Missing Authentication Token"}');
    const run = await runSmokeCommand(['--url', stage.baseUrl]);
    expect(run.lines[1]).toBe('FAIL 401: expected 401, got 403 "Missing Authentication Token"');
    expect(run.lines[4]).toBe('FAIL 404: expected 404, got 403 "Missing Authentication Token"');
    expect(run.status).toBe(1);
  });
});

describe('npm run smoke without a stage to answer', () => {
  it('says the connection was refused', async () => {
    const port = await freePort();
    const run = await runSmokeCommand(['--url', `http://127.0.0.1:${port}/frontend/api/v1`, '--token', TOKEN]);
    expect(failures(run.lines)).toEqual(['document', '401', 'user', '404'].map((name) => `FAIL ${name}: connection refused by 127.0.0.1:${port}`));
    expect(run.status).toBe(1);
  });

  it('says when the server closed the connection without answering', async () => {
    const stage = await startFakeStage((request) => request.socket.destroy());
    stages.push(stage);
    const run = await runSmokeCommand(['--url', stage.baseUrl]);
    expect(run.lines[0]).toBe(`FAIL document: connection to 127.0.0.1:${stage.port} closed before a complete answer (UND_ERR_SOCKET)`);
    expect(run.status).toBe(1);
  });

  it('gives up on a server that never answers after --timeout-ms, without retrying', async () => {
    let requests = 0;
    const stage = await startFakeStage(() => {
      requests += 1;
    });
    stages.push(stage);
    const run = await runSmokeCommand(['--url', stage.baseUrl, '--timeout-ms', '500']);
    expect(failures(run.lines)).toEqual(['document', '401', '404'].map((name) => `FAIL ${name}: no complete answer within 500 ms (timeout)`));
    expect(requests).toBe(3);
    expect(run.status).toBe(1);
  });

  it('reports a TLS error when the server does not speak TLS', async () => {
    const stage = await stageAnswering(200, {}, '');
    const run = await runSmokeCommand(['--url', stage.baseUrl.replace('http:', 'https:')]);
    expect(run.lines[0]).toMatch(new RegExp(`^FAIL document: TLS error with 127\\.0\\.0\\.1:${stage.port}: \\S`));
    expect(run.status).toBe(1);
  });
});
