import { MEDIA_LOG_ATTRIBUTES } from '../../shared/tables/media-log-table';
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

/** The partition values of an entry, one per listing index it belongs to (the shards its id falls in). */
export function entryPartitions(entry: Pick<MediaLogEntry, StatusField | 'id' | 'send' | 'url' | 'user-id'>): Record<string, string> {
  const shards = mediaLogKeys.shardsOf(entry.id);
  const { partition } = MEDIA_LOG_ATTRIBUTES;
  const values: Record<string, string> = {
    [partition.log]: mediaLogKeys.log(shards.log),
    [partition.user]: mediaLogKeys.user(entry['user-id'], shards.user),
    [partition.url]: mediaLogKeys.url(urlHash(entry.url)),
  };
  for (const field of STATUS_FIELDS) {
    const value = statusPartition(entry.id, entry[field]);
    if (value !== undefined) values[partition[STATUS_STORAGE[field].index]] = value;
  }
  return values;
}

/**
 * The stored item of an entry: its key, send key, url, user and statuses, when each status was
 * set (`stamps`; a new request's statuses hold from its send time), and its index partitions. The
 * id and send time are not stored apart: the key and the send key hold them.
 */
export function entryItem(entry: MediaLogEntry, stamps?: StatusStamps): Record<string, string | number> {
  const item: Record<string, string | number> = {
    ...mediaLogKeys.entry(entry.id),
    [MEDIA_LOG_ATTRIBUTES.sendKey]: sendKey(entry.send, entry.id),
    url: entry.url,
    [MEDIA_LOG_ATTRIBUTES.userId]: entry['user-id'],
    ...entryPartitions(entry),
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

/** When each status of a stored item was set. */
export function stampsOfItem(item: Readonly<Record<string, unknown>>): StatusStamps {
  return Object.fromEntries(STATUS_FIELDS.map((field) => [field, item[STATUS_STORAGE[field].changedAt] as string])) as Record<StatusField, string>;
}
