import { randomBytes } from 'node:crypto';
import { avatarBucket } from '../../functions/shared/storage/avatar-bucket';
import { CORS_ORIGINS_ENV } from '../../functions/shared/http/cors-policy';
import { LOCAL_CORS_ORIGINS } from '../../local/gateway/cors-local-origins';
import { applyLocalDefaults } from '../../local/local-defaults';

/**
 * Runs before each test file (jest `setupFiles`): gives the file its own DynamoDB database and its
 * own bucket on the shared backends, so test files running in parallel never see each other's data.
 * DynamoDB Local keeps one database per access key id (it runs without -sharedDb); the local S3
 * has no such thing, so the bucket name differs instead.
 */
const id = randomBytes(8).toString('hex');

// Each Lambda execution environment has its own `awslambda` global, where the runtime keeps the
// InvokeStore that tells Powertools whether invocations share the process. Jest gives every test
// file's global the values of its own process's globals, and its global set-up (which loads the AWS
// SDK) made `awslambda` one of them: one object shared by every file a worker runs, so the first
// file to create an InvokeStore decided its kind for the files after it, and a local gateway that
// serves requests at once could find a store that keeps one invocation at a time. A file starts
// without it, as a fresh process does.
Reflect.deleteProperty(globalThis, 'awslambda');

// DynamoDB Local accepts only letters and digits in an access key id.
process.env.AWS_ACCESS_KEY_ID = `test${id}`;
process.env.AWS_SECRET_ACCESS_KEY = 'local';
process.env[avatarBucket.nameEnv] = `${avatarBucket.id}-test-${id}`;

// Request log lines would drown the test report; a test that asserts on logs sets its own level.
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
// Local runs are on Node 20; the SDK's notice about its 2027 releases needing Node 22 is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// The local default origins (dev servers on loopback), whatever the developer's shell says: tests
// that need another list set their own.
process.env[CORS_ORIGINS_ENV] = LOCAL_CORS_ORIGINS;
// What a local run gives the functions: table names, the cursor key, where avatars are served.
applyLocalDefaults(process.env, process.env.S3_ENDPOINT);
