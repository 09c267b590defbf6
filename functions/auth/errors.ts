import type { TokenRefusalReason } from './token-refusal';

/**
 * The authentication errors that stay inside the service: why a token was refused is logged, the
 * client only ever sees the 401 problem.
 */

/** A token that is missing, malformed, badly signed, expired or meant for someone else. */
export class InvalidTokenError extends Error {
  /** Why, in the fixed vocabulary of the logs and metrics. */
  public readonly reason: TokenRefusalReason;

  public constructor(reason: TokenRefusalReason, detail: string, options?: { cause?: unknown }) {
    super(detail, options);
    this.name = 'InvalidTokenError';
    this.reason = reason;
  }
}

/** A token subject that more than one user record answers to: refused, never guessed. */
export class AmbiguousSubjectError extends Error {
  public constructor() {
    super('More than one user answers to the token subject.');
    this.name = 'AmbiguousSubjectError';
  }
}

/**
 * The token issuer's keys cannot be had: its JWKS endpoint is unreachable, too slow, or answers
 * something that is no key set. Not the caller's fault: the authorizer fails (API Gateway answers
 * its 503 problem, with Retry-After) instead of refusing the token with a 401.
 */
export class IdentityProviderUnavailableError extends Error {
  public constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = 'IdentityProviderUnavailableError';
  }
}
