import type { Role } from '../shared/access/roles';
import { ValidationError } from '../shared/errors';

/**
 * The family rule of DESIGN.md section 2, for account creation and changes alike: a sub user has a
 * parent (of role `user`, which the write itself checks), every other role has none.
 *
 * @throws ValidationError (400) naming `parent`.
 */
export function checkParentRule(role: Role, parentId: number | null, userId?: number): void {
  if (role === 'sub' && parentId === null) throw new ValidationError([{ name: 'parent', reason: 'A sub user needs a parent of role user.' }]);
  if (role !== 'sub' && parentId !== null) throw new ValidationError([{ name: 'parent', reason: 'Only sub users have a parent.' }]);
  if (parentId !== null && parentId === userId) throw new ValidationError([{ name: 'parent', reason: 'A user cannot be its own parent.' }]);
}
