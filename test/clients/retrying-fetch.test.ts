import type { IncomingMessage, ServerResponse } from 'node:http';
import { startServer, type LocalServer } from '../avatars/fetch/local-servers';
import { retryingFetch, type RetryPolicy } from '../../clients/web/src/retrying-fetch.js';

/**
 * The typed client's retries, against a loopback server that answers each attempt from a script:
 * the failures a retry is for (a 5xx, a dropped connection, a request still in progress) are those
 * the real API cannot give on demand. What the API does with the key is proven against the API
 * itself (test/idempotency/).
 */

/** One scripted answer: a status with headers and a JSON body, or a dropped connection. */
type Answer = { readonly status: number; readonly headers?: Record<string, string>; readonly body?: unknown } | 'drop';

interface Attempt {
  readonly method: string;
  readonly key: string | undefined;
  readonly body: string;
  readonly at: number;
}

let server: LocalServer;
let script: Answer[] = [];
let attempts: Attempt[] = [];

beforeAll(async () => {
  server = await startServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      attempts.push({ method: request.method ?? '', key: request.headers['idempotency-key'] as string | undefined, body: Buffer.concat(chunks).toString(), at: Date.now() });
      const answer = script.shift() ?? { status: 200, body: {} };
      if (answer === 'drop') return void request.socket.destroy();
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body ?? {}));
    });
  });
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  script = [];
  attempts = [];
});

const QUICK: RetryPolicy = { maxAttempts: 4, baseDelayMs: 20, maxDelayMs: 2000 };
const inUse = { status: 409, headers: { 'Retry-After': '1' }, body: { code: 'idempotency_key_in_use' } };

function send(method: string, policy: RetryPolicy = QUICK, init: RequestInit = {}): Promise<Response> {
  return retryingFetch(fetch, policy)(new Request(`${server.origin}/resource`, { method, ...(method === 'GET' ? {} : { body: '{"a":1}' }), ...init }));
}

describe('the typed client, on an unsafe call', () => {
  it('sends a new key with each call, the same with each of its retries, and the body every time', async () => {
    script = [{ status: 503 }, { status: 201 }, { status: 201 }];

    const first = await send('POST');
    const second = await send('PUT');

    expect([first.status, second.status]).toEqual([201, 201]);
    const [retried, again, other] = attempts;
    expect(retried?.key).toMatch(/^"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"$/);
    expect(again?.key).toBe(retried?.key);
    expect(other?.key).not.toBe(retried?.key);
    expect(attempts.map((attempt) => attempt.body)).toEqual(['{"a":1}', '{"a":1}', '{"a":1}']);
  });

  it('keeps a key the caller set', async () => {
    await send('DELETE', QUICK, { headers: { 'Idempotency-Key': '"stored-by-the-page"' } });

    expect(attempts.map((attempt) => attempt.key)).toEqual(['"stored-by-the-page"']);
  });

  it('retries a dropped connection and a 409 in progress, waiting as long as Retry-After asks', async () => {
    script = ['drop', inUse, { status: 201 }];

    const response = await send('POST');

    expect(response.status).toBe(201);
    expect(attempts).toHaveLength(3);
    expect((attempts[2]?.at ?? 0) - (attempts[1]?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('retries an attempt that runs out of time', async () => {
    script = [];
    const slow = await startServer((request, response) => {
      attempts.push({ method: request.method ?? '', key: request.headers['idempotency-key'] as string | undefined, body: '', at: Date.now() });
      if (attempts.length === 1) return;
      response.writeHead(201, { 'content-type': 'application/json' }).end('{}');
    });
    try {
      const response = await retryingFetch(fetch, { ...QUICK, attemptTimeoutMs: 200 })(new Request(`${slow.origin}/slow`, { method: 'POST', body: '{}' }));

      expect(response.status).toBe(201);
      expect(attempts.map((attempt) => attempt.key)).toEqual([attempts[0]?.key, attempts[0]?.key]);
    } finally {
      await slow.close();
    }
  });

  it('waits longer after each failure, up to its cap', async () => {
    script = [{ status: 500 }, { status: 502 }, { status: 504 }, { status: 201 }];

    await send('POST', { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 250 });

    const waits = attempts.slice(1).map((attempt, index) => attempt.at - (attempts[index]?.at ?? 0));
    expect(waits[0]).toBeGreaterThanOrEqual(95);
    expect(waits[1]).toBeGreaterThanOrEqual(195);
    expect(waits[2]).toBeGreaterThanOrEqual(245);
    expect(waits[2]).toBeLessThan(1000);
  });

  it('answers the last failure once its attempts are spent', async () => {
    script = [{ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }, { status: 201 }];

    const response = await send('POST');

    expect(response.status).toBe(503);
    expect(attempts).toHaveLength(QUICK.maxAttempts);
  });

  it('answers at once when Retry-After asks for more than its cap', async () => {
    script = [{ status: 503, headers: { 'Retry-After': '120' } }];

    const response = await send('POST');

    expect(response.status).toBe(503);
    expect(attempts).toHaveLength(1);
  });

  it.each([
    ['another 409 (a conflict of the data)', { status: 409, body: { code: 'conflict' } }],
    ['a 422', { status: 422, body: { code: 'idempotency_key_reused' } }],
    ['a 400', { status: 400, body: { code: 'validation_failed' } }],
    ['a 429', { status: 429, headers: { 'Retry-After': '1' }, body: { code: 'throttled' } }],
  ])('leaves %s to the caller: only network failures, 5xx and a request in progress are retried', async (_case, answer) => {
    script = [answer as Answer];

    const response = await send('POST');

    expect(response.status).toBe(answer.status);
    expect(attempts).toHaveLength(1);
  });

  it('stops when the caller aborts', async () => {
    script = [{ status: 503 }, { status: 503 }];
    const controller = new AbortController();

    const sent = send('POST', { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 500 }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();

    await expect(sent).rejects.toThrow();
    expect(attempts).toHaveLength(1);
  });
});

describe('the typed client, on a safe call', () => {
  it('sends no key and makes one attempt, whatever the answer', async () => {
    script = [{ status: 503 }];

    const response = await send('GET');

    expect(response.status).toBe(503);
    expect(attempts).toEqual([expect.objectContaining({ method: 'GET', key: undefined })]);
  });
});
