import { ProblemError } from '../errors';

/**
 * The problems of a request made with an `Idempotency-Key` (DESIGN.md 5b), as the IETF httpapi
 * draft "The Idempotency-Key HTTP Header Field" names them: the key's first request still runs
 * (409), or the key came with another request (422). A key that is not a valid value is a 400
 * naming the header (ValidationError), as any other invalid input.
 */

/** 409: the first request with this key is still in progress; `Retry-After` says when to ask again. */
export class IdempotencyKeyInUseError extends ProblemError {
  public constructor(cause?: unknown) {
    super('idempotency_key_in_use', { cause });
    this.name = 'IdempotencyKeyInUseError';
  }
}

/** 422: the key was first sent with another operation, path or body. */
export class IdempotencyKeyReusedError extends ProblemError {
  public constructor(cause?: unknown) {
    super('idempotency_key_reused', { cause });
    this.name = 'IdempotencyKeyReusedError';
  }
}
