import type { StatusChange } from '../functions/media-log/feed/feed-messages';
import { STATUS_FIELDS, type MediaStatus } from '../functions/media-log/model/entry-fields';
import type { MediaLogEntry } from '../functions/media-log/model/schemas';
import { sampleMediaLogEntries } from '../local/seed/sample-entries';

/**
 * Simulated media pipeline traffic for the `key-heat` bench (DESIGN.md section 7b): a steady rate of
 * new requests, each followed within about a minute by eight status changes (every status field
 * goes pending → processing → its final value). Deterministic for a seed, and produced a second at
 * a time so that an hour of it never sits in memory.
 */

/** Delays of a status field's two changes, in seconds: processing after the request, the final value after processing. */
export interface StatusDelays {
  readonly processing: readonly [min: number, max: number];
  readonly final: readonly [min: number, max: number];
}

/** What to simulate. */
export interface TrafficOptions {
  readonly entriesPerSecond: number;
  /** Seconds of requests from `start`. */
  readonly seconds: number;
  readonly users: number;
  /** Exponent of the users' Zipf distribution: the user of rank k sends in proportion to k^-exponent. */
  readonly userSkew: number;
  readonly requestsPerUrl: number;
  readonly statusDelays: StatusDelays;
  /** The first instant of the first second. */
  readonly start: Date;
  /** Same seed, same traffic. */
  readonly seed: number;
}

/**
 * The traffic of the bench: 1,000 users with a Zipf skew of 0.5 (the heaviest sends ~1.6 % of all
 * requests, under the 2 % this bench allows one user as realistic; the top hundred ~30 %), a url
 * requested 4 times on average, and the changes of each request spread over the minute after it
 * (processing after 0.5–10 s, the final value 1–50 s later). `seconds` is the measured window; it
 * opens on the hour, where the changes of the minute before still move the previous hour's
 * counters, as at every turn of an hour or ten minutes.
 */
export const PIPELINE_TRAFFIC: TrafficOptions = {
  entriesPerSecond: 2000,
  seconds: 3600,
  users: 1000,
  userSkew: 0.5,
  requestsPerUrl: 4,
  statusDelays: { processing: [0.5, 10], final: [1, 50] },
  start: new Date('2026-03-10T12:00:00.000Z'),
  seed: 7,
};

/** A new request and the status changes that follow it, each with the simulated second it happens in. */
export interface PipelineRequest {
  readonly entry: MediaLogEntry;
  readonly changes: readonly { readonly second: number; readonly change: StatusChange }[];
}

/** xorshift32: a seedable generator for the choices the sample entries do not make (not for secrets). */
function xorshift(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/** Each user's share of the requests, heaviest first (user ids 1, 2, … in that order). */
export function userShares(users: number, skew: number): number[] {
  const weights = Array.from({ length: users }, (_, rank) => (rank + 1) ** -skew);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => weight / total);
}

/** A user id drawn from `shares` by inverse distribution (binary search of the running sums). */
function userPicker(shares: readonly number[], random: () => number): () => number {
  const cumulative: number[] = [];
  shares.reduce((sum, share) => (cumulative.push(sum + share), sum + share), 0);
  return () => {
    const roll = random() * (cumulative[cumulative.length - 1] as number);
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulative[middle] as number) > roll) high = middle;
      else low = middle + 1;
    }
    return low + 1;
  };
}

/** The final value a check reports; one the sample leaves unfinished reports processing again (a check still running). */
function finalValue(sampled: MediaStatus): MediaStatus {
  return sampled === 'pending' || sampled === 'processing' ? 'processing' : sampled;
}

/** Seconds of traffic drawn from one call of the sample generator: its urls repeat within a call, so a url's requests fall in one minute. */
const BLOCK_SECONDS = 60;

/**
 * The requests of the simulation, one simulated second at a time (exactly `entriesPerSecond` each):
 * shapes from the seed's sample entries (ids, urls, final statuses), users from {@link userShares}.
 */
export function* pipelineTraffic(options: TrafficOptions): Generator<{ second: number; requests: PipelineRequest[] }> {
  const random = xorshift(options.seed);
  const pickUser = userPicker(userShares(options.users, options.userSkew), random);
  const between = ([min, max]: readonly [number, number]) => Math.round(1000 * (min + random() * (max - min)));
  for (let blockStart = 0; blockStart < options.seconds; blockStart += BLOCK_SECONDS) {
    const blockSeconds = Math.min(BLOCK_SECONDS, options.seconds - blockStart);
    const startMs = options.start.getTime() + blockStart * 1000;
    const samples = sampleMediaLogEntries(blockSeconds * options.entriesPerSecond, {
      // Users are drawn from userShares instead: the sample's square-law skew gives one user over 3 % of the requests.
      userIds: [1],
      start: new Date(startMs),
      spanMs: blockSeconds * 1000,
      seed: options.seed + blockStart,
      requestsPerUrl: options.requestsPerUrl,
    });
    for (let offset = 0; offset < blockSeconds; offset += 1) {
      const second = blockStart + offset;
      const requests = samples.slice(offset * options.entriesPerSecond, (offset + 1) * options.entriesPerSecond).map((sample) => {
        const sendMs = startMs + offset * 1000 + (Date.parse(sample.send) % 1000);
        const entry: MediaLogEntry = {
          id: sample.id,
          send: new Date(sendMs).toISOString(),
          // Sample urls are numbered per call: the block keeps one minute's urls apart from the next's.
          url: `${sample.url}?block=${blockStart}`,
          'user-id': pickUser(),
          status: 'pending',
          'status-ffscan': 'pending',
          'status-mediainfo': 'pending',
          'status-scan-report': 'pending',
        };
        const changes = STATUS_FIELDS.flatMap((field) => {
          const processingMs = sendMs + between(options.statusDelays.processing);
          const finalMs = processingMs + between(options.statusDelays.final);
          return [
            { ms: processingMs, change: { id: entry.id, field, value: 'processing' as MediaStatus, at: new Date(processingMs).toISOString() } },
            { ms: finalMs, change: { id: entry.id, field, value: finalValue(sample[field]), at: new Date(finalMs).toISOString() } },
          ];
        });
        return { entry, changes: changes.map(({ ms, change }) => ({ second: Math.floor((ms - options.start.getTime()) / 1000), change })) };
      });
      yield { second, requests };
    }
  }
}
