import { rm } from 'node:fs/promises';
import { TEST_BACKENDS_GLOBAL, type TestBackends } from './global-setup';

/** Jest global teardown: stops the backends global-setup.ts started and removes their data. */
export default async function globalTeardown(): Promise<void> {
  const test = (globalThis as Record<string, unknown>)[TEST_BACKENDS_GLOBAL] as TestBackends | undefined;
  if (!test) return;
  await test.backends.stop();
  await rm(test.dataDir, { recursive: true, force: true });
}
