import { ListMediaLogQuerySchema } from '../functions/media-log/listing/list-schemas';
import { createMediaLogListing, type MediaLogListing } from '../functions/media-log/listing/media-log-listing';
import type { MediaLogList } from '../functions/media-log/model/schemas';
import type { Caller } from '../functions/shared/access/roles';
import { getDocumentClient } from '../functions/shared/aws/clients';
import { tableName } from '../functions/shared/config/data-config';
import { toAuthorizerContext } from '../functions/shared/http/caller';
import { decodeQuery } from '../functions/shared/http/query-decoding';
import { API_PREFIX } from '../functions/shared/http/route-definition';
import { itemsReadOf, type ReadTally } from '../functions/shared/observability/read-meter';
import { attachReadMeter } from '../local/metering/read-meter';
import { mediaLogCountsTable } from '../functions/shared/tables/media-log-table';
import { runRoute } from '../local/gateway/dispatch';
import { matchRoute, type RouteMatch } from '../local/gateway/route-matcher';
import { chooser, PATTERNS, type Chooser, type Pattern, type PatternKind } from './media-log-patterns';
import { summarize, timed } from './report';

/**
 * Measuring the media log listings (bench/media-log.ts): each request of a pattern runs through the
 * route's handler for its latency, and again on the route's own composition with a read meter
 * attached for what it read, in read units as AWS bills them and in items.
 */

/** One pattern measured at one size. */
export interface PatternResult {
  readonly size: number;
  readonly pattern: string;
  readonly kind: PatternKind;
  /** Items returned per page (on average). */
  readonly returnedPerPage: number;
  /** Read units per page, as AWS bills them. */
  readonly unitsPerPage: number;
  /** Items read for the page (index items and entries by key; counter items apart) per item returned. */
  readonly readPerReturned: number;
  /** Per page: index items, entries read by key, counter items, items read only to count, DynamoDB requests. */
  readonly indexItemsPerPage: number;
  readonly entriesPerPage: number;
  readonly counterItemsPerPage: number;
  readonly countedPerPage: number;
  readonly requestsPerPage: number;
  /** Share of pages whose total was exact. */
  readonly exactShare: number;
  /** The most read units one page took. */
  readonly maxUnits: number;
  readonly p50: number;
  readonly p95: number;
}

/** What the measuring needs: the callers, the log's owners, the urls and entry ids its patterns pick among. */
export interface MeasureContext {
  readonly callers: { readonly root: Caller; readonly admin: Caller; readonly family: Caller };
  readonly users: number;
  readonly urls: readonly string[];
  readonly ids: readonly string[];
}

/** Sums of the samples of one pattern. */
interface Sums {
  units: number;
  maxUnits: number;
  items: number;
  indexItems: number;
  entries: number;
  counterItems: number;
  counted: number;
  requests: number;
  exact: number;
  returned: number;
}

const PATH = `${API_PREFIX}/media/log`;

/** The raw query of one request of a pattern: the page by cursor when the pattern asks for it (its first page read unmetered). */
async function rawQueryOf(pattern: Pattern, choose: Chooser, listing: MediaLogListing, caller: Caller): Promise<string> {
  const first = [pattern.query(choose), 'pagination[limit]=10'].filter(Boolean).join('&');
  if (pattern.cursor !== true) return first;
  const page = await listing.list(caller, parse(first));
  return page.pagination.next === null ? first : `${first}&pagination[cursor]=${encodeURIComponent(page.pagination.next)}`;
}

function parse(rawQuery: string) {
  return ListMediaLogQuerySchema.parse(decodeQuery(null, Object.fromEntries(new URLSearchParams(rawQuery))));
}

/** One request through the route's handler: its latency. */
async function throughRoute(match: RouteMatch, caller: Caller, rawQuery: string, name: string): Promise<number> {
  const request = { method: 'GET', path: PATH, rawQuery, headers: [], body: Buffer.alloc(0), sourceIp: '127.0.0.1' } as const;
  const { ms, value } = await timed(() => runRoute(request, match, { ...toAuthorizerContext(caller) }));
  if (value.statusCode !== 200) throw new Error(`${name}: ${value.statusCode} ${value.body.toString()}`);
  return ms;
}

/** The same request on the route's composition, with what it read. */
async function metered(listing: MediaLogListing, caller: Caller, rawQuery: string): Promise<{ reply: MediaLogList; tally: ReadTally }> {
  const meter = attachReadMeter(getDocumentClient());
  try {
    const reply = await listing.list(caller, parse(rawQuery));
    return { reply, tally: meter.tally() };
  } finally {
    meter.detach();
  }
}

function add(sums: Sums, reply: MediaLogList, tally: ReadTally): void {
  const counters = tally.byTable[tableName(mediaLogCountsTable)] ?? 0;
  sums.returned += reply.log.length;
  sums.exact += reply.pagination['total-exact'] ? 1 : 0;
  sums.units += tally.billedReadUnits;
  sums.maxUnits = Math.max(sums.maxUnits, tally.billedReadUnits);
  sums.items += itemsReadOf(tally) - counters;
  sums.indexItems += tally.indexItems;
  sums.entries += tally.keyItems;
  sums.counterItems += counters;
  sums.counted += tally.countedItems;
  sums.requests += tally.requests;
}

/** One pattern: three requests to warm up, then `samples` measured. */
async function measurePattern(pattern: Pattern, size: number, samples: number, context: MeasureContext, match: RouteMatch, listing: MediaLogListing): Promise<PatternResult> {
  const choose = chooser(7, context.users, context.urls, context.ids);
  const caller = pattern.caller === undefined ? context.callers.root : context.callers[pattern.caller];
  const latencies: number[] = [];
  const sums: Sums = { units: 0, maxUnits: 0, items: 0, indexItems: 0, entries: 0, counterItems: 0, counted: 0, requests: 0, exact: 0, returned: 0 };
  for (let index = -3; index < samples; index += 1) {
    const rawQuery = await rawQueryOf(pattern, choose, listing, caller);
    const ms = await throughRoute(match, caller, rawQuery, pattern.name);
    if (index < 0) continue;
    latencies.push(ms);
    const { reply, tally } = await metered(listing, caller, rawQuery);
    add(sums, reply, tally);
  }
  const per = (value: number) => value / samples;
  const { p50, p95 } = summarize(latencies);
  return {
    size,
    pattern: pattern.name,
    kind: pattern.kind,
    returnedPerPage: per(sums.returned),
    unitsPerPage: per(sums.units),
    readPerReturned: sums.items / Math.max(1, sums.returned),
    indexItemsPerPage: per(sums.indexItems),
    entriesPerPage: per(sums.entries),
    counterItemsPerPage: per(sums.counterItems),
    countedPerPage: per(sums.counted),
    requestsPerPage: per(sums.requests),
    exactShare: per(sums.exact),
    maxUnits: sums.maxUnits,
    p50,
    p95,
  };
}

/** Every pattern at one size. */
export async function measurePatterns(size: number, samples: number, context: MeasureContext): Promise<PatternResult[]> {
  const match = matchRoute('GET', PATH);
  if (!match) throw new Error('The media log route is not in the route table.');
  // The route's own composition, measured on the client the meter watches.
  const listing = createMediaLogListing(getDocumentClient());
  const results: PatternResult[] = [];
  for (const pattern of PATTERNS) results.push(await measurePattern(pattern, size, samples, context, match, listing));
  return results;
}
