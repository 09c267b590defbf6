import type { ItemFilter } from '../../shared/listing/index-query';
import { MEDIA_LOG_ATTRIBUTES } from '../../shared/tables/media-log-table';
import type { StatusFilter } from '../model/counters';
import { STATUS_FIELDS } from '../model/entry-fields';
import type { MediaLogEntry } from '../model/schemas';

/**
 * The conditions of a listing that its index partitions do not guarantee. Index items hold keys and
 * the user id only (media-log-table.ts), so the users are checked on index items, by DynamoDB, and
 * the statuses and the url on the entries a page reads.
 */
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
  names['#user'] = MEDIA_LOG_ATTRIBUTES.userId;
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

/** A DynamoDB filter expression on index items for the users of `parts`, or undefined when nothing needs checking there. */
export function indexFilter(parts: Pick<FilterParts, 'userIds' | 'excludeUserIds'>): ItemFilter | undefined {
  const clauses: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (parts.userIds !== undefined) {
    if (parts.userIds.length > MAX_IN_OPERANDS) throw new Error(`A user filter names at most ${MAX_IN_OPERANDS} users.`);
    clauses.push(...userIn(parts.userIds, 'u', names, values));
  }
  // One NOT IN per hundred hidden users, all of them ANDed: each clause stays within DynamoDB's limits.
  if (parts.excludeUserIds !== undefined) clauses.push(...userIn(parts.excludeUserIds, 'x', names, values).map((clause) => `NOT ${clause}`));
  return clauses.length === 0 ? undefined : { expression: clauses.join(' AND '), names, values };
}

/** Whether an entry belongs in a listing: the conditions no index item can show (statuses, the url itself). */
export type EntryCheck = (entry: MediaLogEntry) => boolean;

/** Whether any status field is filtered on: the entries must then be read to know which match. */
export function filtersStatuses(statuses: StatusFilter | undefined): boolean {
  return statuses !== undefined && STATUS_FIELDS.some((field) => statuses[field] !== undefined);
}

/** Whether an entry satisfies every condition of `parts`. */
export function entryMatches(entry: MediaLogEntry, parts: FilterParts): boolean {
  const statusesMatch = STATUS_FIELDS.every((field) => parts.statuses?.[field]?.includes(entry[field]) ?? true);
  return (
    statusesMatch &&
    (parts.userIds?.includes(entry['user-id']) ?? true) &&
    !(parts.excludeUserIds?.includes(entry['user-id']) ?? false) &&
    (parts.url === undefined || parts.url === entry.url)
  );
}
