import { randomUUID } from 'node:crypto';
import { ListMediaLogQuerySchema } from '../../functions/media-log/listing/list-schemas';
import { createMediaLogListing, type MediaLogListing } from '../../functions/media-log/listing/media-log-listing';
import type { MediaLogEntry, MediaLogList } from '../../functions/media-log/model/schemas';
import type { Caller } from '../../functions/shared/access/roles';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { attachReadMeter } from '../../local/metering/read-meter';

/**
 * Walking the media log listing as the route does, on the product's own composition with a read
 * budget the test chooses: small budgets make pages end where the budget runs out, which the
 * route's 200 units would only do on a log of tens of thousands of entries.
 */

/** The listing the route serves, with `readUnits` per request. */
export function listingWith(readUnits: number): MediaLogListing {
  return createMediaLogListing(getDocumentClient(), { readUnits });
}

/** One page of a walk: the reply, and the read units it spent (as AWS bills them). */
export interface WalkedPage {
  readonly reply: MediaLogList;
  readonly units: number;
}

/**
 * Every page of a listing by following `pagination.next`. `during` starts after each page and runs
 * while the next one is read (changes made as the walk goes on, racing its reads).
 */
export async function walkListing(
  listing: MediaLogListing,
  caller: Caller,
  query: Record<string, unknown>,
  limit: number,
  during: (page: number) => Promise<void> = async () => undefined,
): Promise<{ readonly entries: MediaLogEntry[]; readonly pages: WalkedPage[] }> {
  const pages: WalkedPage[] = [];
  let cursor: string | null = null;
  let changes: Promise<void> = Promise.resolve();
  do {
    const pagination: Record<string, string> = { limit: String(limit), ...(cursor === null ? {} : { cursor }) };
    const meter = attachReadMeter(getDocumentClient());
    try {
      const [reply]: [MediaLogList, void] = await Promise.all([listing.list(caller, ListMediaLogQuerySchema.parse({ ...query, pagination })), changes]);
      pages.push({ reply, units: meter.tally().billedReadUnits });
      cursor = reply.pagination.next;
    } finally {
      meter.detach();
    }
    changes = during(pages.length);
  } while (cursor !== null && pages.length < 2000);
  await changes;
  return { entries: pages.flatMap((page) => page.reply.log), pages };
}

/** A random entry id that `accept` takes (a shard chosen by the id's hash). */
export function idWhere(accept: (id: string) => boolean): string {
  for (;;) {
    const id = randomUUID();
    if (accept(id)) return id;
  }
}

/** An entry: every status `success` unless told otherwise. */
export function entryOf(fields: Pick<MediaLogEntry, 'send' | 'user-id'> & Partial<MediaLogEntry>): MediaLogEntry {
  return {
    id: randomUUID(),
    url: `https://media.example.com/walk/${randomUUID()}.mp4`,
    status: 'success',
    'status-ffscan': 'success',
    'status-mediainfo': 'success',
    'status-scan-report': 'success',
    ...fields,
  };
}

