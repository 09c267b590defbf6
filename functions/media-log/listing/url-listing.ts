import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { countWithinBudget } from '../../shared/listing/count-window';
import type { KeyWindow } from '../../shared/listing/key-window';
import type { SortedStream } from '../../shared/listing/merge-reader';
import { COUNT_READ_BUDGET } from '../../shared/listing/pagination';
import { MEDIA_LOG_ATTRIBUTES, mediaLogIndexName } from '../../shared/tables/media-log-table';
import type { StatusFilter } from '../model/counters';
import { mediaLogKeys, SEND_KEY_ATTRIBUTE, urlHash } from '../model/keys';
import { entryFilter, MAX_IN_OPERANDS } from './entry-filter';
import type { ListingScope } from './listing-scope';

/**
 * A listing filtered on one url reads the url's one partition (`URL#<hash>`, all time) and counts
 * its total there, within the count budget: exact up to {@link COUNT_READ_BUDGET} entries read,
 * `total-exact: false` beyond. A url keeps no counters, because most urls are requested a few
 * times: counters of their own would be items the fold writes for almost every entry (measured:
 * four of every seven counter writes), for listings that read a handful of entries.
 */

/**
 * The streams of a url listing: the url's partition, with the caller's users and the status filter
 * checked on each entry. A family of more than {@link MAX_IN_OPERANDS} users is split into streams
 * of that many (one IN each, DynamoDB's limit) over the same partition; their entries are disjoint,
 * and the merge reader puts them back in send order.
 */
export function urlStreams(listing: ListingScope, statuses: StatusFilter, url: string): SortedStream[] {
  const partition = { indexName: mediaLogIndexName('url'), attribute: MEDIA_LOG_ATTRIBUTES.partition.url, value: mediaLogKeys.url(urlHash(url)) };
  const stream = (filter: ReturnType<typeof entryFilter>): SortedStream => ({ partitions: [partition], ...(filter ? { filter } : {}) });
  if (listing.kind === 'all') return [stream(entryFilter({ statuses, url, ...(listing.exclude.length > 0 ? { excludeUserIds: listing.exclude } : {}) }))];
  const streams: SortedStream[] = [];
  for (let offset = 0; offset < listing.ids.length; offset += MAX_IN_OPERANDS) {
    streams.push(stream(entryFilter({ statuses, url, userIds: listing.ids.slice(offset, offset + MAX_IN_OPERANDS) })));
  }
  return streams;
}

/** The matches of `streams` within `window`, counted entry by entry within the count budget. */
export async function countStreams(client: DynamoDBDocumentClient, tableName: string, streams: readonly SortedStream[], window: KeyWindow): Promise<{ count: number; exact: boolean }> {
  const parts = streams.flatMap(({ partitions, filter }) => partitions.map((partition) => ({ partition, ...(filter ? { filter } : {}) })));
  const { count, exact } = await countWithinBudget(client, { tableName, sortAttribute: SEND_KEY_ATTRIBUTE, parts, window, readBudget: COUNT_READ_BUDGET });
  return { count, exact };
}
