import { ConflictError, ProblemError } from '../shared/errors';

/**
 * The avatar service's own errors: how a record write ended, as the repository reports it to the
 * service (never to a client), and the one answer they can lead to.
 */

/** DynamoDB cancelled an avatar transaction: nothing of it was written. `cause` is DynamoDB's error. */
export class AvatarWriteCancelledError extends Error {
  public constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'AvatarWriteCancelledError';
  }
}

/**
 * The profile or its avatars changed since they were read (another upload or delete, a profile
 * update): nothing was written, and the write may be planned again from a fresh read.
 */
export class AvatarsChangedError extends AvatarWriteCancelledError {
  public constructor(cause: unknown) {
    super("The user's profile or avatars changed since they were read.", cause);
    this.name = 'AvatarsChangedError';
  }
}

/**
 * A record write whose outcome could not be established (DynamoDB did not answer, and could not be
 * asked afterwards). The image object is kept: a record may point at it, and the reconciler deletes
 * it later if none does. `cause` is the write's error.
 */
export class UnsettledAvatarWriteError extends Error {
  public constructor(cause: unknown) {
    super('The outcome of the avatar record write is unknown.', { cause });
    this.name = 'UnsettledAvatarWriteError';
  }
}

/** 409 `conflict`: the user's avatars kept changing under the request; asking again will succeed. */
export function avatarsBusy(): ConflictError {
  return new ConflictError("The user's avatars were being changed by other requests at the same time; retry the request.");
}

/**
 * 429 `upload_forms_exhausted`: the user has been given all the upload forms of the day (UTC) at
 * `now`; Retry-After says when the next day begins.
 */
export function uploadFormsExhausted(now: Date): ProblemError {
  const nextDay = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return new ProblemError('upload_forms_exhausted', { headers: { 'Retry-After': String(Math.ceil((nextDay - now.getTime()) / 1000)) } });
}
