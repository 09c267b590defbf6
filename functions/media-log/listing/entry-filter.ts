import type { ItemFilter } from '../../shared/listing/merge-reader';
import type { StatusFilter } from '../model/counters';
import { STATUS_STORAGE } from '../model/keys';
import { STATUS_FIELDS } from '../model/entry-fields';
import type { MediaLogEntry } from '../model/schemas';

/** The conditions an index partition does not already guarantee, checked on each entry read. */
export interface FilterParts {
  readonly statuses?: StatusFilter;
  /** At most {@link MAX_IN_OPERANDS} ids: a larger set is read from its users' own partitions, or (a url's partition) in streams of that many ids each. */
  readonly userIds?: readonly number[];
  /** Users whose entries are left out (root users, for an admin). */
  readonly excludeUserIds?: readonly number[];
  readonly url?: string;
}

/** DynamoDB's limit on the operands of one IN. */
export const MAX_IN_OPERANDS = 100;

/** `#user IN (…)` clauses of at most {@link MAX_IN_OPERANDS} ids each. */
function userIn(ids: readonly number[], prefix: string, names: Record<string, string>, values: Record<string, unknown>): string[] {
  // DynamoDB refuses a name placeholder that no clause uses.
  if (ids.length === 0) return [];
  names['#user'] = 'userId';
  const clauses: string[] = [];
  for (let offset = 0; offset < ids.length; offset += MAX_IN_OPERANDS) {
    const placeholders = ids.slice(offset, offset + MAX_IN_OPERANDS).map((id, position) => {
      values[`:${prefix}${offset + position}`] = id;
      return `:${prefix}${offset + position}`;
    });
    clauses.push(`#user IN (${placeholders.join(', ')})`);
  }
  return clauses;
}

/** A DynamoDB filter expression for `parts`, or undefined when nothing needs checking. */
export function entryFilter(parts: FilterParts): ItemFilter | undefined {
  const clauses: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  STATUS_FIELDS.forEach((field, index) => {
    const allowed = parts.statuses?.[field];
    if (allowed === undefined) return;
    names[`#s${index}`] = STATUS_STORAGE[field].attribute;
    const placeholders = allowed.map((value, position) => {
      values[`:s${index}_${position}`] = value;
      return `:s${index}_${position}`;
    });
    clauses.push(`#s${index} IN (${placeholders.join(', ')})`);
  });
  if (parts.userIds !== undefined) {
    if (parts.userIds.length > MAX_IN_OPERANDS) throw new Error(`A user filter names at most ${MAX_IN_OPERANDS} users.`);
    clauses.push(...userIn(parts.userIds, 'u', names, values));
  }
  // One NOT IN per hundred hidden users, all of them ANDed: each clause stays within DynamoDB's limits.
  if (parts.excludeUserIds !== undefined) clauses.push(...userIn(parts.excludeUserIds, 'x', names, values).map((clause) => `NOT ${clause}`));
  if (parts.url !== undefined) {
    names['#url'] = 'url';
    values[':url'] = parts.url;
    clauses.push('#url = :url');
  }
  return clauses.length === 0 ? undefined : { expression: clauses.join(' AND '), names, values };
}

/** Whether an entry satisfies `parts` (the same conditions, checked in memory). */
export function entryMatches(entry: MediaLogEntry, parts: FilterParts): boolean {
  const statusesMatch = STATUS_FIELDS.every((field) => parts.statuses?.[field]?.includes(entry[field]) ?? true);
  return (
    statusesMatch &&
    (parts.userIds?.includes(entry['user-id']) ?? true) &&
    !(parts.excludeUserIds?.includes(entry['user-id']) ?? false) &&
    (parts.url === undefined || parts.url === entry.url)
  );
}
