import { BUNDLE_OVER_FLOOR_BUDGET_KB, BUNDLE_OVER_FLOOR_GUARD_KB, bundleSizeTargets, formatBundleSizes, type FunctionComposition } from '../bundle-size';
import { coldStartTargets, formatColdStart, INIT_OVER_FLOOR_BUDGET_MS, type ColdStartResult, type ColdStartRow, type Difference } from '../cold-start';
import { floorOf } from '../floor-bundle';
import { spread } from '../report';

/**
 * The verdicts of the bundles and cold-start benches on made-up figures: every non-image function
 * is held to its floor plus the budget, the image functions (whose floor loads sharp) to none, and
 * the summary names the function furthest over.
 */

const DYNAMODB = floorOf(['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'], false);
const IMAGE = floorOf(['@aws-sdk/client-dynamodb', '@aws-sdk/client-s3', '@aws-sdk/lib-dynamodb'], true);

function bundle(name: string, sizeKb: number, image = false, idempotencyKey = false): FunctionComposition {
  const floor = image ? IMAGE : DYNAMODB;
  return { name, image, idempotencyKey, closure: { files: 10, lines: 500, shaken: 0 }, sizeKb, floor, floorKb: image ? 472 : 334, breakdown: [] };
}

function difference(ms: number): Difference {
  return { medians: ms, paired: spread([ms - 1, ms, ms + 1]) };
}

function init(overBareMs: number) {
  return { sizeKb: 400, process: spread([overBareMs + 50]), overBare: difference(overBareMs), importCall: spread([overBareMs]) };
}

function coldStart(rows: readonly ColdStartRow[], otherOverDeployedMs = 300): ColdStartResult {
  return {
    rounds: 3,
    bare: spread([50, 51, 52]),
    floors: [{ floor: DYNAMODB, init: init(200) }, { floor: IMAGE, init: init(600) }],
    rows,
    sdkSources: [{ floor: DYNAMODB.key, deployed: difference(200), other: difference(200 + otherOverDeployedMs), otherOverDeployed: difference(otherOverDeployedMs) }],
  };
}

function row(name: string, overFloorMs: number, image = false): ColdStartRow {
  return { name, image, floor: (image ? IMAGE : DYNAMODB).key, init: init(200 + overFloorMs), overFloor: difference(overFloorMs) };
}

describe('the bundle target', () => {
  it('passes when every non-image bundle is within its floor plus the budget, whatever the image functions weigh', () => {
    const [target] = bundleSizeTargets([bundle('listThings', 334 + BUNDLE_OVER_FLOOR_BUDGET_KB), bundle('uploadPicture', 900, true)]);
    expect(target?.pass).toBe(true);
    expect(target?.measured).toContain('listThings');
  });

  it('fails on the function furthest over its floor and names it', () => {
    const rows = [bundle('listThings', 400), bundle('getThing', 334 + BUNDLE_OVER_FLOOR_BUDGET_KB + 1), bundle('uploadPicture', 900, true)];
    const [target] = bundleSizeTargets(rows);
    expect(target?.pass).toBe(false);
    expect(target?.measured).toMatch(/^\+81\.0 KB \(getThing/);
    expect(formatBundleSizes(rows)).toMatch(/getThing .* OVER floor \+ 80 KB/);
  });
});

describe('the bundle guard', () => {
  it('holds a function to floor + 100 KB, and one that takes an Idempotency-Key to floor + 125 KB', () => {
    const within = [bundle('listThings', 334 + BUNDLE_OVER_FLOOR_GUARD_KB.plain), bundle('updateThing', 334 + BUNDLE_OVER_FLOOR_GUARD_KB.idempotencyKey, false, true)];
    const [, guard] = bundleSizeTargets(within);
    expect(guard?.pass).toBe(true);
    expect(formatBundleSizes(within)).toMatch(/updateThing .* within guard 125/);
  });

  it('fails on a function past its own guard and names the nearest', () => {
    const rows = [bundle('listThings', 334 + BUNDLE_OVER_FLOOR_GUARD_KB.plain + 1), bundle('updateThing', 334 + 120, false, true)];
    const [, guard] = bundleSizeTargets(rows);
    expect(guard?.pass).toBe(false);
    expect(guard?.measured).toBe('+101.0 KB of 100 (listThings)');
    expect(formatBundleSizes(rows)).toMatch(/listThings .* OVER guard 100/);
  });
});

describe('the cold-start target', () => {
  it('passes when every non-image init is within its floor plus the budget, whatever the image functions take', () => {
    const [target] = coldStartTargets(coldStart([row('listThings', INIT_OVER_FLOOR_BUDGET_MS), row('uploadPicture', 500, true)]));
    expect(target?.pass).toBe(true);
  });

  it('fails on the function furthest over its floor and names it', () => {
    const result = coldStart([row('listThings', 3), row('getThing', INIT_OVER_FLOOR_BUDGET_MS + 1), row('uploadPicture', 500, true)]);
    const [target] = coldStartTargets(result);
    expect(target?.pass).toBe(false);
    expect(target?.measured).toMatch(/^\+16\.0 ms \(getThing/);
    expect(formatColdStart(result)).toMatch(/getThing .* OVER floor \+ 15 ms/);
  });

  it('checks that the deployed SDK source inits the floors faster than the other', () => {
    const verdict = (otherOverDeployedMs: number) => coldStartTargets(coldStart([row('listThings', 3)], otherOverDeployedMs)).find((target) => target.bench.includes('SDK source'))?.pass;
    expect([verdict(300), verdict(-20)]).toEqual([true, false]);
  });
});
