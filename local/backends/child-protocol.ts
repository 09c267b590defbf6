/**
 * How the back-end children (the Java launcher of DynamoDB Local and the local S3 script) tell
 * their parent that they are ready or why they stopped: a line on stdout/stderr and an exit code.
 */

/** Line prefixes by which the children report readiness and failures on stdout/stderr. */
export const CHILD_SIGNALS = {
  ready: /^READY (http:\/\/\S+)$/,
  portInUse: /^PORT_IN_USE\b(.*)$/,
} as const;

/** Exit code with which both children report a port that is already taken. */
export const EXIT_PORT_IN_USE = 3;
