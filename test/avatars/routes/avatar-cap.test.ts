import { AVATAR_DEFAULTS } from '../../../functions/avatars/avatar-config';

const MAX_AVATARS_PER_USER = AVATAR_DEFAULTS.maxPerUser;
import { invoke } from '../../harness/invoke';
import { createTestUser } from '../../harness/users';
import { expectRecordsMatchObjects, storedRecords } from './stored-avatars';
import { useAvatarTestBed } from './test-bed';

/**
 * A user holds at most MAX_AVATARS_PER_USER avatars: the next upload replaces the oldest disabled
 * one (record and object), so a user uploading in a loop never grows its partition or the bucket.
 */

const bed = useAvatarTestBed();

describe('the avatar cap', () => {
  it(`keeps ${MAX_AVATARS_PER_USER} avatars, replacing the oldest disabled one, and the enabled one survives`, async () => {
    const user = await createTestUser();
    const ids: string[] = [];
    for (let upload = 0; upload < MAX_AVATARS_PER_USER + 2; upload += 1) {
      const response = await bed.upload(user);
      expect(response.status).toBe(201);
      ids.push(response.body.avatar.id as string);
    }
    const mine = (await storedRecords()).filter((record) => record.userId === user.record.id).map((record) => record.avatarId);
    expect(mine).toHaveLength(MAX_AVATARS_PER_USER);
    // The two oldest are gone, the newest (enabled) is there.
    expect(mine).not.toContain(ids[0]);
    expect(mine).not.toContain(ids[1]);
    expect(mine).toContain(ids.at(-1));
    const profile = await invoke('getCurrentUser', { token: user.token });
    expect(profile.body.avatars.current).toBe(ids.at(-1));
    expect(profile.body.avatars.items).toHaveLength(MAX_AVATARS_PER_USER);
    await expectRecordsMatchObjects();
  }, 120_000);
});
