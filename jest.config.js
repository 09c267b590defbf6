/**
 * Jest runs the TypeScript sources as ES modules through @swc/jest. One DynamoDB Local and one local
 * S3 serve the whole run (test/setup/global-setup.ts); each test file uses its own tables.
 */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'es6' } },
    ],
  },
  testTimeout: 30000,
};
