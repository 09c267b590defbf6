import { describeNetworkFailure } from '../../local/smoke/network-failure';

/**
 * The one-line reasons for requests that got no answer. Refusals, cut connections, time-outs and
 * TLS errors are produced for real by the command tests (smoke-broken-stage.test.ts). A failed DNS
 * lookup or a certificate error cannot be produced on loopback, so those errors are built here
 * exactly as Node's fetch raises them: `TypeError: fetch failed` with the socket's error as cause.
 */

const URL_ = new URL('https://api.example.com/prod/frontend/api/v1/openapi.json');

function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

function socketError(message: string, fields: Record<string, unknown>): Error {
  return Object.assign(new Error(message), fields);
}

describe('describeNetworkFailure', () => {
  it.each(['ENOTFOUND', 'EAI_AGAIN'])('names the host whose DNS lookup failed (%s)', (code) => {
    const error = fetchFailed(socketError(`getaddrinfo ${code} api.example.com`, { code, syscall: 'getaddrinfo', hostname: 'api.example.com' }));
    expect(describeNetworkFailure(error, URL_, 10_000)).toBe(`DNS lookup of api.example.com failed (${code})`);
  });

  it('names the address that refused, when every address of the name refused', () => {
    const refusals = [
      socketError('connect ECONNREFUSED ::1:443', { code: 'ECONNREFUSED', address: '::1', port: 443 }),
      socketError('connect ECONNREFUSED 127.0.0.1:443', { code: 'ECONNREFUSED', address: '127.0.0.1', port: 443 }),
    ];
    expect(describeNetworkFailure(fetchFailed(new AggregateError(refusals)), URL_, 10_000)).toBe('connection refused by [::1]:443');
  });

  it("says what is wrong with the stage's certificate", () => {
    const error = fetchFailed(socketError('certificate has expired', { code: 'CERT_HAS_EXPIRED' }));
    expect(describeNetworkFailure(error, URL_, 10_000)).toBe('TLS error with api.example.com: certificate has expired');
  });

  it('names a time-out with its limit', () => {
    const error = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    expect(describeNetworkFailure(error, URL_, 2500)).toBe('no complete answer within 2500 ms (timeout)');
  });

  it('explains a port that fetch refuses to use', async () => {
    const url = new URL('http://127.0.0.1:9/frontend/api/v1/openapi.json');
    const error = await fetch(url).catch((failure: unknown) => failure);
    expect(describeNetworkFailure(error, url, 10_000)).toBe('fetch refuses to connect to port 9 (a "bad port" of the Fetch standard)');
  });
});
