/**
 * What the local set-up keeps inside a data directory (`DATA_DIR`).
 */

/** Names of files and folders inside the data directory. */
export const DATA_DIR_LAYOUT = {
  dynamodb: 'dynamodb',
  s3: 's3',
  stateFile: 'backends.json',
  lockFile: 'backends.lock',
  /** Where the local fold of the media log's stream has read to (local/fold/checkpoints.ts). */
  foldCheckpoints: 'fold-checkpoints.json',
} as const;
