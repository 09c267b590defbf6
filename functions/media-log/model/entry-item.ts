import { MEDIA_LOG_ATTRIBUTES } from '../../shared/tables/media-log-table';
import type { CountedEntry } from './counters';
import { isIndexedStatus, STATUS_FIELDS, type MediaStatus, type StatusField } from './entry-fields';
import { mediaLogKeys, parseSendKey, sendKey, STATUS_STORAGE, urlHash } from './keys';
import type { MediaLogEntry } from './schemas';

/**
 * The stored form of an entry: its item in the media log table, with one partition value per
 * listing index it belongs to. The writers, the fold and the key-heat bench all build items here.
 */

/** When each status field last changed (the `at` of the change that set it), as stored. */
export type StatusStamps = Readonly<Record<StatusField, string>>;

/**
 * The partition value of `field`'s status index for entry `id` holding `value`, or undefined when
 * the value has no index items (`success`): the attribute is then absent and the entry is in no
 * partition of that index.
 */
export function statusPartition(id: string, value: MediaStatus): string | undefined {
  return isIndexedStatus(value) ? mediaLogKeys.status(value, mediaLogKeys.shardsOf(id).status(value)) : undefined;
}

/**
 * The family attributes of an entry of user `userId` in family `familyId`: the family itself (which
 * the live log routes by) and, for a sub user's entry, its partition of the family index. A top
 * user's own entry has no family partition: its user partitions and counters already hold it, and
 * a family's listing reads them beside the family's (counters.ts, `entryScopes`), so a top user's
 * entry is indexed and counted once, not twice (DESIGN.md 7b: writes do not give way). Written with
 * a new entry, and again when its user moves to another family (family/family-rekey.ts).
 */
export function familyAttributes(id: string, userId: number, familyId: number): { readonly set: Record<string, string | number>; readonly removed: readonly string[] } {
  const partition = MEDIA_LOG_ATTRIBUTES.partition.family;
  if (familyId === userId) return { set: { [MEDIA_LOG_ATTRIBUTES.family]: familyId }, removed: [partition] };
  return { set: { [MEDIA_LOG_ATTRIBUTES.family]: familyId, [partition]: mediaLogKeys.family(familyId, mediaLogKeys.shardsOf(id).family) }, removed: [] };
}

/** The partition values of an entry, one per listing index it belongs to (the shards its id falls in); the family's apart ({@link familyAttributes}). */
export function entryPartitions(entry: Pick<MediaLogEntry, StatusField | 'id' | 'send' | 'url' | 'user-id'>): Record<string, string> {
  const shards = mediaLogKeys.shardsOf(entry.id);
  const { partition } = MEDIA_LOG_ATTRIBUTES;
  const values: Record<string, string> = {
    [partition.log]: mediaLogKeys.log(shards.log),
    [partition.user]: mediaLogKeys.user(entry['user-id'], shards.user),
    [partition.url]: mediaLogKeys.url(urlHash(entry.url), shards.url),
  };
  for (const field of STATUS_FIELDS) {
    const value = statusPartition(entry.id, entry[field]);
    if (value !== undefined) values[partition[STATUS_STORAGE[field].index]] = value;
  }
  return values;
}

/**
 * The stored item of an entry of family `familyId` (its user's top user when written; the user
 * itself unless told, as for a user of role `user`): its key, send key, url, user, family and
 * statuses, when each status was set (`stamps`; a new request's statuses hold from its send time),
 * and its index partitions. The id and send time are not stored apart: the key and the send key
 * hold them.
 */
export function entryItem(entry: MediaLogEntry, stamps?: StatusStamps, familyId: number = entry['user-id']): Record<string, string | number> {
  const item: Record<string, string | number> = {
    ...mediaLogKeys.entry(entry.id),
    [MEDIA_LOG_ATTRIBUTES.sendKey]: sendKey(entry.send, entry.id),
    url: entry.url,
    [MEDIA_LOG_ATTRIBUTES.userId]: entry['user-id'],
    ...entryPartitions(entry),
    ...familyAttributes(entry.id, entry['user-id'], familyId).set,
  };
  for (const field of STATUS_FIELDS) {
    const storage = STATUS_STORAGE[field];
    item[storage.attribute] = entry[field];
    item[storage.changedAt] = stamps?.[field] ?? entry.send;
  }
  return item;
}

/** The entry an item holds (the table's item, or a stream image of it). */
export function entryFromItem(item: Readonly<Record<string, unknown>>): MediaLogEntry {
  const { send } = parseSendKey(item[MEDIA_LOG_ATTRIBUTES.sendKey] as string);
  return {
    id: mediaLogKeys.idOf(item.pk as string),
    send,
    status: item[STATUS_STORAGE.status.attribute] as MediaStatus,
    'status-ffscan': item[STATUS_STORAGE['status-ffscan'].attribute] as MediaStatus,
    'status-mediainfo': item[STATUS_STORAGE['status-mediainfo'].attribute] as MediaStatus,
    'status-scan-report': item[STATUS_STORAGE['status-scan-report'].attribute] as MediaStatus,
    url: item.url as string,
    'user-id': item[MEDIA_LOG_ATTRIBUTES.userId] as number,
  };
}

/** The entry an item holds, with the family it was written with (absent on an item written before families were kept): what the fold and the recount count. */
export function countedEntryOfItem(item: Readonly<Record<string, unknown>>): CountedEntry {
  const family = item[MEDIA_LOG_ATTRIBUTES.family];
  return typeof family === 'number' ? { ...entryFromItem(item), family } : entryFromItem(item);
}

/** When each status of a stored item was set. */
export function stampsOfItem(item: Readonly<Record<string, unknown>>): StatusStamps {
  return Object.fromEntries(STATUS_FIELDS.map((field) => [field, item[STATUS_STORAGE[field].changedAt] as string])) as Record<StatusField, string>;
}
