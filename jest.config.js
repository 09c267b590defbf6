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
  testTimeout: 30000,
};
