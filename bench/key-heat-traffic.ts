import type { StatusChange } from '../functions/media-log/feed/feed-messages';
import { STATUS_FIELDS, type MediaStatus } from '../functions/media-log/model/entry-fields';
import type { MediaLogEntry } from '../functions/media-log/model/schemas';
import { DESIGN_RATE } from '../functions/media-log/model/shards';
import { sampleMediaLogEntries } from '../local/seed/sample-entries';

/**
 * Simulated media pipeline traffic for the `key-heat` bench (DESIGN.md section 7b): a steady rate of
 * new requests, each followed within about a minute by eight status changes (every status field
 * goes pending → processing → its final value). One customer sends the share of the traffic the
 * design allows one customer (40 %), the rest comes from a thousand users of Zipf-distributed
 * weight, a quarter of them sub users of another ({@link familyOf}). Deterministic for a seed and a start, and produced a second at a time so that a window of
 * it never sits in memory at once.
 */

/** Delays of a status field's two changes, in seconds: processing after the request, the final value after processing. */
export interface StatusDelays {
  readonly processing: readonly [min: number, max: number];
  readonly final: readonly [min: number, max: number];
}

/** What to simulate. */
export interface TrafficOptions {
  readonly entriesPerSecond: number;
  /** Share of all requests that the heaviest customer ({@link HEAVIEST_USER}) sends. */
  readonly heaviestShare: number;
  /** Users sharing the rest of the requests (ids 2, 3, …). */
  readonly users: number;
  /** Exponent of their Zipf distribution: the user of rank k sends in proportion to k^-exponent. */
  readonly userSkew: number;
  readonly requestsPerUrl: number;
  /** Share of all requests for one url ({@link HOT_URL}): a url a customer's whole pipeline requests. */
  readonly hotUrlShare: number;
  readonly statusDelays: StatusDelays;
  /** Same seed and start, same traffic. */
  readonly seed: number;
}

/** The user id of the heaviest customer. */
export const HEAVIEST_USER = 1;

/** The url of {@link TrafficOptions.hotUrlShare}. */
export const HOT_URL = 'https://media.example.com/live/channel-1/index.m3u8';

/**
 * The traffic of the bench, at the design rate of model/shards.ts: 2,000 requests/s, 40 % of them
 * (800/s) from one customer, the rest from 1,000 users with a Zipf skew of 0.5 (the heaviest of
 * them sends ~1 % of all requests, the top hundred of them ~18 %), a url requested 4 times on
 * average but one url 40 % of all requests (800/s, DESIGN.md 7b round five), and the changes of each request spread over the minute after it (processing after
 * 0.5–10 s, the final value 1–50 s later).
 */
export const PIPELINE_TRAFFIC: TrafficOptions = {
  entriesPerSecond: DESIGN_RATE.entriesPerSecond,
  heaviestShare: DESIGN_RATE.heaviestUserShare,
  users: 1000,
  userSkew: 0.5,
  requestsPerUrl: 4,
  hotUrlShare: DESIGN_RATE.hottestUrlShare,
  statusDelays: { processing: [0.5, 10], final: [1, 50] },
  seed: 7,
};

/** The longest a lifecycle lasts: its last change comes at most this many seconds after the request. */
export function lifecycleSeconds(traffic: TrafficOptions): number {
  return traffic.statusDelays.processing[1] + traffic.statusDelays.final[1];
}

/** A status change and the instant it happens (epoch milliseconds). */
export interface TimedChange {
  readonly ms: number;
  readonly change: StatusChange;
}

/** A new request, the instant it is sent, and the status changes that follow it. */
export interface PipelineRequest {
  readonly ms: number;
  readonly entry: MediaLogEntry;
  /** The family the entry is written with: {@link familyOf} its user. */
  readonly family: number;
  readonly changes: readonly TimedChange[];
}

/** xorshift32: a seedable generator for the choices the sample entries do not make (not for secrets). */
export function xorshift(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/**
 * The family of a simulated user (its top user). The heaviest customer heads its own, and so does
 * each Zipf user but every fourth, a sub user of the user before it: a quarter of those users, whose
 * entries are indexed and counted in their family as well (counters.ts, `entryScopes`).
 */
export function familyOf(userId: number): number {
  const rank = userId - HEAVIEST_USER - 1;
  return rank >= 0 && rank % 4 === 3 ? userId - 1 : userId;
}

/** Each Zipf user's share of the requests that the heaviest customer does not send, heaviest first. */
export function userShares(users: number, skew: number): number[] {
  const weights = Array.from({ length: users }, (_, rank) => (rank + 1) ** -skew);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => weight / total);
}

