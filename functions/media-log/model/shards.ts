/**
 * How the media log's hot index partitions are split (DESIGN.md 7b, round four): no partition key
 * of the table or of an index may take more than 500 writes/s at the design rate, so a partition
 * that takes more is spread over shards by a hash of the entry id (which every write of an entry
 * knows, a status change included), and a page merges the shards.
 */

/** The design rate of the media pipeline (DESIGN.md 7b). */
export const DESIGN_RATE = {
  /** New requests per second. */
  entriesPerSecond: 2000,
  /** Status changes of each request (each of the four fields: processing, then its final value). */
  changesPerEntry: 8,
  /** Share of all requests one customer may send (40 %: ~800 requests/s). */
  heaviestUserShare: 0.4,
  /** Share of all requests one url may take (40 %: a url a customer's whole pipeline requests, DESIGN.md 7b round five). */
  hottestUrlShare: 0.4,
} as const;

/** Writes per second one partition key may take: half of what a DynamoDB partition serves. */
export const PARTITION_WRITE_BUDGET = 500;

/**
 * Standard deviations of headroom over a shard's mean rate. A hash splits each second's writes at
 * random, so a shard's count in one second is binomial around its mean; over a day's 86,400
 * seconds and every shard (a few hundred thousand draws), the busiest second lies about 4.9
 * standard deviations above the mean.
 */
const HASH_SPREAD = 5;

/**
 * The fewest shards that keep a partition key taking `writesPerSecond` within
 * {@link PARTITION_WRITE_BUDGET} in its busiest second: mean + 5 sd of the binomial split. For
 * 2,000 writes/s, 4 shards average exactly 500 each (so half their seconds are over) and 5 average
 * 400, busiest second ~490.
 */
export function shardsFor(writesPerSecond: number): number {
  for (let shards = 1; ; shards += 1) {
    const mean = writesPerSecond / shards;
    if (mean + HASH_SPREAD * Math.sqrt(mean * (1 - 1 / shards)) <= PARTITION_WRITE_BUDGET) return shards;
  }
}

/**
 * Shards of each sharded partition, from the writes it takes at the design rate (every partition
 * spans all time: a partition key's write rate does not depend on how long it lives):
 * - the whole log, `LOG#<shard>`: every request's put, 2,000/s: 5 shards.
 * - a user, `USER#<id>#<shard>`: the heaviest customer's puts, 40 % of 2,000 = 800/s: 2 shards
 *   (every user has them: a writer cannot know in advance which customer grows heavy).
 * - `pending` and `processing` of a status field: each request puts its entry into `pending` and
 *   each field's first change moves it to `processing` (a delete there and a put here), and its
 *   final change takes it out again: 2,000 puts + 2,000 deletes, 4,000/s: 10 shards each.
 * - `warning`, `error`, `skipped`: final values, put once per entry that ends there; an outage
 *   that fails every check sends all 2,000/s to one of them: 5 shards.
 * - a url, `<hash>` and `<hash>#<shard>`: most urls are requested a few times, but one url may
 *   take 40 % of the requests, 800 puts/s: 2 shards, as for a user.
 */
export const SHARDS = {
  log: shardsFor(DESIGN_RATE.entriesPerSecond),
  user: shardsFor(DESIGN_RATE.entriesPerSecond * DESIGN_RATE.heaviestUserShare),
  inFlightStatus: shardsFor(2 * DESIGN_RATE.entriesPerSecond),
  finalStatus: shardsFor(DESIGN_RATE.entriesPerSecond),
  url: shardsFor(DESIGN_RATE.entriesPerSecond * DESIGN_RATE.hottestUrlShare),
} as const;

/** FNV-1a (32 bits): a cheap, stable hash of the entry id; ids of any form (v4, v7) spread evenly. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

/** The shard of entry `id` among `shards`. */
export function shardOf(id: string, shards: number): number {
  return shards === 1 ? 0 : fnv1a(id) % shards;
}

/** Every shard number of a partition split `shards` ways. */
export function allShards(shards: number): number[] {
  return Array.from({ length: shards }, (_, shard) => shard);
}
