import type { GrantableData } from '../data-grants';

/**
 * What a construct that deploys one kind of the listed functions (scheduled functions, queue or
 * stream consumers) is given: their definitions from `functions/deployed-functions.ts`, and what
 * every function of the stack shares.
 */
export interface FunctionGroupProps<Definition> {
  readonly definitions: readonly Definition[];
  /** Environment every function shares (table and bucket names, logging, metrics). */
  readonly environment: Readonly<Record<string, string>>;
  readonly logRetentionDays: number;
  /** The data the functions may be granted. */
  readonly data: GrantableData;
}
