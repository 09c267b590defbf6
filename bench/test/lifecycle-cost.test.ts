import { benchLifecycleCost, lifecycleCostTargets } from '../lifecycle-cost';

/**
 * The lifecycle bench on the test file's DynamoDB Local: a request and its 8 status changes through
 * the feed's writers, then the fold, metered by DynamoDB's own consumed capacity, against the
 * key-heat accounting of the same writes (worked out by hand in key-heat-lifecycle.test.ts).
 */

describe('one lifecycle measured on DynamoDB Local', () => {
  it('costs what the key-heat accounting computes, table, indexes and counters alike', async () => {
    const comparisons = await benchLifecycleCost();

    expect(comparisons.map(({ finals, measured, computed }) => ({
      finals,
      measured: { table: measured.table, indexes: Object.values(measured.indexes).reduce((sum, units) => sum + units, 0), counters: measured.counters },
      computed: { table: computed.table.units, indexes: computed.indexes.units, counters: computed.counters.units },
    }))).toEqual([
      { finals: 'success/success/success/success', measured: { table: 9, indexes: 19, counters: 4 }, computed: { table: 9, indexes: 19, counters: 4 } },
      { finals: 'error/error/success/warning', measured: { table: 9, indexes: 22, counters: 4 }, computed: { table: 9, indexes: 22, counters: 4 } },
    ]);
    expect(lifecycleCostTargets(comparisons).map((target) => target.pass)).toEqual([true, true]);
  }, 60_000);
});
