import { ConflictError } from '../../shared/errors';

/**
 * The errors of the media log. Those a caller can cause are problems of the one error model
 * (functions/shared/errors.ts); the others say what the pipeline or the fold met, for its logs and
 * its retries.
 */

/** An id that already holds another request (another send time, url or user): a 409 for the import, a rejected message for the feed. */
export class EntryConflictError extends ConflictError {
  public constructor(public readonly id: string) {
    super(`A different entry with id ${id} is already stored.`, [{ name: 'id', reason: 'Already used by a different entry.' }]);
    this.name = 'EntryConflictError';
  }
}

/** A base for what went wrong writing or counting the log, not caused by the caller. */
export class MediaLogError extends Error {
  public constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.name = 'MediaLogError';
  }
}

/** A status change for an entry that is not stored (yet): the feed retries it until its request arrives. */
export class UnknownEntryError extends MediaLogError {
  public constructor(public readonly id: string) {
    super(`No entry with id ${id} is stored (yet).`);
    this.name = 'UnknownEntryError';
  }
}

/** A write that kept losing a race (another change of the same item won each time): retried by the caller's retry. */
export class ContendedWriteError extends MediaLogError {
  public constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'ContendedWriteError';
  }
}
