import { UploadFormQuota } from '../../../functions/avatars/uploads/upload-form-quota';
import { getDocumentClient } from '../../../functions/shared/aws/clients';
import { tableName } from '../../../functions/shared/config/data-config';
import { avatarBucket } from '../../../functions/shared/storage/avatar-bucket';
import { usersTable } from '../../../functions/shared/tables/users-table';
import { invoke } from '../../harness/invoke';
import { createTestUser, type TestUser } from '../../harness/users';
import { requestUploadForm } from './upload-forms';

/**
 * What a user's upload forms may cost. Each form lets a browser store one file of up to the byte cap
 * for about a day, so the forms a user is given are bounded: `avatarBucket.uploadFormsPerDay` a
 * (UTC) day, whoever asks for them (the user, or a manager for that user). Beyond that a form request
 * is a 429 `upload_forms_exhausted` whose Retry-After points at the next day, and no form is given.
 */

const PER_DAY = avatarBucket.uploadFormsPerDay;

/** Seconds from now to the next midnight UTC. */
function secondsToMidnightUtc(now = new Date()): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.ceil((midnight - now.getTime()) / 1000);
}

function expectExhausted(response: Awaited<ReturnType<typeof requestUploadForm>>) {
  expect(response.status).toBe(429);
  expect(response.body).toMatchObject({ status: 429, code: 'upload_forms_exhausted' });
  expect(response.body).not.toHaveProperty('url');
  const retryAfter = Number(response.headers['retry-after']);
  // Seconds to midnight UTC when it was answered: a few seconds before this check on a loaded machine.
  expect(Math.abs(retryAfter - secondsToMidnightUtc())).toBeLessThanOrEqual(60);
}

/** `count` forms one after the other: slow on a loaded machine, hence the longer timeouts of the tests that use it. */
async function requestForms(user: TestUser, count: number, target?: number) {
  const answers = [];
  for (let index = 0; index < count; index += 1) answers.push(await requestUploadForm(user, 'image/png', target));
  return answers;
}

describe('the upload forms of one user', () => {
  it(`are given ${PER_DAY} a day, then answered 429 upload_forms_exhausted until the next day`, async () => {
    const user = await createTestUser();

    const given = await requestForms(user, PER_DAY);
    const over = await requestUploadForm(user);

    expect(given.map((response) => response.status)).toEqual(Array(PER_DAY).fill(201));
    expectExhausted(over);
    expectExhausted(await requestUploadForm(user, 'image/jpeg'));
  }, 90_000);

  it('count the forms a manager asks for a user against that user, and only against that user', async () => {
    const parent = await createTestUser({ role: 'user' });
    const sub = await createTestUser({ role: 'sub', parent: parent.record.id });

    expect((await requestForms(parent, PER_DAY, sub.record.id)).every((response) => response.status === 201)).toBe(true);

    expectExhausted(await requestUploadForm(sub));
    expectExhausted(await requestUploadForm(parent, 'image/png', sub.record.id));
    expect((await requestUploadForm(parent)).status).toBe(201);
  }, 90_000);

  it('hold under a flood of concurrent requests: exactly the day\'s forms are given', async () => {
    const user = await createTestUser();
    const quota = new UploadFormQuota(getDocumentClient(), tableName(usersTable), PER_DAY);

    // Straight to the counter (the route adds a profile read and a signature to each): the writes race on one item.
    const outcomes = await Promise.allSettled(Array.from({ length: 2 * PER_DAY }, () => quota.take(user.record.id)));

    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(PER_DAY);
    for (const outcome of outcomes.filter((candidate) => candidate.status === 'rejected')) {
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ status: 429, code: 'upload_forms_exhausted' });
    }
    expectExhausted(await requestUploadForm(user));
  }, 60_000);

  it('leave the user\'s profile and its ETag as they were', async () => {
    const user = await createTestUser();
    const before = await invoke('getCurrentUser', { token: user.token });
    await requestForms(user, 2);
    const after = await invoke('getCurrentUser', { token: user.token });
    expect(after.headers.etag).toBe(before.headers.etag);
    expect(after.body).toEqual(before.body);
  });

  it('start again on the next day (UTC)', async () => {
    const user = await createTestUser();
    const quota = new UploadFormQuota(getDocumentClient(), tableName(usersTable), PER_DAY);
    const lastMinute = new Date('2030-01-01T23:59:00Z');
    for (let index = 0; index < PER_DAY; index += 1) await quota.take(user.record.id, lastMinute);

    await expect(quota.take(user.record.id, lastMinute)).rejects.toMatchObject({ status: 429, code: 'upload_forms_exhausted', headers: { 'Retry-After': '60' } });
    await expect(quota.take(user.record.id, new Date('2030-01-02T00:00:01Z'))).resolves.toBeUndefined();
  });
});
