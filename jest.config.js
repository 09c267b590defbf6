/**
 * Jest runs the TypeScript sources as ES modules through @swc/jest. One DynamoDB Local and one local
 * S3 serve the whole run (test/setup/global-setup.ts); each test file gets its own database (by
 * access key id) and bucket (test/setup/isolate-test-file.ts), provisioned before its first test
 * (test/setup/provision-test-resources.ts).
 */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/bench'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  // The web client's package imports its modules as `./x.js` (what its ESM build ships); jest reads the `.ts` beside.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'es6' } },
    ],
  },
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  setupFiles: ['<rootDir>/test/setup/isolate-test-file.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/setup/provision-test-resources.ts'],
  // A clean clone's first run compiles every module cold on CI's 2 cores, beside DynamoDB Local's JVM: a
  // test's first call to a route can take tens of seconds there, though a warm run takes well under one.
  testTimeout: 60000,
};
