import { marshall } from '@aws-sdk/util-dynamodb';
import { accessChanges, batchAccessChanges } from '../../functions/live/access/access-changes';
import { expiryPlan } from '../../functions/live/access/expiry-plan';
import type { LiveConnection } from '../../functions/live/model/live-connection';

/** What a change of a user asks of the live connections, and what an expiry sweep closes: the plans, from their inputs alone. */

const user = (id: number, changes: Partial<{ role: 'root' | 'admin' | 'user' | 'sub'; status: string; parentId: number | null }> = {}) => ({
  id,
  role: 'user' as const,
  status: 'active',
  parentId: null,
  ...changes,
});

describe('the access changes of a profile change', () => {
  it.each([
    ['a suspension', user(5), user(5, { status: 'suspended' }), [{ kind: 'revoke', userId: 5 }]],
    ['a promotion to admin', user(5), user(5, { role: 'admin' }), [{ kind: 'revoke', userId: 5 }]],
    ['a deletion', user(5), undefined, [{ kind: 'revoke', userId: 5 }]],
    ['a new sub user', undefined, user(6, { role: 'sub', parentId: 5 }), [{ kind: 'refresh-family', headId: 5 }]],
    ['a sub moved to another parent', user(6, { role: 'sub', parentId: 5 }), user(6, { role: 'sub', parentId: 7 }), [{ kind: 'revoke', userId: 6 }, { kind: 'refresh-family', headId: 5 }, { kind: 'refresh-family', headId: 7 }]],
    ['a deleted sub user', user(6, { role: 'sub', parentId: 5 }), undefined, [{ kind: 'revoke', userId: 6 }, { kind: 'refresh-family', headId: 5 }]],
    ['a new root user', undefined, user(9, { role: 'root' }), [{ kind: 'refresh-admins' }]],
    ['a root user demoted', user(9, { role: 'root' }), user(9, { role: 'admin' }), [{ kind: 'revoke', userId: 9 }, { kind: 'refresh-admins' }]],
    ['a change of name', user(5), user(5), []],
  ])('%s', (_what, before, after, expected) => {
    expect(accessChanges(before, after)).toEqual(expected);
  });

  it('reads profile images only, and asks each thing once per batch', () => {
    const profile = (id: number, status: string) => marshall({ pk: `USER#${id}`, sk: 'PROFILE', id, role: 'user', status });
    const avatar = marshall({ pk: 'USER#5', sk: 'AVATAR#x', id: 'x' });
    const records = [
      { dynamodb: { OldImage: profile(5, 'active'), NewImage: profile(5, 'suspended') } },
      { dynamodb: { OldImage: profile(5, 'suspended'), NewImage: profile(5, 'active') } },
      { dynamodb: { NewImage: avatar } },
    ];
    expect(batchAccessChanges(records as never)).toEqual([{ kind: 'revoke', userId: 5 }]);
  });
});

describe('an expiry sweep', () => {
  const connection = (connectionId: string, tokenExpires: number, closesAt = 10_000): LiveConnection => ({
    connectionId,
    caller: { userId: 1, role: 'user', parentId: null },
    tokenExpires,
    connectedAt: 0,
    closesAt,
    directory: {},
    subscriptions: {},
    revision: 0,
  });

  it('closes expired and ended connections now, and those expiring within its horizon when they do, in order', () => {
    const plan = expiryPlan([connection('expired', 99), connection('ended', 500, 50), connection('soon', 130), connection('sooner', 110), connection('later', 400)], 100_000, 60_000);
    expect(plan).toEqual({ now: ['expired', 'ended'], later: [{ connectionId: 'sooner', atMs: 110_000 }, { connectionId: 'soon', atMs: 130_000 }] });
  });
});
