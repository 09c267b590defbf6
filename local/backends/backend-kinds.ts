/**
 * The two local back-ends, as the state file and every message name them.
 */

/** The two backends, as named in the state file and in messages. */
export const BACKEND_KINDS = {
  dynamodb: 'DynamoDB Local',
  s3: 'local S3',
} as const;

/** One of the two backends. */
export type BackendKind = keyof typeof BACKEND_KINDS;
