import { randomUUID } from 'node:crypto';
import { invoke } from '../../harness/invoke';
import { createTestUser, type TestUser } from '../../harness/users';
import { currentAvatarIdOf, expectRecordsMatchObjects, storedObject, storedRecords } from './stored-avatars';
import { useAvatarTestBed } from './test-bed';

/**
 * DELETE /user/current/avatar/{avatar-id}: the caller's own avatars only; the record and then the
 * object go, and the newest remaining avatar is enabled when the enabled one goes.
 */

const bed = useAvatarTestBed();
const remove = bed.remove;

afterEach(async () => {
  await expectRecordsMatchObjects();
});

/** Uploads `count` avatars for `user`, oldest first, and returns their ids. */
async function uploadAvatars(user: TestUser, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const response = await bed.upload(user, { left: index, top: 0, size: 32 });
    expect(response.status).toBe(201);
    ids.push(response.body.avatar.id);
  }
  return ids;
}

async function objectKeyOf(avatarId: string): Promise<string> {
  const record = (await storedRecords()).find((candidate) => candidate.avatarId === avatarId);
  if (!record) throw new Error(`No record of avatar ${avatarId}.`);
  return record.objectKey;
}

describe('deleting one of the caller\'s avatars', () => {
  it('answers 204 with an empty body and deletes the record and the object', async () => {
    const user = await createTestUser();
    const [id] = await uploadAvatars(user, 1);
    const key = await objectKeyOf(id!);

    const response = await remove(user, id!);

    expect(response.status).toBe(204);
    expect(response.raw.body.byteLength).toBe(0);
    expect((await storedRecords()).some((record) => record.avatarId === id)).toBe(false);
    expect(await storedObject(key)).toBeNull();
  });

  it('enables the next newest avatar when the enabled one is deleted', async () => {
    const user = await createTestUser();
    const [oldest, middle, newest] = await uploadAvatars(user, 3);

    await remove(user, newest!);

    const profile = await invoke('getCurrentUser', { token: user.token });
    expect(profile.body.avatars.current).toBe(middle);
    expect(profile.body.avatars.items.map((item: { id: string; enabled: boolean }) => [item.id, item.enabled])).toEqual([
      [middle, true],
      [oldest, false],
    ]);
  });

  it('keeps the enabled avatar when another one is deleted', async () => {
    const user = await createTestUser();
    const [oldest, newest] = await uploadAvatars(user, 2);

    await remove(user, oldest!);

    expect(await currentAvatarIdOf(user.record.id)).toBe(newest);
  });

  it('leaves no avatar, and none enabled, when the last one is deleted', async () => {
    const user = await createTestUser();
    const [id] = await uploadAvatars(user, 1);

    await remove(user, id!);

    const profile = await invoke('getCurrentUser', { token: user.token });
    expect(profile.body.avatars).toBeNull();
    expect(await currentAvatarIdOf(user.record.id)).toBeNull();
  });

  it('accepts the id in upper case', async () => {
    const user = await createTestUser();
    const [id] = await uploadAvatars(user, 1);

    expect((await remove(user, id!.toUpperCase())).status).toBe(204);
  });
});

describe('avatars that are not the caller\'s to delete', () => {
  it('answers 404 for an id that names no avatar', async () => {
    const user = await createTestUser();

    const response = await remove(user, randomUUID());

    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'not_found', detail: 'No such avatar.' });
  });

  it("answers 404 for another user's avatar, which stays, enabled, with its object", async () => {
    const owner = await createTestUser();
    const [id] = await uploadAvatars(owner, 1);
    const key = await objectKeyOf(id!);
    const root = await createTestUser({ role: 'root' });

    const response = await remove(root, id!);

    expect(response.status).toBe(404);
    expect(await currentAvatarIdOf(owner.record.id)).toBe(id);
    expect(await storedObject(key)).not.toBeNull();
  });

  it('answers 404 to a second delete of the same avatar', async () => {
    const user = await createTestUser();
    const [id] = await uploadAvatars(user, 1);
    await remove(user, id!);

    expect((await remove(user, id!)).status).toBe(404);
  });

  it('answers 400 naming avatar-id for an id that is not a UUID', async () => {
    const user = await createTestUser();

    const response = await remove(user, 'not-a-uuid');

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ name: 'avatar-id', reason: 'Must be an avatar id in UUID form.' }]);
  });

  it('refuses a request body with 400', async () => {
    const user = await createTestUser();
    const [id] = await uploadAvatars(user, 1);

    const response = await invoke('deleteCurrentAvatar', { token: user.token, pathParameters: { 'avatar-id': id! }, body: { force: true } });

    expect(response.status).toBe(400);
    expect(await currentAvatarIdOf(user.record.id)).toBe(id);
  });
});
