import { defineConfig } from '../../shared/config/define-config';
import { applyMediaLogDeltasFunction, foldMediaLogCountsFunction } from './stream-functions';

/** Variables of the counter fold. */
export const FOLD_ENV = {
  /** Counter writes a second-stage batch keeps in flight at once. */
  writesInFlight: 'FOLD_COUNTER_WRITES_IN_FLIGHT',
  /** The failure queue of the fold's mapping, where the fold also reports the records it skips (the stack sets it; unset locally). */
  failureQueueUrl: foldMediaLogCountsFunction.failureQueueUrlEnv,
  /** The failure queue of the second stage's mapping, where it reports the delta records it skips (the stack sets it; unset locally). */
  deltaFailureQueueUrl: applyMediaLogDeltasFunction.failureQueueUrlEnv,
} as const;

/**
 * The fold's configuration. In AWS a second-stage batch writes a few thousand counter items
 * (the key-heat bench counts them), each an UpdateItem of a few milliseconds: 64 at once fold a
 * batch in well under a second, so a shard's fold keeps up with its records at DESIGN.md 7b's peak.
 * DynamoDB Local serializes writes, and more than a few in flight only queue toward the client's
 * timeout: the local defaults set 8.
 */
export const foldConfig = /* @__PURE__ */ defineConfig('fold', (env) => ({
  writesInFlight: env.integer(FOLD_ENV.writesInFlight, 64, { min: 1, max: 256 }),
  failureQueueUrl: env.optional(FOLD_ENV.failureQueueUrl),
  deltaFailureQueueUrl: env.optional(FOLD_ENV.deltaFailureQueueUrl),
}));
