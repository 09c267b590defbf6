import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resetServiceState } from '../../local/environment';
import { startDynamoDbLocal, type BackendChild } from '../../local/backends';
import { provisionResources } from '../../local/backends/provisioning';
import { invoke } from '../harness/invoke';
import { createTestUser, type TestUser } from '../harness/users';

/**
 * A DynamoDB outage: this file runs against a DynamoDB Local of its own, on disk, which it stops
 * in the middle of the test and starts again on the same port and data.
 */
const dbPath = mkdtempSync(join(tmpdir(), 'frontend-api-outage-'));
let port: number;
let dynamodb: BackendChild;
let user: TestUser;
// Test files share a worker process: the run's endpoint is put back for the next file.
const runEndpoint = process.env.DYNAMODB_ENDPOINT;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as { port: number };
      server.close(() => resolve(free));
    });
  });
}

async function startDatabase(): Promise<void> {
  dynamodb = await startDynamoDbLocal({ dbPath, port });
}

beforeAll(async () => {
  port = await freePort();
  await startDatabase();
  process.env.DYNAMODB_ENDPOINT = dynamodb.endpoint;
  resetServiceState();
  await provisionResources({ dynamodbEndpoint: dynamodb.endpoint, s3Endpoint: process.env.S3_ENDPOINT as string });
  user = await createTestUser({ 'first-name': 'Before' });
}, 60_000);

afterAll(async () => {
  await dynamodb.stop();
  process.env.DYNAMODB_ENDPOINT = runEndpoint;
  resetServiceState();
});

describe('with DynamoDB down', () => {
  beforeAll(async () => {
    await dynamodb.stop();
  });

  it('answers a read 503 problem with Retry-After', async () => {
    const response = await invoke('getCurrentUser', { caller: user.caller });
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.body).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(JSON.stringify(response.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack/i);
  });

  it('answers a write 503 problem', async () => {
    const response = await invoke('updateCurrentUser', { caller: user.caller, body: { 'first-name': 'During' } });
    expect(response.status).toBe(503);
  });

  it('answers 503 when the authorizer cannot read the users table', async () => {
    const response = await invoke('getCurrentUser', { token: user.token });
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
  });
});

describe('when DynamoDB is back', () => {
  beforeAll(async () => {
    await startDatabase();
  }, 60_000);

  it('recovers, with nothing of the failed write applied', async () => {
    const response = await invoke('getCurrentUser', { token: user.token });
    expect(response.status).toBe(200);
    expect(response.body['first-name']).toBe('Before');
    expect(response.headers.etag).toBe('"1"');
    const update = await invoke('updateCurrentUser', { token: user.token, body: { 'first-name': 'After' } });
    expect(update.status).toBe(200);
    expect(update.body['first-name']).toBe('After');
  });
});
