import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKEND_ENV } from '../../local/backends/backend-env';
import { LocalBackendError, type LocalBackends, startBackends } from '../../local/backends/index';

/**
 * Jest global set-up: one DynamoDB Local (in memory) and one local S3 for the whole run, their
 * endpoints exported to the environment the test workers inherit. Each test file then isolates
 * itself by access key id and bucket name (./isolate-test-file.ts). With `DYNAMODB_ENDPOINT` /
 * `S3_ENDPOINT` already set, those backends are used instead.
 */

/** What global-teardown.ts needs from this set-up; jest shares globals between the two. */
export interface TestBackends {
  readonly backends: LocalBackends;
  readonly dataDir: string;
}

/** The global under which the running test backends are handed to the teardown. */
export const TEST_BACKENDS_GLOBAL = '__frontendApiTestBackends';

/** Starts the backends of the test run. */
export default async function globalSetup(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'frontend-api-test-'));
  // Each test file provisions its own tables and bucket, under its own access key id. The run is
  // long and write-heavy (every media log test folds its writes), so the JVM gets its full compiler.
  const backends = await startBackends({ dataDir, inMemory: true, provision: false, compiler: 'full' }).catch(async (error: unknown) => {
    await rm(dataDir, { recursive: true, force: true });
    // Jest prints a set-up error with its stack; these messages already say all there is to do.
    if (error instanceof LocalBackendError) error.stack = `${error.name}: ${error.message}`;
    throw error;
  });
  process.env[BACKEND_ENV.dynamodbEndpoint] = backends.dynamodbEndpoint;
  process.env[BACKEND_ENV.s3Endpoint] = backends.s3Endpoint;
  (globalThis as Record<string, unknown>)[TEST_BACKENDS_GLOBAL] = { backends, dataDir } satisfies TestBackends;
}
