import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/** Waits `ms` milliseconds; injected by tests that retry without waiting. */
export type Sleep = (ms: number) => Promise<void>;

/** A real wait. */
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Attempts of a transaction that lost a conflict to a concurrent one. */
export const MAX_TRANSACTION_ATTEMPTS = 10;
const BACKOFF_BASE_MS = 10;

/**
 * Whether a transaction was cancelled only because another one held one of its items: DynamoDB
 * cancels with `TransactionConflict` and the same request succeeds once the other is done
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-conflict-handling).
 * A failed condition is not a conflict: retrying cannot change its answer.
 */
export function lostConflict(error: unknown): boolean {
  if (!(error instanceof TransactionCanceledException)) return false;
  const reasons = error.CancellationReasons ?? [];
  return reasons.some((reason) => reason.Code === 'TransactionConflict') && !reasons.some((reason) => reason.Code === 'ConditionalCheckFailed');
}

/**
 * Send a transaction, retrying it with jittered exponential backoff while it loses conflicts (the
 * counters are shared by concurrent writers), at most {@link MAX_TRANSACTION_ATTEMPTS} times.
 * Any other failure is thrown at once.
 */
export async function retryingTransaction<T>(send: () => Promise<T>, sleep: Sleep = realSleep): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await send();
    } catch (error) {
      if (attempt >= MAX_TRANSACTION_ATTEMPTS || !lostConflict(error)) throw error;
      await sleep(Math.random() * BACKOFF_BASE_MS * 2 ** Math.min(attempt, 6));
    }
  }
}
