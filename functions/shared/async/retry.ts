/**
 * Trying again with backoff, in the two shapes the service needs: an operation that fails with an
 * error worth another attempt (a write that raced another one), and a batch call that leaves part
 * of its items unprocessed (DynamoDB's BatchGetItem and BatchWriteItem under throttling).
 */

/** Waits `ms` milliseconds; tests inject one that returns at once and records the waits. */
export type Sleep = (ms: number) => Promise<void>;

/** A real wait. */
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Turns a computed wait into the wait taken; tests inject a fixed one. */
export type Jitter = (delayMs: number) => number;

/**
 * "Full jitter": a random wait up to the computed one, so that callers who failed together (racing
 * for the same item) do not all come back together.
 */
export const fullJitter: Jitter = (delayMs) => Math.random() * delayMs;

/** How often to try, and how long to wait in between. */
export interface Backoff {
  /** Most attempts, the first one included. */
  readonly attempts: number;
  /** The wait after attempt `attempt` (1 for the first), before jitter. */
  readonly delayMs: (attempt: number) => number;
  /** Applied to each wait; none by default. */
  readonly jitter?: Jitter;
  /** Default: {@link realSleep}. */
  readonly sleep?: Sleep;
}

/** A backoff that keeps waiting `baseMs × 2^attempt`, but never longer than `maxMs`. */
export function exponentialDelay(baseMs: number, maxMs: number): (attempt: number) => number {
  return (attempt) => Math.min(maxMs, baseMs * 2 ** attempt);
}

function pause(backoff: Backoff, attempt: number): Promise<void> {
  const delayMs = backoff.delayMs(attempt);
  return (backoff.sleep ?? realSleep)(backoff.jitter ? backoff.jitter(delayMs) : delayMs);
}

/**
 * Runs `operation` (told which attempt it is, from 1) until it succeeds, waiting between attempts,
 * as long as it fails with an error that `retryable` accepts and attempts are left. The last error
 * is thrown as it is, so the caller can tell "gave up" (a retryable error) from any other failure.
 */
export async function retry<T>(
  operation: (attempt: number) => Promise<T>,
  backoff: Backoff & { readonly retryable: (error: unknown) => boolean },
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation(attempt);
    } catch (error) {
      if (attempt >= backoff.attempts || !backoff.retryable(error)) throw error;
    }
    await pause(backoff, attempt);
  }
}

/** Items that a batch call still left unprocessed when the attempts ran out. */
export class UnprocessedItemsError extends Error {
  /** The items of the last call that were not processed. */
  public readonly unprocessed: readonly unknown[];

  public constructor(unprocessed: readonly unknown[], attempts: number) {
    super(`After ${attempts} attempts, ${unprocessed.length} of the items were still unprocessed.`);
    this.name = 'UnprocessedItemsError';
    this.unprocessed = unprocessed;
  }
}

/**
 * Sends `items` with `send`, which answers the items it left unprocessed, and sends those again,
 * waiting between calls, until none is left. DynamoDB's batch calls leave items unprocessed when
 * they are throttled: asking again at once would only be throttled again.
 *
 * @throws UnprocessedItemsError when items are still left after `backoff.attempts` calls.
 */
export async function retryUnprocessed<T>(items: readonly T[], send: (items: readonly T[]) => Promise<readonly T[]>, backoff: Backoff): Promise<void> {
  let pending = items;
  for (let attempt = 1; pending.length > 0; attempt += 1) {
    if (attempt > 1) await pause(backoff, attempt - 1);
    pending = await send(pending);
    if (pending.length > 0 && attempt >= backoff.attempts) throw new UnprocessedItemsError(pending, attempt);
  }
}
