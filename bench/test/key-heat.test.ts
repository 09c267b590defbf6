import { TOTAL_ATTRIBUTE } from '../../functions/media-log/model/counters';
import { MEDIA_LOG_ATTRIBUTES, mediaLogCountsTable, mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { counterKind } from '../key-heat-counters';
import { benchKeyHeat, formatKeyHeat, keyHeatTargets, type KeyHeatResult } from '../key-heat';
import { DAY_WINDOWS, type DayPlan } from '../key-heat-day';
import { dayLifecycle } from '../key-heat-shards';
import { HEAVIEST_USER, HOT_URL, PIPELINE_TRAFFIC, pipelineTraffic, type TrafficOptions } from '../key-heat-traffic';
import { applyMediaLogDeltasFunction, foldMediaLogCountsFunction } from '../../functions/media-log/fold/stream-functions';
import { entryItem } from '../../functions/media-log/model/entry-item';
import { SHARDS } from '../../functions/media-log/model/shards';

/**
 * The simulated day at a scale small enough to work out by hand: 20 entries/s, each field going to
 * processing exactly 1 s after the request and to its final value 1 s later, so every counted
 * second holds 20 requests, the 80 processing changes of the entries of the second before and the
 * 80 final changes of those of the second before that.
 */

const TRAFFIC: Partial<TrafficOptions> = { entriesPerSecond: 20, users: 4, statusDelays: { processing: [1, 1], final: [1, 1] }, seed: 3 };
const PLAN: DayPlan = { windows: [{ at: '2026-03-10T12:00:00.000Z', why: 'noon' }], countedSeconds: 20, modelLifecycles: 2000 };
const COUNTED_FROM = Date.parse(PLAN.windows[0]?.at ?? '');
const COUNTED_TO = COUNTED_FROM + PLAN.countedSeconds * 1000;
/** A lifecycle lasts 2 s here; the warm-up is the two fold stages' batching windows. */
const WARM_UP = foldMediaLogCountsFunction.maxBatchingWindowSeconds + applyMediaLogDeltasFunction.maxBatchingWindowSeconds;
/** Second-stage batches in the counted seconds: one delta stream shard, one batch per window. */
const DELTA_BATCHES = PLAN.countedSeconds / applyMediaLogDeltasFunction.maxBatchingWindowSeconds;

/**
 * Index writes of the counted seconds by the design rules: a put enters 7 indexes, 8 for a sub
 * user's entry (its family's too); a field's first change (processing) moves it in its status index
 * (2); its final change takes it out on success (1), moves it to another indexed value (2), or
 * writes nothing when it stays processing. With them, the counted requests of sub users.
 */
function indexWritesByHand(): { writes: number; subRequests: number } {
  const traffic = { ...PIPELINE_TRAFFIC, ...TRAFFIC };
  let writes = 0;
  let subRequests = 0;
  for (const requests of pipelineTraffic(traffic, new Date(COUNTED_FROM - WARM_UP * 1000), WARM_UP + PLAN.countedSeconds)) {
    for (const { ms, entry, family, changes } of requests) {
      if (ms >= COUNTED_FROM && ms < COUNTED_TO) {
        const sub = family !== entry['user-id'];
        writes += sub ? 8 : 7;
        subRequests += sub ? 1 : 0;
      }
      changes.forEach(({ ms: when, change }, position) => {
        if (when < COUNTED_FROM || when >= COUNTED_TO) return;
        const first = position % 2 === 0;
        writes += first ? 2 : change.value === 'success' ? 1 : change.value === 'processing' ? 0 : 2;
      });
    }
  }
  return { writes, subRequests };
}

describe('the pipeline traffic', () => {
  it('sends 40 % of its requests for one url, which the url index spreads over its shards', () => {
    const requests = [...pipelineTraffic(PIPELINE_TRAFFIC, new Date('2026-03-10T09:00:00.000Z'), 2)].flat();
    const hot = requests.filter(({ entry }) => entry.url === HOT_URL);
    expect(hot.length / requests.length).toBeCloseTo(0.4, 1);
    const shards = new Set(hot.map(({ entry }) => entryItem(entry)[MEDIA_LOG_ATTRIBUTES.partition.url]));
    expect(shards.size).toBe(SHARDS.url);
  });

  it('gives the heaviest customer 40 % of the requests, spread evenly over its two user partitions', () => {
    const requests = [...pipelineTraffic(PIPELINE_TRAFFIC, new Date('2026-03-10T09:00:00.000Z'), 2)].flat();
    const heaviest = requests.filter(({ entry }) => entry['user-id'] === HEAVIEST_USER);
    expect(heaviest.length / requests.length).toBeCloseTo(0.4, 1);
    const partitions = new Map<unknown, number>();
    for (const { entry } of heaviest) {
      const key = entryItem(entry)[MEDIA_LOG_ATTRIBUTES.partition.user];
      partitions.set(key, (partitions.get(key) ?? 0) + 1);
    }
    expect([...partitions.keys()].sort()).toEqual([`USER#${HEAVIEST_USER}#0`, `USER#${HEAVIEST_USER}#1`]);
    for (const count of partitions.values()) expect(count / heaviest.length).toBeCloseTo(0.5, 1);
  });
});

describe('the simulated day at 20 entries/s', () => {
  let result: KeyHeatResult;
  beforeAll(() => {
    result = benchKeyHeat({ plan: PLAN, traffic: TRAFFIC, deltaShards: 1 });
  });

  it('warms up for one lifecycle and counts the window’s requests', () => {
    expect(result.day.warmUpSeconds).toBe(WARM_UP);
    expect(result.day.lifecycles).toBe(20 * 20);
    expect(result.day.stream.shards).toBe(1);
    expect(result.day.deltaStream.shards).toBe(1);
  });

  it('writes the table 9 times per lifecycle, one unit each', () => {
    expect(result.perLifecycle.table).toEqual({ writes: 9, units: 9 });
  });

  it('writes the indexes as the design rules say, change by change', () => {
    expect(result.perLifecycle.indexes.writes * result.day.lifecycles).toBeCloseTo(indexWritesByHand().writes, 6);
  });

  it('puts every request in the log, its user’s and its url’s partitions once, and a sub user’s in its family’s too', () => {
    const writesTo = (name: string) => result.perLifecycle.targets.find((target) => target.target === `${mediaLogTable.id} ${name}`)?.writes;
    for (const name of ['log-by-send', 'user-by-send', 'url-by-send']) expect(writesTo(name)).toBe(1);
    const { subRequests } = indexWritesByHand();
    expect(subRequests).toBeGreaterThan(0);
    expect(writesTo('family-by-send')).toBeCloseTo(subRequests / result.day.lifecycles, 9);
  });

  it('writes a counter item once per second-stage batch: at most once a second with one shard each and windows of seconds, a partition of two hours’ items twice', () => {
    const partitions = result.partitions.find((heats) => heats.target === mediaLogCountsTable.id)?.hottest ?? [];

    expect(result.hottestCounters[0]?.heat.peak).toBe(1);
    expect(partitions[0]).toMatchObject({ key: 'COUNT#ALL#hour#2026-03-10', peak: 2 });
    // A batch's lifecycles share the whole log's 3 items, the 5 users' months and the month of the
    // one family with a sub user, once per batch of the 20 counted seconds; the one or two whose
    // records straddle noon write both hours' items.
    expect(result.perLifecycle.counters.writes * result.day.lifecycles).toBeGreaterThanOrEqual(DELTA_BATCHES * 9);
    expect(result.perLifecycle.counters.writes * result.day.lifecycles).toBeLessThanOrEqual(DELTA_BATCHES * 9 + 2);
  });

  it('reports every counter item at the end of the day, month items with the days of the month before', () => {
    const month = [...result.day.counters.items.values()].find((counter) => counterKind(counter.key) === 'whole log, month');
    const sinceMonthStart = (COUNTED_TO - Date.parse('2026-03-01T00:00:00.000Z')) / 1000;

    expect(month?.item[TOTAL_ATTRIBUTE]).toBeGreaterThanOrEqual(20 * sinceMonthStart - 20 * WARM_UP);
    expect(Object.keys(month?.item ?? {}).filter((name) => /^c[a-z]{4}$/.test(name)).length).toBeGreaterThanOrEqual(result.day.model.finals.size);
    expect(result.counters.filter((counter) => counter.kind === 'a user, month')).toHaveLength(5);
    expect(result.counters.filter((counter) => counter.kind === 'a family, month')).toHaveLength(1);
  });

  it('adds up a lifecycle’s units, and reports each target as met or missed', () => {
    const { table, indexes, deltas, counters, total } = result.perLifecycle;

    expect(total.units).toBeCloseTo(table.units + indexes.units + deltas.units + counters.units, 9);
    expect(keyHeatTargets(result).map((target) => [target.bench, target.pass])).toEqual([
      ['key-heat: hottest partition key (table, every index, counters)', true],
      ['key-heat: hottest partition key by write units', true],
      ['key-heat: hottest item', true],
      ['key-heat: hottest item by write units', true],
      ['key-heat: write units per entry lifecycle', total.units <= 40],
    ]);
    expect(formatKeyHeat(result)).toContain('ten hottest partition keys of MediaLog scan-report-status-by-send');
    expect(formatKeyHeat(result)).toContain('ten hottest items, by write units (item size included)');
    // Every write costs a unit at least; the list by units leads with the item that costs the most.
    expect(result.hottestItems.every((heat) => heat.peakUnits >= heat.peak)).toBe(true);
    const byUnits = result.hottestItemsByUnits.map((heat) => heat.peakUnits);
    expect(byUnits).toEqual([...byUnits].sort((a, b) => b - a));
    // A delta item is written once, but weighs more than the items written most often.
    expect(byUnits[0]).toBeGreaterThanOrEqual(Math.max(...result.hottestItems.map((heat) => heat.peakUnits)));
  });

  it('plays the same day twice alike', () => {
    const again = benchKeyHeat({ plan: PLAN, traffic: TRAFFIC, deltaShards: 1 });

    expect(again.perLifecycle).toEqual(result.perLifecycle);
    expect(again.hottestItems).toEqual(result.hottestItems);
  });
});

describe('a day whose warm-up stores the entries in flight', () => {
  it('counts as many writes per lifecycle as one played from the first request, and keeps every count whole', () => {
    const spread: Partial<TrafficOptions> = { ...TRAFFIC, entriesPerSecond: 40, statusDelays: { processing: [0.5, 4], final: [1, 6] } };
    const result = benchKeyHeat({ plan: { ...PLAN, countedSeconds: 30 }, traffic: spread });

    const counts = [...result.day.counters.items.values()].flatMap((counter) => Object.entries(counter.item).filter(([name]) => /^c[a-z]{4}$/.test(name)).map(([, count]) => count as number));

    // A lifecycle of up to 10 s, shorter than the two stages' windows: the warm-up is theirs.
    expect(result.day.warmUpSeconds).toBe(WARM_UP);
    expect(result.perLifecycle.table.writes).toBeGreaterThan(9 * 0.95);
    expect(result.perLifecycle.table.writes).toBeLessThan(9 * 1.05);
    // The entries in flight hold their combinations in the counters: none is taken below zero.
    expect(Math.min(...counts)).toBe(0);
  });
});

describe('the shard sweep’s day: a rollover and an ordinary moment', () => {
  it('counts each window’s writes apart, and spreads the rollover’s surplus over the four hours to the next', () => {
    const plan: DayPlan = { windows: [DAY_WINDOWS.rollover, DAY_WINDOWS.morning], countedSeconds: 10, modelLifecycles: 2000 };
    const result = benchKeyHeat({ plan, traffic: TRAFFIC, stream: { shards: 4 }, deltaShards: 2 });
    const [rollover, morning] = result.day.windowTotals;

    for (const [target, total] of result.day.tally.totals) {
      expect((rollover?.get(target)?.units ?? 0) + (morning?.get(target)?.units ?? 0)).toBeCloseTo(total.units, 9);
    }
    const life = dayLifecycle(result.day);
    // Every shard of both stages cuts its batch at 02:00: more batches, more watermarks and counter writes.
    expect(life.rollover.total.units).toBeGreaterThan(life.ordinary.total.units);
    const surplusPerLifecycle = ((life.rollover.total.units - life.ordinary.total.units) * 20 * 10) / (20 * 4 * 3600);
    expect(life.day).toBeCloseTo(life.ordinary.total.units + surplusPerLifecycle, 9);
  });
});
