import { invoke } from '../../harness/invoke';
import { createTestUser, type TestUser } from '../../harness/users';
import { currentAvatarIdOf, expectRecordsMatchObjects } from './stored-avatars';
import { useAvatarTestBed } from './test-bed';

/**
 * Requests racing on one user's avatars: whatever the interleaving, exactly one avatar is enabled
 * (the newest), and every record has its object and every object its record.
 */

const bed = useAvatarTestBed();
const remove = bed.remove;

afterEach(async () => {
  await expectRecordsMatchObjects();
});

function upload(user: TestUser, left = 0) {
  return bed.upload(user, { left, top: 0, size: 32 });
}

/** The User's avatars as [id, enabled] pairs, newest first, and its current id. */
async function avatarsOf(user: TestUser): Promise<{ current: string | null; items: [string, boolean][] }> {
  const { body } = await invoke('getCurrentUser', { token: user.token });
  if (body.avatars === null) return { current: null, items: [] };
  return { current: body.avatars.current, items: body.avatars.items.map((item: { id: string; enabled: boolean }) => [item.id, item.enabled]) };
}

it('keeps every one of 5 parallel uploads, with exactly one enabled: the newest', async () => {
  const user = await createTestUser();

  const responses = await Promise.all([0, 1, 2, 3, 4].map((left) => upload(user, left)));

  expect(responses.map((response) => response.status)).toEqual([201, 201, 201, 201, 201]);
  const { current, items } = await avatarsOf(user);
  expect(items.map(([id]) => id).sort()).toEqual(responses.map((response) => response.body.avatar.id).sort());
  expect(items.filter(([, enabled]) => enabled)).toEqual([[current, true]]);
  expect(items[0]).toEqual([current, true]);
});

it('enables the newest remaining avatar when deletions and an upload race', async () => {
  const user = await createTestUser();
  const ids: string[] = [];
  for (const left of [0, 1, 2]) ids.push((await upload(user, left)).body.avatar.id);

  const [deleteNewest, deleteMiddle, added] = await Promise.all([remove(user, ids[2]!), remove(user, ids[1]!), upload(user, 3)]);

  expect([deleteNewest.status, deleteMiddle.status, added.status]).toEqual([204, 204, 201]);
  const { current, items } = await avatarsOf(user);
  expect(items).toEqual([
    [added.body.avatar.id, true],
    [ids[0], false],
  ]);
  expect(current).toBe(added.body.avatar.id);
});

it('leaves nothing when every avatar is deleted at once', async () => {
  const user = await createTestUser();
  const ids: string[] = [];
  for (const left of [0, 1, 2, 3]) ids.push((await upload(user, left)).body.avatar.id);

  const responses = await Promise.all(ids.map((id) => remove(user, id)));

  expect(responses.map((response) => response.status)).toEqual([204, 204, 204, 204]);
  expect(await avatarsOf(user)).toEqual({ current: null, items: [] });
  expect(await currentAvatarIdOf(user.record.id)).toBeNull();
});
