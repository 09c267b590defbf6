import { resetServiceState } from '../../local/environment';
import { requiredEnv } from '../../local/environment-variables';
import { BACKEND_ENV } from '../../local/backends/backend-env';
import { provisionResources } from '../../local/backends/provisioning';

/**
 * Runs in each test file (jest `setupFilesAfterEnv`): creates the file's tables and bucket, under
 * the access key id and bucket name ./isolate-test-file.ts chose, before its first test.
 */
beforeAll(async () => {
  // Clients built before the isolation variables were set would use another database.
  resetServiceState();
  await provisionResources({
    dynamodbEndpoint: requiredEnv(BACKEND_ENV.dynamodbEndpoint),
    s3Endpoint: requiredEnv(BACKEND_ENV.s3Endpoint),
  });
});