/** Requests per second of every user, by user id. */
export function userRates(traffic: TrafficOptions): Map<number, number> {
  const rest = traffic.entriesPerSecond * (1 - traffic.heaviestShare);
  const rates = new Map([[HEAVIEST_USER, traffic.entriesPerSecond * traffic.heaviestShare]]);
  userShares(traffic.users, traffic.userSkew).forEach((share, rank) => rates.set(HEAVIEST_USER + 1 + rank, rest * share));
  return rates;
}

/** A user id drawn by inverse distribution of the rates (binary search of the running sums). */
function userPicker(rates: ReadonlyMap<number, number>, random: () => number): () => number {
  const ids = [...rates.keys()];
  const cumulative: number[] = [];
  let sum = 0;
  for (const rate of rates.values()) cumulative.push((sum += rate));
  return () => {
    const roll = random() * sum;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulative[middle] as number) > roll) high = middle;
      else low = middle + 1;
    }
    return ids[low] as number;
  };
}

/** The final value a check reports; one the sample leaves unfinished reports processing again (a check still running). */
function finalValue(sampled: MediaStatus): MediaStatus {
  return sampled === 'pending' || sampled === 'processing' ? 'processing' : sampled;
}

/**
 * ISO-8601 text of instants (epoch ms), each second's text made once: a request and its changes
 * need nine, and formatting each anew is a good part of the traffic's cost.
 */
function isoClock(): (ms: number) => string {
  const seconds = new Map<number, string>();
  return (ms) => {
    const second = Math.floor(ms / 1000);
    let prefix = seconds.get(second);
    if (prefix === undefined) {
      // Changes come up to a minute after their request: a few minutes of seconds are all that is asked for.
      if (seconds.size > 600) seconds.clear();
      seconds.set(second, (prefix = new Date(second * 1000).toISOString().slice(0, 20)));
    }
    return `${prefix}${String(ms - second * 1000).padStart(3, '0')}Z`;
  };
}

/** Seconds of traffic drawn from one call of the sample generator: its urls repeat within a call, so a url's requests fall in one minute. */
const BLOCK_SECONDS = 60;

/**
 * The requests of `seconds` seconds from `start`, one second at a time (exactly
 * `entriesPerSecond` each): shapes from the seed's sample entries (ids, urls, final statuses),
 * users from {@link userRates}.
 */
export function* pipelineTraffic(traffic: TrafficOptions, start: Date, seconds: number): Generator<PipelineRequest[]> {
  const seed = traffic.seed + Math.floor(start.getTime() / 1000);
  const random = xorshift(seed);
  const pickUser = userPicker(userRates(traffic), random);
  const between = ([min, max]: readonly [number, number]) => Math.round(1000 * (min + random() * (max - min)));
  const iso = isoClock();
  for (let blockStart = 0; blockStart < seconds; blockStart += BLOCK_SECONDS) {
    const blockSeconds = Math.min(BLOCK_SECONDS, seconds - blockStart);
    const startMs = start.getTime() + blockStart * 1000;
    const samples = sampleMediaLogEntries(blockSeconds * traffic.entriesPerSecond, {
      // Users are drawn from userRates instead.
      userIds: [HEAVIEST_USER],
      start: new Date(startMs),
      spanMs: blockSeconds * 1000,
      seed: seed + blockStart,
      requestsPerUrl: traffic.requestsPerUrl,
    });
    for (let offset = 0; offset < blockSeconds; offset += 1) {
      yield samples.slice(offset * traffic.entriesPerSecond, (offset + 1) * traffic.entriesPerSecond).map((sample) => {
        const ms = startMs + offset * 1000 + Number(sample.send.slice(20, 23));
        const entry: MediaLogEntry = {
          id: sample.id,
          send: iso(ms),
          // Sample urls are numbered per call: the block keeps one minute's urls apart from the next's.
          url: random() < traffic.hotUrlShare ? HOT_URL : `${sample.url}?block=${startMs}`,
          'user-id': pickUser(),
          status: 'pending',
          'status-ffscan': 'pending',
          'status-mediainfo': 'pending',
          'status-scan-report': 'pending',
        };
        const changes = STATUS_FIELDS.flatMap((field) => {
          const processingMs = ms + between(traffic.statusDelays.processing);
          const finalMs = processingMs + between(traffic.statusDelays.final);
          return [
            { ms: processingMs, change: { id: entry.id, field, value: 'processing' as MediaStatus, at: iso(processingMs) } },
            { ms: finalMs, change: { id: entry.id, field, value: finalValue(sample[field]), at: iso(finalMs) } },
          ];
        });
        return { ms, entry, family: familyOf(entry['user-id']), changes };
      });
    }
  }
}
