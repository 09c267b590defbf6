import { connectOrStartBackends } from '../backends';
import { localDataDir, useLocalEnvironment } from '../environment';
import type { LocalSigningKey } from '../signing-key';

/** Whether the CLI works on deployed tables: their names are configured and no local endpoint is. */
export function targetsDeployment(): boolean {
  return Boolean(process.env.USERS_TABLE_NAME) && !process.env.DYNAMODB_ENDPOINT;
}

/**
 * Run `work` against the data the command is about: the deployed tables (from the environment), or
 * the local back-ends of the data directory — those of a running `npm start`, or started for the
 * duration of the command and stopped after.
 */
export async function withData<T>(work: (key: LocalSigningKey | null) => Promise<T>): Promise<T> {
  if (targetsDeployment()) return work(null);
  const dataDir = localDataDir();
  const backends = await connectOrStartBackends(dataDir);
  try {
    const key = await useLocalEnvironment(dataDir, backends);
    return await work(key);
  } finally {
    await backends.stop();
  }
}
