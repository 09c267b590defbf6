/**
 * What every deployed function's bundle holds, bundled exactly as the stack bundles it
 * (lib/function-bundling.ts), against its floor (bench/floor-bundle.ts: only the AWS SDK clients it
 * uses, built the same way): the product code esbuild included, the bundle's size, the floor's, and
 * what the difference is made of. Target (DESIGN.md section 9): every non-image function's bundle at
 * most 80 KB over its floor; guard: never more than 100 KB over it, 125 KB for a route that takes an
 * `Idempotency-Key`. Run alone with `npx tsx bench/bundle-size.ts`, or through `npm run bench`.
 */
import { build, type Metafile } from 'esbuild';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE_SETTINGS } from '../lib/function-bundling';
import { breakdownAboveFloor, type BreakdownGroup } from './bundle-breakdown';
import { bundleOutput, productClosure, sdkClientsUsed, type ProductClosure } from './bundle-composition';
import { buildFloor, floorOf, type BuiltFloor, type Floor } from './floor-bundle';
import { bundleOptions, deployedFunctions, type DeployedFunction } from '../local/lambda/function-bundles';
import { formatRatio, formatTable, type TargetResult } from './report';

/** Most a non-image function's bundle may weigh over its floor, in KB. */
export const BUNDLE_OVER_FLOOR_BUDGET_KB = 80;

/**
 * What no non-image function's bundle may weigh over its floor, in KB (DESIGN.md section 9): a
 * route that takes an `Idempotency-Key` ships Powertools Idempotency, whose JMESPath engine it
 * imports whatever is used (about 45 KB with it).
 */
export const BUNDLE_OVER_FLOOR_GUARD_KB = { plain: 100, idempotencyKey: 125 } as const;

/** One function's bundle against its floor. */
export interface FunctionComposition {
  /** Route name, `authorizer`, or a background function's name. */
  readonly name: string;
  /** Whether the function ships sharp (its floor loads sharp; no target). */
  readonly image: boolean;
  /** Whether it serves a route that takes an `Idempotency-Key` (its guard is the higher one). */
  readonly idempotencyKey: boolean;
  readonly closure: ProductClosure;
  /** Minified `index.mjs`, without its source map, in KB (1024 bytes). */
  readonly sizeKb: number;
  readonly floor: Floor;
  readonly floorKb: number;
  /** What the bundle holds above its floor, by group. */
  readonly breakdown: readonly BreakdownGroup[];
}

/** A function's bundle in memory, with its metafile. */
async function bundleMetafile(fn: DeployedFunction): Promise<Metafile> {
  const result = await build({ ...bundleOptions(fn, join('/bundle', BUNDLE_SETTINGS.outputFile)), write: false, metafile: true });
  return result.metafile;
}

/** The floors of functions built once each, however many functions share one. */
export class FloorBuilds {
  private readonly builds = new Map<string, Promise<BuiltFloor>>();

  /** The built floor of `floor`. */
  public of(floor: Floor): Promise<BuiltFloor> {
    const started = this.builds.get(floor.key) ?? buildFloor(floor);
    this.builds.set(floor.key, started);
    return started;
  }
}

/** Bundles every deployed function and its floor, in memory, and compares them. */
export async function benchBundleSizes(): Promise<FunctionComposition[]> {
  const floors = new FloorBuilds();
  return Promise.all(
    deployedFunctions().map(async (fn): Promise<FunctionComposition> => {
      const metafile = await bundleMetafile(fn);
      const floor = await floors.of(floorOf(sdkClientsUsed(metafile), fn.image));
      return {
        name: fn.name,
        image: fn.image,
        idempotencyKey: fn.kind === 'route' && fn.idempotencyKey,
        closure: productClosure(metafile),
        sizeKb: bundleOutput(metafile).bytes / 1024,
        floor: floor.floor,
        floorKb: floor.bytes / 1024,
        breakdown: breakdownAboveFloor(metafile, floor.metafile),
      };
    }),
  );
}

/** KB over the floor. */
export function overFloorKb(row: FunctionComposition): number {
  return row.sizeKb - row.floorKb;
}

/** The guard of a function, in KB over its floor. */
export function guardKb(row: FunctionComposition): number {
  return row.idempotencyKey ? BUNDLE_OVER_FLOOR_GUARD_KB.idempotencyKey : BUNDLE_OVER_FLOOR_GUARD_KB.plain;
}

/** The target and guard verdict of one function. */
function verdictOf(row: FunctionComposition): string {
  if (row.image) return 'image (floor has sharp; no target)';
  if (overFloorKb(row) <= BUNDLE_OVER_FLOOR_BUDGET_KB) return 'ok';
  const guard = overFloorKb(row) <= guardKb(row) ? `within guard ${guardKb(row)}` : `OVER guard ${guardKb(row)}`;
  return `OVER floor + ${BUNDLE_OVER_FLOOR_BUDGET_KB} KB, ${guard}`;
}

