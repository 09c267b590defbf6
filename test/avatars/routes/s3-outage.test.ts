import { resetServiceState } from '../../../local/environment';
import { createTestUser, type TestUser } from '../../harness/users';
import { freePort } from '../fetch/local-servers';
import { currentAvatarIdOf, storedObjectKeys, storedRecords } from './stored-avatars';
import { useAvatarTestBed } from './test-bed';

/**
 * S3 unreachable during an upload: this file's functions talk to a closed loopback port instead of
 * the local S3, from before their first use (the avatar storage keeps the client it was built
 * with). Test files share a worker process: the run's endpoint is put back afterwards.
 */

const runEndpoint = process.env.S3_ENDPOINT;
const bed = useAvatarTestBed();
let user: TestUser;

beforeAll(async () => {
  process.env.S3_ENDPOINT = `http://127.0.0.1:${await freePort()}`;
  resetServiceState();
  user = await createTestUser();
});

afterAll(() => {
  process.env.S3_ENDPOINT = runEndpoint;
  resetServiceState();
});

it('answers a 503 problem with Retry-After and writes no record', async () => {
  const response = await bed.upload(user);

  expect(response.status).toBe(503);
  expect(response.headers['content-type']).toBe('application/problem+json');
  expect(response.headers['retry-after']).toBe('1');
  expect(response.body).toMatchObject({ status: 503, code: 'service_unavailable' });
  expect(JSON.stringify(response.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
  expect(bed.source.takeRequests()).toEqual(['/photo.png']);
  expect(await storedRecords()).toEqual([]);
  expect(await currentAvatarIdOf(user.record.id)).toBeNull();
});

it('has stored no object once S3 is reachable again', async () => {
  process.env.S3_ENDPOINT = runEndpoint;
  resetServiceState();

  expect(await storedObjectKeys()).toEqual([]);
});
