import type { ItemFilter } from '../../shared/listing/index-query';
import { MEDIA_LOG_ATTRIBUTES } from '../../shared/tables/media-log-table';
import type { StatusFilter } from '../model/counters';
import { STATUS_FIELDS } from '../model/entry-fields';
import type { MediaLogEntry } from '../model/schemas';

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

/**
 * A DynamoDB filter expression on index items for the users a listing shows (at most
 * {@link MAX_IN_OPERANDS}: a larger set is read in streams of that many) or hides (root users, for
 * an admin), or undefined when nothing needs checking there. Index items hold keys and the user id
 * only (media-log-table.ts): the statuses and the url are checked on the entries a page reads.
 */
export function indexFilter(parts: { readonly userIds?: readonly number[]; readonly excludeUserIds?: readonly number[] }): ItemFilter | undefined {
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

/** Whether an entry's statuses are among those filtered, and its url the one asked. */
export function entryMatches(entry: MediaLogEntry, filter: { readonly statuses?: StatusFilter; readonly url?: string }): boolean {
  return STATUS_FIELDS.every((field) => filter.statuses?.[field]?.includes(entry[field]) ?? true) && (filter.url === undefined || filter.url === entry.url);
}
