import type { MediaStatus } from '../../functions/media-log/model/entry-fields';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';

/**
 * Plausible media log entries for demo data, tests and benchmarks: deterministic for a seed, with
 * the shape real traffic has — most requests succeed on every check, failures are correlated (the
 * overall status follows the worst check), a url is requested a few times, and some users send far
 * more than others.
 */

/** What to generate. */
export interface SampleOptions {
  /** Owners of the entries. */
  readonly userIds: readonly number[];
  /** Entries are spread uniformly over `[start, start + spanMs)`. */
  readonly start: Date;
  readonly spanMs: number;
  /** Same seed, same entries. */
  readonly seed?: number;
  /** Average requests per distinct url (default 4). */
  readonly requestsPerUrl?: number;
}

/** mulberry32: a small, fast, seedable generator (not for secrets). */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CHECK_OUTCOMES: readonly [MediaStatus, number][] = [
  ['success', 0.85],
  ['warning', 0.05],
  ['error', 0.04],
  ['skipped', 0.03],
  ['pending', 0.02],
  ['processing', 0.01],
];

function pick(random: () => number, outcomes: readonly [MediaStatus, number][]): MediaStatus {
  let roll = random();
  for (const [value, weight] of outcomes) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return outcomes[0]?.[0] ?? 'success';
}

/** The overall status: the least finished or worst of the checks. */
function overall(checks: readonly MediaStatus[]): MediaStatus {
  for (const status of ['processing', 'pending', 'error', 'warning'] as const) if (checks.includes(status)) return status;
  return checks.every((check) => check === 'skipped') ? 'skipped' : 'success';
}

function uuid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  const text = hex.join('');
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}

/** `count` sample entries, in no particular order, with the entry at index i the same for a given seed. */
export function sampleMediaLogEntries(count: number, options: SampleOptions): MediaLogEntry[] {
  const random = generator(options.seed ?? 1);
  const urls = Math.max(1, Math.round(count / (options.requestsPerUrl ?? 4)));
  const users = options.userIds.length;
  if (users === 0) throw new Error('Sample entries need at least one user id.');
  const entries: MediaLogEntry[] = [];
  for (let index = 0; index < count; index += 1) {
    const checks = [pick(random, CHECK_OUTCOMES), pick(random, CHECK_OUTCOMES), pick(random, CHECK_OUTCOMES)] as const;
    // Squaring skews the choice towards the first users: a few send most of the requests.
    const user = options.userIds[Math.min(users - 1, Math.floor(random() ** 2 * users))] as number;
    entries.push({
      id: uuid(random),
      send: new Date(options.start.getTime() + Math.floor(random() * options.spanMs)).toISOString(),
      status: overall(checks),
      'status-ffscan': checks[0],
      'status-mediainfo': checks[1],
      'status-scan-report': checks[2],
      url: `https://media.example.com/videos/${Math.floor(random() * urls).toString(36)}.mp4`,
      'user-id': user,
    });
  }
  return entries;
}
