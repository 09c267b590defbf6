import { marshall } from '@aws-sdk/util-dynamodb';
import { familyChanges, type UserImageRecord } from '../../functions/media-log/family/family-changes';
import { usersKeys } from '../../functions/shared/tables/users-keys';

/** A profile image of the users table, as its stream carries it. */
function profile(id: number, parentId?: number): Record<string, unknown> {
  return marshall({ ...usersKeys.profile(id), id, role: parentId === undefined ? 'user' : 'sub', ...(parentId === undefined ? {} : { parentId }) });
}

const change = (before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): UserImageRecord => ({
  dynamodb: { ...(before ? { OldImage: before } : {}), ...(after ? { NewImage: after } : {}) },
});

describe('the family changes of a batch of the users table stream', () => {
  it('moves a sub user given another parent from the old parent\'s family to the new one\'s', () => {
    expect(familyChanges([change(profile(7, 1), profile(7, 2))])).toEqual([{ userId: 7, from: 1, to: 2 }]);
  });

  it('moves a sub user made a top user into its own family, and back', () => {
    expect(familyChanges([change(profile(7, 1), profile(7))])).toEqual([{ userId: 7, from: 1, to: 7 }]);
    expect(familyChanges([change(profile(7), profile(7, 3))])).toEqual([{ userId: 7, from: 7, to: 3 }]);
  });

  it('moves nothing for a change that keeps the family, a new user, a deleted user or an item that is no profile', () => {
    const avatar = marshall({ pk: 'USER#7', sk: 'AVATAR#1', id: 7 });
    expect(familyChanges([
      change(profile(7, 1), { ...profile(7, 1), status: { S: 'suspended' } }),
      change(undefined, profile(8, 1)),
      change(profile(9, 1), undefined),
      change(avatar, { ...avatar, parentId: { N: '2' } }),
    ])).toEqual([]);
  });

  it('moves a user moved twice in one batch once, from its first family to its last', () => {
    expect(familyChanges([change(profile(7, 1), profile(7, 2)), change(profile(7, 2), profile(7, 3))])).toEqual([{ userId: 7, from: 1, to: 3 }]);
    expect(familyChanges([change(profile(7, 1), profile(7, 2)), change(profile(7, 2), profile(7, 1))])).toEqual([]);
  });
});
