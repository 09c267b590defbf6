import { connect } from 'node:net';
import { AuthorizerRunner, loadAuthorizer } from '../../local/gateway/authorizer-runner';
import { startGateway, type LocalGateway } from '../../local/gateway/http-server';
import { testSigningKey } from '../harness/invoke';

/**
 * Request heads larger than API Gateway takes (a regional REST API: a URL of at most 10,240
 * characters, headers of at most 10,240 bytes in all) are answered by the local gateway as the
 * gateway's other answers are: a problem, with the gateway's CORS headers, the connection closed.
 * Spoken over a raw socket: an HTTP client library would refuse to send such requests, or would
 * hide how the server ended the exchange.
 */

const PREFIX = '/frontend/api/v1';
const DEV_SERVER = 'http://localhost:5173';
const KiB = 1024;
let gateway: LocalGateway;

beforeAll(async () => {
  await testSigningKey();
  gateway = await startGateway(new AuthorizerRunner(await loadAuthorizer(), 0), 0, { accessLog: null });
});

afterAll(async () => {
  await gateway.close();
});

/** A raw answer: status, headers (lower-case names) and body, once the gateway closed the connection. */
interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Sends `head` (request line and headers, no body) as it is and reads until the gateway closes the connection. */
function exchange(head: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(gateway.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    // A gateway that leaves the socket open would hang the exchange: fail instead.
    socket.setTimeout(5_000, () => socket.destroy(new Error('The gateway left the connection open.')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...body] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body.join('\r\n\r\n') });
    });
    socket.end(head);
  });
}

/** A GET of the caller's profile whose query brings the request target to `targetLength` characters. */
function longTarget(targetLength: number): string {
  const path = `${PREFIX}/user/current?q=`;
  return `${path}${'a'.repeat(targetLength - path.length)}`;
}

function request(target: string, headers: readonly string[] = []): string {
  return [`GET ${target} HTTP/1.1`, 'Host: 127.0.0.1', `Origin: ${DEV_SERVER}`, 'Connection: close', ...headers, '', ''].join('\r\n');
}

function expectProblem(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/problem+json');
  expect(JSON.parse(answer.body)).toEqual({ type: `urn:frontend-api:problem:${code}`, title: expect.any(String), status, detail: expect.any(String), code });
  expect(answer.headers['access-control-expose-headers']).toBe('ETag, Retry-After, WWW-Authenticate');
}

describe('a request URL longer than API Gateway takes', () => {
  it('is answered 414 uri_too_long as a problem with the CORS headers of a gateway answer, for a 20 KiB request line', async () => {
    const answer = await exchange(request(longTarget(20 * KiB)));

    expectProblem(answer, 414, 'uri_too_long');
    expect(answer.headers['access-control-allow-origin']).toBe(DEV_SERVER);
    expect(answer.headers.connection).toBe('close');
  });

  it('is answered 414 as a problem even past what the HTTP parser reads (a 64 KiB request line), and the connection closed', async () => {
    const answer = await exchange(request(longTarget(64 * KiB)));

    expectProblem(answer, 414, 'uri_too_long');
    expect(answer.headers.connection).toBe('close');
  });

  it('is not refused at 10,240 characters, even beside 9 KiB of headers', async () => {
    const answer = await exchange(request(longTarget(10_240), [`X-Padding: ${'p'.repeat(9 * KiB)}`]));

    // No token: the authorizer's 401, which proves the request got through to the route.
    expect(answer.status).toBe(401);
  });
});

describe('request headers larger than API Gateway takes', () => {
  it('are answered 431 header_fields_too_large as a problem when over 10,240 bytes in all', async () => {
    const answer = await exchange(request(`${PREFIX}/user/current`, [`X-Padding: ${'p'.repeat(12 * KiB)}`]));

    expectProblem(answer, 431, 'header_fields_too_large');
    expect(answer.headers['access-control-allow-origin']).toBe(DEV_SERVER);
  });

  it('are answered 431 as a problem even past what the HTTP parser reads (a 40 KiB header), and the connection closed', async () => {
    const answer = await exchange(request(`${PREFIX}/user/current`, [`X-Padding: ${'p'.repeat(40 * KiB)}`]));

    expectProblem(answer, 431, 'header_fields_too_large');
    expect(answer.headers.connection).toBe('close');
  });
});

describe('a request the HTTP parser cannot read', () => {
  it('is answered 400 bad_request as a problem, and the connection closed', async () => {
    const answer = await exchange('GET /frontend api v1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');

    expectProblem(answer, 400, 'bad_request');
    expect(answer.headers.connection).toBe('close');
  });
});
