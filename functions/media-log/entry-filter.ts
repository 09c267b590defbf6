import type { StatusFilter } from './counter-keys';
import { STATUS_STORAGE } from './media-log-keys';
import type { EntryFilter } from './media-log-reader';
import { STATUS_FIELDS, type MediaLogEntry } from './schemas';

/** The conditions an index partition does not already guarantee, checked on each entry read. */
export interface FilterParts {
  readonly statuses?: StatusFilter;
  readonly userIds?: readonly number[];
  /** Users whose entries are left out (root users, for an admin). */
  readonly excludeUserIds?: readonly number[];
  readonly url?: string;
}

/** DynamoDB's limit on the operands of one IN. */
const MAX_IN_OPERANDS = 100;

/** A DynamoDB filter expression for `parts`, or undefined when nothing needs checking. */
export function entryFilter(parts: FilterParts): EntryFilter | undefined {
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
  const userIn = (ids: readonly number[], prefix: string): string => {
    names['#user'] = 'userId';
    const groups: string[] = [];
    for (let offset = 0; offset < ids.length; offset += MAX_IN_OPERANDS) {
      const placeholders = ids.slice(offset, offset + MAX_IN_OPERANDS).map((id, position) => {
        values[`:${prefix}${offset + position}`] = id;
        return `:${prefix}${offset + position}`;
      });
      groups.push(`#user IN (${placeholders.join(', ')})`);
    }
    return groups.length === 1 ? (groups[0] as string) : `(${groups.join(' OR ')})`;
  };
  if (parts.userIds !== undefined) clauses.push(userIn(parts.userIds, 'u'));
  if (parts.excludeUserIds !== undefined && parts.excludeUserIds.length > 0) clauses.push(`NOT ${userIn(parts.excludeUserIds, 'x')}`);
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
