/**
 * How long the local back-end set-up waits for things, in milliseconds.
 */

/** Time limits, in milliseconds. */
export const BACKEND_TIMEOUTS = {
  /** A cold JVM plus DynamoDB Local needs 1–3 s; a loaded CI machine several times that. */
  start: 60_000,
  /** After SIGTERM, how long a child gets before SIGKILL. */
  stopGrace: 5_000,
  /** One liveness probe of a recorded endpoint. */
  probe: 1_000,
  /** How often a process waiting for another one's start-up looks again. */
  lockPoll: 100,
} as const;
