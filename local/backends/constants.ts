/**
 * Fixed values of the local back-end set-up: where things live, how long to wait, what to read.
 */

/** The only address the local backends listen on: they hold unauthenticated data. */
export const LOOPBACK_HOST = '127.0.0.1';

/** Environment variables the local set-up reads (endpoints of bring-your-own backends, fixed ports). */
export const BACKEND_ENV = {
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  s3Endpoint: 'S3_ENDPOINT',
  dynamodbPort: 'DYNAMODB_LOCAL_PORT',
  s3Port: 'S3_LOCAL_PORT',
  javaHome: 'JAVA_HOME',
} as const;

/** Names of files and folders inside the data directory. */
export const DATA_DIR_LAYOUT = {
  dynamodb: 'dynamodb',
  s3: 's3',
  stateFile: 'backends.json',
  lockFile: 'backends.lock',
} as const;

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

/** The two backends, as named in the state file and in messages. */
export const BACKEND_KINDS = {
  dynamodb: 'DynamoDB Local',
  s3: 'local S3',
} as const;

/** One of the two backends. */
export type BackendKind = keyof typeof BACKEND_KINDS;

/** Line prefixes by which the children report readiness and failures on stdout/stderr. */
export const CHILD_SIGNALS = {
  ready: /^READY (http:\/\/\S+)$/,
  portInUse: /^PORT_IN_USE\b(.*)$/,
} as const;

/** Exit code with which both children report a port that is already taken. */
export const EXIT_PORT_IN_USE = 3;
