/**
 * Why a request got no HTTP answer at all, in one line an operator can act on: the name did not
 * resolve, the connection was refused or cut, TLS failed, or the time limit ran out. Node's fetch
 * reports all of these as `TypeError: fetch failed`; the reason is in its `cause` chain, as the
 * error codes of node:dns, node:net, node:tls (OpenSSL) and undici.
 */

/** getaddrinfo's codes for a name that does not resolve, now or at all. */
const DNS_CODES: ReadonlySet<string> = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);

/** Codes of a connection the peer or the network cut before the answer was complete. */
const CLOSED_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** Codes of a connection that could not be made in time or at all. */
const UNREACHABLE_CODES: ReadonlySet<string> = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

// OpenSSL's verification codes (CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT, UNABLE_TO_VERIFY_LEAF_SIGNATURE,
// …), Node's own TLS codes (ERR_TLS_CERT_ALTNAME_INVALID) and OpenSSL's protocol errors (ERR_SSL_…).
const TLS_CODE = /^ERR_(SSL|TLS)_|CERT|^UNABLE_TO_|SIGNATURE/;

interface CodedError {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly message?: unknown;
  readonly address?: unknown;
  readonly port?: unknown;
  readonly cause?: unknown;
  readonly errors?: unknown;
}

// Duck-typed rather than `instanceof`: errors may come from another realm (a vm context, a worker).
function asCoded(error: unknown): CodedError {
  return typeof error === 'object' && error !== null ? (error as CodedError) : { message: String(error) };
}

/** The innermost error: fetch wraps the socket's error in `cause`; happy eyeballs gathers several in an AggregateError. */
function rootCause(error: unknown): CodedError {
  let current = asCoded(error);
  for (let depth = 0; depth < 5; depth += 1) {
    if (Array.isArray(current.errors) && current.errors.length > 0) current = asCoded(current.errors[0]);
    else if (current.cause !== undefined) current = asCoded(current.cause);
    else break;
  }
  return current;
}

function firstLine(text: unknown): string {
  return String(text ?? '').split('\n')[0]?.trim() ?? '';
}

function isTimeout(error: unknown): boolean {
  const { name } = asCoded(error);
  return name === 'TimeoutError' || name === 'AbortError';
}

function tlsReason(cause: CodedError, code: string): string {
  // OpenSSL's protocol errors carry a long internal message; the code names the problem plainly.
  if (code.startsWith('ERR_SSL_')) return code.slice('ERR_SSL_'.length).toLowerCase().replaceAll('_', ' ');
  return firstLine(cause.message) || code;
}

/**
 * One line saying why a request to `url` got no answer; `timeoutMs` is the limit it ran under.
 * Examples: `DNS lookup of api.example.com failed (ENOTFOUND)`, `connection refused by 127.0.0.1:3000`.
 */
export function describeNetworkFailure(error: unknown, url: URL, timeoutMs: number): string {
  if (isTimeout(error)) return `no complete answer within ${timeoutMs} ms (timeout)`;
  const cause = rootCause(error);
  const code = typeof cause.code === 'string' ? cause.code : '';
  const host = url.host;
  if (DNS_CODES.has(code)) return `DNS lookup of ${url.hostname} failed (${code})`;
  if (code === 'ECONNREFUSED') {
    const where = typeof cause.address === 'string' ? `${cause.address.includes(':') ? `[${cause.address}]` : cause.address}:${String(cause.port)}` : host;
    return `connection refused by ${where}`;
  }
  if (CLOSED_CODES.has(code)) return `connection to ${host} closed before a complete answer (${code})`;
  if (UNREACHABLE_CODES.has(code)) return `could not connect to ${host} (${code})`;
  if (TLS_CODE.test(code)) return `TLS error with ${host}: ${tlsReason(cause, code)}`;
  // The Fetch standard refuses some ports outright (https://fetch.spec.whatwg.org/#bad-port).
  if (firstLine(cause.message) === 'bad port') return `fetch refuses to connect to port ${url.port} (a "bad port" of the Fetch standard)`;
  return `request to ${host} failed: ${firstLine(cause.message) || 'unknown error'}${code ? ` (${code})` : ''}`;
}
