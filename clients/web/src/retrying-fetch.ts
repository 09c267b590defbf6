/**
 * Safe retries for a frontend (DESIGN.md 5b): every unsafe call (POST, PUT, PATCH, DELETE) carries
 * an `Idempotency-Key` of its own, fresh per call, and the call is retried with that same key when
 * its answer cannot be final: the network failed (or an attempt ran out of time), the API answered
 * 5xx, or 409 `idempotency_key_in_use` (the first attempt still runs). The API then does the work
 * once and answers every retry with the first answer: an avatar upload whose first attempt timed
 * out stores one avatar, not two. Safe calls (GET) go out as they are, once.
 *
 * Waits grow from `baseDelayMs`, doubling, up to `maxDelayMs`; a `Retry-After` is honoured: the
 * retry never goes sooner, and one longer than `maxDelayMs` ends the retries with that answer.
 */

/** How unsafe calls are retried. */
export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** How long one attempt may take before it is abandoned and retried; none when unset. */
  readonly attemptTimeoutMs?: number;
}

/** Five attempts over about four seconds of waiting, each attempt given the gateway's 30 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 250, maxDelayMs: 5000, attemptTimeoutMs: 30_000 };

/** The request header that makes a call safe to retry. */
export const IDEMPOTENCY_KEY = 'Idempotency-Key';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A new key: a random UUID as a Structured Field String, the form the header takes. */
export function newIdempotencyKey(): string {
  return `"${crypto.randomUUID()}"`;
}

/** The wait a `Retry-After` asks for (seconds or an HTTP date), in milliseconds; undefined without one. */
function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('Retry-After')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Whether an answer may change on a retry with the same key: a 5xx, or the key's first attempt still running. */
async function mayChange(response: Response): Promise<boolean> {
  if (response.status >= 500) return true;
  if (response.status !== 409) return false;
  const problem = (await response.clone().json().catch(() => null)) as { code?: unknown } | null;
  return problem?.code === 'idempotency_key_in_use';
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

/** One attempt: a copy of `request` (a body can be sent once), abandoned after the policy's time limit. */
function attempt(fetchImpl: typeof fetch, request: Request, policy: RetryPolicy): Promise<Response> {
  const copy = request.clone();
  if (policy.attemptTimeoutMs === undefined) return fetchImpl(copy);
  return fetchImpl(new Request(copy, { signal: AbortSignal.any([request.signal, AbortSignal.timeout(policy.attemptTimeoutMs)]) }));
}

/**
 * `fetchImpl`, with unsafe calls keyed and retried by `policy`. A key the caller set is kept (a
 * frontend that resends a form after a reload passes the key it stored).
 */
export function retryingFetch(fetchImpl: typeof fetch, policy: RetryPolicy = DEFAULT_RETRY_POLICY): (request: Request) => Promise<Response> {
  return async (request) => {
    if (!UNSAFE_METHODS.has(request.method)) return fetchImpl(request);
    if (!request.headers.has(IDEMPOTENCY_KEY)) request.headers.set(IDEMPOTENCY_KEY, newIdempotencyKey());
    for (let tried = 1; ; tried += 1) {
      const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (tried - 1));
      let wait = backoff;
      try {
        const response = await attempt(fetchImpl, request, policy);
        if (tried >= policy.maxAttempts || !(await mayChange(response))) return response;
        wait = Math.max(backoff, retryAfterMs(response) ?? 0);
        if (wait > policy.maxDelayMs) return response;
        await response.body?.cancel();
      } catch (error) {
        // The caller's own abort ends the call; a failed or timed-out attempt is retried.
        if (request.signal.aborted || tried >= policy.maxAttempts) throw error;
      }
      await sleep(wait, request.signal);
    }
  };
}
