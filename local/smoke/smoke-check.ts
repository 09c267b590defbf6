import type { ProbeAnswer, ProbeRequest } from './http-probe';
import type { SmokeOptions } from './smoke-options';

/**
 * The shape of one smoke check: a name (the second word of its line), what it needs beyond the
 * URL, and a run that makes its requests and says what it found.
 */

/** An option a check cannot run without. */
export type CheckNeed = 'token' | 'origin';

/** What a check sends requests through: the stage, with the run's time limit applied. */
export interface SmokeTarget {
  readonly options: SmokeOptions;
  request(request: ProbeRequest): Promise<ProbeAnswer>;
}

/**
 * What a check found: one-line failures (none: it passed), warnings (it passed, with a gap worth
 * fixing), and a summary of what it saw, printed when it passed.
 */
export interface CheckFindings {
  readonly failures: readonly string[];
  readonly warnings?: readonly string[];
  readonly summary: string;
}

/** One check of a deployed stage. */
export interface SmokeCheck {
  readonly name: string;
  readonly needs: readonly CheckNeed[];
  run(target: SmokeTarget): Promise<CheckFindings>;
}
