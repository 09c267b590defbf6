import { clientConfig } from '../../functions/shared/config/data-config';
import { resetServiceState } from '../../local/environment';
import { provisionResources } from '../../local/backends/provisioning';
import { readSettings } from '../../local/local-settings';

/**
 * Runs in each test file (jest `setupFilesAfterEnv`): creates the file's tables and bucket, under
 * the access key id and bucket name ./isolate-test-file.ts chose, before its first test.
 */
beforeAll(async () => {
  // Clients built before the isolation variables were set would use another database.
  resetServiceState();
  const { dynamodbEndpoint, s3Endpoint } = readSettings(clientConfig);
  if (dynamodbEndpoint === undefined || s3Endpoint === undefined) throw new Error('The global set-up gives every test file DYNAMODB_ENDPOINT and S3_ENDPOINT.');
  await provisionResources({ dynamodbEndpoint, s3Endpoint });
});