/** The non-image function furthest over its floor. */
export function furthestOverFloor(rows: readonly FunctionComposition[]): FunctionComposition | undefined {
  return [...rows].filter((row) => !row.image).sort((a, b) => overFloorKb(b) - overFloorKb(a))[0];
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** What one function holds above its floor, by group, with each group's largest parts. */
export function formatBreakdown(row: FunctionComposition): string {
  const rows = row.breakdown.map((group) => {
    // Parts that weigh the same in the floor say nothing about what the group adds.
    const telling = group.parts.filter((part) => Math.abs(part.bytes - part.floorBytes) >= 50);
    const more = group.parts.length - Math.min(telling.length, 4);
    const parts = telling.slice(0, 4).map((part) => `${shortGroup(part.part)} ${kb(part.bytes - part.floorBytes)}`);
    const described = telling.length === 0 ? ['as in the floor'] : [...parts, ...(more > 0 ? [`${more} more`] : [])];
    return [shortGroup(group.group), kb(group.bytes), kb(group.floorBytes), kb(group.aboveFloor), described.join(', ')];
  });
  return formatTable(['group', 'KB', 'floor KB', 'above floor', 'largest parts (KB above floor)'], rows);
}

/** Group and part names as the tables print them: Powertools' scope shortened to `pt/`. */
function shortGroup(group: string): string {
  return group.replace(/@aws-lambda-powertools\//g, 'pt/');
}

/** KB above the floor of every function, in the groups that weigh most across them, the rest summed. */
export function formatGroupMatrix(rows: readonly FunctionComposition[], columns = 7): string {
  const totals = new Map<string, number>();
  for (const row of rows) for (const group of row.breakdown) totals.set(group.group, (totals.get(group.group) ?? 0) + group.aboveFloor);
  const top = [...totals].sort((a, b) => b[1] - a[1]).slice(0, columns).map(([group]) => group);
  const table = rows.map((row) => {
    const above = (group: string) => row.breakdown.find((candidate) => candidate.group === group)?.aboveFloor ?? 0;
    const rest = row.breakdown.filter((group) => !top.includes(group.group)).reduce((sum, group) => sum + group.aboveFloor, 0);
    return [row.name, kb(overFloorKb(row) * 1024), ...top.map((group) => kb(above(group))), kb(rest)];
  });
  return formatTable(['function', 'over floor', ...top.map(shortGroup), 'rest'], table);
}

/** The table of every function against its floor, what the furthest one holds above it, and every function by group. */
export function formatBundleSizes(rows: readonly FunctionComposition[]): string {
  const table = rows.map((row) => {
    const verdict = verdictOf(row);
    return [row.name, row.closure.files, row.closure.lines, row.closure.shaken, row.sizeKb.toFixed(1), row.floor.key, row.floorKb.toFixed(1), overFloorKb(row).toFixed(1), formatRatio(row.sizeKb / row.floorKb), verdict];
  });
  const worst = furthestOverFloor(rows);
  return [
    'closure: files under functions/ with code in the bundle, their lines, and files imported but shaken out whole. KB: minified index.mjs as deployed;',
    "floor: a bundle of only the AWS SDK clients the function's code uses (from esbuild's metafile), created, one command each, built the same way.",
    formatTable(['function', 'files', 'lines', 'shaken', 'KB', 'floor', 'floor KB', 'over floor', '× floor', 'target'], table),
    '',
    'Groups: a package the code imports, with the packages only it pulls in; shared: packages reached from several; pt/ = @aws-lambda-powertools/.',
    ...(worst ? [`What ${worst.name} holds above its floor (${worst.floor.key}), KB:`, formatBreakdown(worst), ''] : []),
    'Every function, KB above its floor by group:',
    formatGroupMatrix(rows),
  ].join('\n');
}

/**
 * The summary lines: the non-image function furthest over its floor against the budget, the one
 * nearest its guard against it, and the largest product closure.
 */
export function bundleSizeTargets(rows: readonly FunctionComposition[]): TargetResult[] {
  const worst = furthestOverFloor(rows);
  const nearestGuard = [...rows].filter((row) => !row.image).sort((a, b) => overFloorKb(b) - guardKb(b) - (overFloorKb(a) - guardKb(a)))[0];
  const largest = [...rows].sort((a, b) => b.closure.lines - a.closure.lines)[0];
  if (!worst || !nearestGuard || !largest) return [];
  return [
    {
      bench: 'bundle over its floor (furthest non-image function)',
      target: `≤ floor + ${BUNDLE_OVER_FLOOR_BUDGET_KB} KB`,
      measured: `+${overFloorKb(worst).toFixed(1)} KB (${worst.name}: ${worst.sizeKb.toFixed(1)} KB, floor ${worst.floorKb.toFixed(1)} KB, ${formatRatio(worst.sizeKb / worst.floorKb)})`,
      pass: rows.every((row) => row.image || overFloorKb(row) <= BUNDLE_OVER_FLOOR_BUDGET_KB),
    },
    {
      bench: 'bundle over its floor, the guard (nearest non-image function)',
      target: `≤ floor + ${BUNDLE_OVER_FLOOR_GUARD_KB.plain} KB, ${BUNDLE_OVER_FLOOR_GUARD_KB.idempotencyKey} KB with Idempotency-Key`,
      measured: `+${overFloorKb(nearestGuard).toFixed(1)} KB of ${guardKb(nearestGuard)} (${nearestGuard.name})`,
      pass: rows.every((row) => row.image || overFloorKb(row) <= guardKb(row)),
    },
    { bench: 'product code in a bundle (largest closure)', target: 'reported', measured: `${largest.closure.files} files, ${largest.closure.lines} lines (${largest.name})`, pass: null },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchBundleSizes();
  console.log(formatBundleSizes(rows));
  process.exitCode = bundleSizeTargets(rows)[0]?.pass === false ? 1 : 0;
}
