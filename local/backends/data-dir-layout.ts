/**
 * What the local set-up keeps inside a data directory (`DATA_DIR`).
 */

/** Names of files and folders inside the data directory. */
export const DATA_DIR_LAYOUT = {
  dynamodb: 'dynamodb',
  s3: 's3',
  stateFile: 'backends.json',
  lockFile: 'backends.lock',
  /** Where each local stream consumer has read its stream to (local/fold/checkpoints.ts), one file per consumer. */
  streamCheckpoints: (consumer: string) => `stream-checkpoints/${consumer}.json`,
} as const;
