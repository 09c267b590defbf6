import { MEDIA_LOG_ATTRIBUTES } from '../../shared/tables/media-log-table';
import { mediaLogKeys, sendKey, STATUS_STORAGE, urlHash } from './keys';
import type { MediaStatus, StatusField } from './entry-fields';
import type { MediaLogEntry } from './schemas';
import { bucketOf } from './time-buckets';

/** The partition values an entry carries, one per listing index (its month's partitions). */
export function entryPartitions(entry: Pick<MediaLogEntry, StatusField | 'send' | 'url' | 'user-id'>): Record<string, string> {
  const month = bucketOf('month', entry.send);
  const { partition } = MEDIA_LOG_ATTRIBUTES;
  const values: Record<string, string> = {
    [partition.log]: mediaLogKeys.log(month),
    [partition.user]: mediaLogKeys.user(entry['user-id'], month),
    [partition.url]: mediaLogKeys.url(urlHash(entry.url)),
  };
  for (const [field, storage] of Object.entries(STATUS_STORAGE) as [StatusField, (typeof STATUS_STORAGE)[StatusField]][]) {
    values[partition[storage.partition]] = mediaLogKeys.status(entry[field]);
  }
  return values;
}

/** The stored item of a new entry: its fields, when each status was set, and one partition value per listing index. */
export function entryItem(entry: MediaLogEntry): Record<string, string | number> {
  const item: Record<string, string | number> = {
    ...mediaLogKeys.entry(entry.id),
    id: entry.id,
    send: entry.send,
    url: entry.url,
    userId: entry['user-id'],
    [MEDIA_LOG_ATTRIBUTES.sendKey]: sendKey(entry.send, entry.id),
    ...entryPartitions(entry),
  };
  for (const [field, storage] of Object.entries(STATUS_STORAGE) as [StatusField, (typeof STATUS_STORAGE)[StatusField]][]) {
    item[storage.attribute] = entry[field];
    // A request's statuses hold from its send time; a feed status message changes one with a later `at`.
    item[storage.changedAt] = entry.send;
  }
  return item;
}

/** The entry an item (from the table or a listing index) holds. */
export function entryFromItem(item: Record<string, unknown>): MediaLogEntry {
  return {
    id: item.id as string,
    send: item.send as string,
    status: item[STATUS_STORAGE.status.attribute] as MediaStatus,
    'status-ffscan': item[STATUS_STORAGE['status-ffscan'].attribute] as MediaStatus,
    'status-mediainfo': item[STATUS_STORAGE['status-mediainfo'].attribute] as MediaStatus,
    'status-scan-report': item[STATUS_STORAGE['status-scan-report'].attribute] as MediaStatus,
    url: item.url as string,
    'user-id': item.userId as number,
  };
}
