import { WATERMARK_RETENTION_SECONDS } from '../../functions/media-log/fold/stream-functions';
import { counterKeyId, entryCounterKeys, TOTAL_ATTRIBUTE, VERSION_ATTRIBUTE } from '../../functions/media-log/model/counters';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { MAX_BATCH_PAYLOAD_BYTES } from '../../local/fold/stream-batches';
import { CounterTable, type CounterItem } from '../key-heat-counters';
import { typicalLifecycle } from '../key-heat-lifecycle';
import { SteadyTraffic, steadyModel } from '../key-heat-steady';
import { sequenceOf, streamOptions, type StreamOptions } from '../key-heat-stream';
import { HEAVIEST_USER, PIPELINE_TRAFFIC, type TrafficOptions } from '../key-heat-traffic';
import { WriteTally } from '../key-heat-writes';

/** What steady traffic leaves in a counter item over a stretch that is not simulated write by write. */

const TRAFFIC: TrafficOptions = { ...PIPELINE_TRAFFIC, entriesPerSecond: 10, users: 3 };
/** One shard (90 table writes/s), rolling over at 02:00, 06:00, …. */
const STREAM: StreamOptions = streamOptions(90);
const MODEL = steadyModel(TRAFFIC, STREAM, 4000, new Date('2026-03-10T00:00:00.000Z'));

const at = (iso: string) => Date.parse(iso) / 1000;
/** A new request of the heaviest customer, all four statuses pending. */
const ENTRY: MediaLogEntry = { ...typicalLifecycle().entry, 'user-id': HEAVIEST_USER };
/** The entry's counter items: the whole log's month, day and hour, and its user's month. */
const [MONTH, , HOUR, USER_MONTH] = entryCounterKeys(ENTRY).map((key) => counterKeyId(key));

/** A counters table holding ENTRY's items, written once at `when` by the shard of generation 0, and the steady traffic that catches them up. */
function written(when: number): { counters: CounterTable; steady: SteadyTraffic; item: (id: string | undefined) => CounterItem } {
  const steady = new SteadyTraffic(MODEL, TRAFFIC, STREAM);
  const counters = new CounterTable(new WriteTally());
  counters.fold('shardId-first', [{ sequence: sequenceOf(0, 0, 1), after: ENTRY }], when);
  for (const counter of counters.items.values()) counter.syncedTo = when;
  return { counters, steady, item: (id) => counters.items.get(id as string) as CounterItem };
}

describe('the steady model of the traffic', () => {
  it('ends every lifecycle in one combination, and creates each combination at least as often as entries end in it', () => {
    const finished = [...MODEL.finals.values()].reduce((sum, share) => sum + share, 0);

    expect(finished).toBeCloseTo(1, 9);
    for (const [combo, share] of MODEL.finals) expect(MODEL.created.get(combo)).toBeGreaterThanOrEqual(share);
    expect(MODEL.created.size).toBeGreaterThan(MODEL.finals.size);
    expect(MODEL.movingRecords).toBeGreaterThan(8);
    expect(MODEL.movingRecords).toBeLessThanOrEqual(9);
  });

  it('times a shard’s batches by its window when its records are few, by their payload when they are many', () => {
    const busy = steadyModel({ ...TRAFFIC, entriesPerSecond: 100 }, STREAM, 1000, new Date('2026-03-10T00:00:00.000Z'));

    // 90 records/s of ~2 KB fill no 6 MB in 5 s; 900 records/s do in less.
    expect(MODEL.batchSeconds).toBe(5);
    expect(MODEL.recordBytes).toBeGreaterThan(1000);
    expect(MODEL.recordBytes).toBeLessThan(3000);
    expect(busy.batchSeconds).toBeCloseTo(MAX_BATCH_PAYLOAD_BYTES / (900 * busy.recordBytes), 9);
    expect(busy.batchSeconds).toBeLessThan(5);
  });
});

describe('a counter item brought up to date', () => {
  const noon = at('2026-03-10T12:00:05Z');

  it('counts rate × seconds more entries in the whole log’s month, its version one write per batch, a watermark from the shard', () => {
    const { counters, steady, item } = written(noon);
    const to = noon + 1000;
    steady.beginStretch(to * 1000, (to + 60) * 1000);

    steady.advance(item(MONTH), counters, to);

    const month = item(MONTH);
    expect(month.item[TOTAL_ATTRIBUTE]).toBe(1 + 10 * 1000);
    expect(month.item[VERSION_ATTRIBUTE]).toBe(1 + 1000 / 5);
    expect(month.watermarks.size).toBe(2);
    // The shard's last batch came at most one batch window (5 s) before `to`.
    expect(Math.max(...month.watermarks.values())).toBeGreaterThanOrEqual(to - 5);
    expect(month.syncedTo).toBe(to);
  });

  it('counts the heaviest user’s share in its month, and stops an hour item at the hour’s end', () => {
    const { counters, steady, item } = written(noon);
    const to = at('2026-03-10T14:00:00Z');
    steady.beginStretch(noon * 1000, to * 1000);

    steady.advance(item(USER_MONTH), counters, to);
    steady.advance(item(HOUR), counters, to);

    expect(item(USER_MONTH).item[TOTAL_ATTRIBUTE]).toBe(1 + Math.round(4 * (to - noon)));
    expect(item(HOUR).item[TOTAL_ATTRIBUTE]).toBe(1 + Math.round(10 * (at('2026-03-10T13:00:00Z') - noon)));
  });

  it('keeps the closed shards’ watermarks for the retention after a rollover, and drops them after', () => {
    const before = at('2026-03-10T13:50:00Z');
    const rollover = at('2026-03-10T14:00:00Z');
    const soon = written(before);
    soon.steady.beginStretch(before * 1000, (rollover + 600) * 1000);
    const late = written(before);
    late.steady.beginStretch(before * 1000, (rollover + WATERMARK_RETENTION_SECONDS + 600) * 1000);

    soon.steady.advance(soon.item(MONTH), soon.counters, rollover + 600);
    late.steady.advance(late.item(MONTH), late.counters, rollover + WATERMARK_RETENTION_SECONDS + 600);

    // The first fold's shard, the shard before the rollover, and the one after it.
    expect(soon.item(MONTH).watermarks.size).toBe(3);
    expect(Math.max(...[...soon.item(MONTH).watermarks.values()].filter((time) => time <= rollover))).toBeGreaterThan(rollover - 10);
    expect(late.item(MONTH).watermarks.size).toBe(1);
  });

  it('catches an item up once per stretch, from where it was last simulated', () => {
    const { counters, steady, item } = written(noon);
    const stretch = noon + 100;
    steady.beginStretch(stretch * 1000, (stretch + 60) * 1000);

    steady.catchUp(item(MONTH), counters);
    steady.catchUp(item(MONTH), counters);

    expect(item(MONTH).item[TOTAL_ATTRIBUTE]).toBe(1 + 10 * 100);
  });

  it('gives an item new to the run everything since its bucket began', () => {
    const { counters, steady, item } = written(noon);
    const month = item(MONTH);
    month.syncedTo = Number.NEGATIVE_INFINITY;
    steady.beginStretch(noon * 1000, (noon + 60) * 1000);

    steady.catchUp(month, counters);

    expect(month.item[TOTAL_ATTRIBUTE]).toBe(1 + Math.round(10 * (noon - at('2026-03-01T00:00:00Z'))));
    expect(Object.keys(month.item).filter((name) => name.startsWith('c')).length).toBeGreaterThan(MODEL.finals.size);
  });
});
