import { randomUUID } from 'node:crypto';
import { avatarObjectKey, parseAvatarObjectKey, sha256Hex } from '../../../functions/avatars/avatar-object-key';
import { avatarRepository, avatarStorage } from '../../../local/tool-composition';
import { reconcileAvatarObjects } from '../../../functions/avatars/avatar-reconciler';
import { createTestUser } from '../../harness/users';
import { storedObjectKeys } from './stored-avatars';
import { useAvatarTestBed } from './test-bed';

/**
 * The reconciler: the sweep that deletes objects no record points at (what a crash between the two
 * writes of an upload or a deletion leaves), and nothing else.
 */

const bed = useAvatarTestBed();

describe('avatar object keys', () => {
  it('name the user, the avatar and the SHA-256 of the bytes, and parse back', () => {
    const name = { userId: 42, avatarId: randomUUID(), sha256: sha256Hex(Buffer.from('avatar')) };

    const key = avatarObjectKey(name);

    expect(key).toBe(`avatars/42/${name.avatarId}/${name.sha256}.webp`);
    expect(parseAvatarObjectKey(key)).toEqual(name);
  });

  it.each(['avatars/readme.txt', 'pending/1/x.webp', `avatars/1/${randomUUID()}/abc.webp`, `avatars/x/${randomUUID()}/${'a'.repeat(64)}.webp`])(
    'do not parse %s',
    (key) => {
      expect(parseAvatarObjectKey(key)).toBeNull();
    },
  );
});

describe('reconcileAvatarObjects', () => {
  it('deletes old objects without a record and keeps recorded, young and foreign ones', async () => {
    const user = await createTestUser();
    const uploaded = await bed.upload(user);
    const [recorded] = await storedObjectKeys();
    const bytes = Buffer.from('orphan');
    const orphan = avatarObjectKey({ userId: user.record.id, avatarId: randomUUID(), sha256: sha256Hex(bytes) });
    const foreign = 'avatars/readme.txt';
    await avatarStorage().put(orphan, bytes);
    await avatarStorage().put(foreign, bytes);

    const young = await reconcileAvatarObjects(avatarStorage(), avatarRepository());
    const old = await reconcileAvatarObjects(avatarStorage(), avatarRepository(), { now: new Date(Date.now() + 2 * 60 * 60 * 1000) });

    expect(uploaded.status).toBe(201);
    expect(young).toEqual({ examined: 3, deleted: [], spared: 2, foreign: [foreign] });
    expect(old).toEqual({ examined: 3, deleted: [orphan], spared: 0, foreign: [foreign] });
    expect(await storedObjectKeys()).toEqual([recorded, foreign].sort());
  });
});
