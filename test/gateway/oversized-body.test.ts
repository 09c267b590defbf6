import { request } from 'node:http';
import { connect } from 'node:net';
import { GATEWAY_LIMITS } from '../../local/gateway/dispatch';
import type { LocalGateway } from '../../local/gateway/http-server';
import { LINGER_LIMITS } from '../../local/gateway/lingering-close';
import { startTestGateway } from '../harness/test-gateway';

/**
 * A body over the gateway's 10 MB is refused with a 413 problem that the client reads, whatever
 * the order it sends and reads in: the gateway answers at once, then reads and drops the rest of
 * the body (within bounds) before it closes, instead of closing on unread bytes, which the kernel
 * answers with a reset that can wipe the answer before the client reads it.
 */

const PATH = '/frontend/api/v1/user/current';
const OVERSIZED = GATEWAY_LIMITS.maxBodyBytes + 1024 * 1024;
let gateway: LocalGateway;

beforeAll(async () => {
  ({ gateway } = await startTestGateway());
});

afterAll(async () => {
  await gateway.close();
});

/** What a raw client saw: the answer's bytes, how much of the body it could send, and its socket's error. */
interface RawOutcome {
  readonly answer: string;
  readonly sent: number;
  readonly error?: string;
  readonly closedAfterMs: number;
}

/**
 * A client that declares `declared` bytes and sends them in 64 KB chunks, reading nothing of its
 * socket until it has sent them all or failed (`readWhileSending` aside): how a simple uploader,
 * Node's http client on a busy loop among them, behaves. `toSend` short of `declared`: it stops
 * sending there, its body unfinished, and waits.
 */
function rawPut(declared: number, toSend: number, readWhileSending = false): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(gateway.port, '127.0.0.1');
    const received: Buffer[] = [];
    let sent = 0;
    let error: string | undefined;
    if (!readWhileSending) socket.pause();
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', (failure: NodeJS.ErrnoException) => (error = failure.code ?? failure.message));
    socket.on('close', () => resolve({ answer: Buffer.concat(received).toString('latin1'), sent, ...(error === undefined ? {} : { error }), closedAfterMs: performance.now() - started }));
    socket.write(`PUT ${PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = (): void => {
      while (sent < toSend && !socket.destroyed) {
        sent += chunk.byteLength;
        if (!socket.write(chunk)) {
          socket.once('drain', pump);
          return;
        }
      }
      socket.resume();
      if (sent >= declared) socket.end();
    };
    pump();
  });
}

const statusLine = (answer: string): string => answer.split('\r\n')[0] ?? '';
const problemOf = (answer: string): unknown => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('a body over 10 MB', () => {
  it('is answered 413, every time, to a client that reads only once it has sent the whole body', async () => {
    const outcomes: RawOutcome[] = [];
    for (let attempt = 0; attempt < 10; attempt += 1) outcomes.push(await rawPut(OVERSIZED, OVERSIZED));

    expect(outcomes.map((outcome) => [statusLine(outcome.answer), outcome.error])).toEqual(Array(10).fill(['HTTP/1.1 413 Payload Too Large', undefined]));
    expect(problemOf(outcomes[0]!.answer)).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it.each([
    ['with a Content-Length', { 'content-length': String(OVERSIZED) }],
    ['chunked', { 'transfer-encoding': 'chunked' }],
  ])('is answered 413 to a PUT from Node\'s http client, %s', async (_case, framing) => {
    const answer = await new Promise<{ status?: number; body: string; error?: string }>((resolve) => {
      const put = request({ host: '127.0.0.1', port: gateway.port, method: 'PUT', path: PATH, headers: { 'content-type': 'application/json', ...framing } }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode, body }));
      });
      put.on('error', (error: NodeJS.ErrnoException) => resolve({ body: '', error: error.code }));
      put.end(Buffer.alloc(OVERSIZED, 0x20));
    });

    expect(answer.error).toBeUndefined();
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('is read no further than the lingering bound in bytes: a client sending far more is cut off', async () => {
    const declared = 4 * LINGER_LIMITS.maxBytes;

    const outcome = await rawPut(declared, declared);

    expect(outcome.sent).toBeLessThan(declared);
    expect(outcome.closedAfterMs).toBeLessThan(LINGER_LIMITS.maxMs);
  });

  it('is waited for no longer than the lingering bound in time: a client that stalls is closed, its answer sent', async () => {
    const outcome = await rawPut(OVERSIZED, 64 * 1024, true);

    expect(statusLine(outcome.answer)).toBe('HTTP/1.1 413 Payload Too Large');
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(LINGER_LIMITS.idleMs - 50);
    expect(outcome.closedAfterMs).toBeLessThan(LINGER_LIMITS.idleMs * 3);
  });
});
