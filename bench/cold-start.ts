/**
 * Cold start of every deployed function against its floor (bench/floor-bundle.ts: only the AWS SDK
 * clients the function uses, created, one command each, bundled the same way), measured as the
 * Lambda runtime inits them: each sample is a fresh `node` process that imports an `index.mjs` the
 * way the Node.js runtime does (bench/lambda-bootstrap.mjs), in a Lambda-like file layout where only
 * the runtime's packages resolve (bench/lambda-layout.ts), with the deployed configuration. Rounds
 * interleave a bare `node -e ''`, every bundle and every floor in a new random order each
 * (bench/init-rounds.ts), so a function and its floor meet the same machine load. The floors are
 * also built with the other SDK source, to check the deployed one inits faster. Target (DESIGN.md
 * section 9): every non-image function's init at most 15 ms over its floor's.
 */
import { DEPLOYED_SDK_SOURCE, SDK_SOURCES, type SdkSource } from '../lib/function-bundling';
import { sdkClientsUsed } from './bundle-composition';
import { expectedOutcomes, floorOf, type Floor } from './floor-bundle';
import { deployedFunctions } from '../local/lambda/function-bundles';
import { deployedConfiguration, formatOverBare, initFigures, timeRounds, type InitSubject } from './init-rounds';
import { createLambdaLayout, deployToLayout, providesSdkFor, type LambdaLayout } from '../local/lambda/lambda-layout';
import { deployFloorToLayout } from './floor-bundle';
import { invokeBundle, lambdaEnvironment } from '../local/lambda/lambda-process';
import { formatMs, formatSpread, formatTable, spread, type Spread, type TargetResult } from './report';

/** Most a non-image function's init may take over its floor's, in ms. */
export const INIT_OVER_FLOOR_BUDGET_MS = 15;

/** The SDK source the floors are also built with, for the comparison. */
const OTHER_SDK_SOURCE: SdkSource = DEPLOYED_SDK_SOURCE === SDK_SOURCES.bundled ? SDK_SOURCES.runtime : SDK_SOURCES.bundled;

const LABELS: Record<SdkSource, string> = { runtime: "runtime's SDK", bundled: 'SDK bundled' };

/** A difference of medians, with the spread of the same difference taken per round. */
export interface Difference {
  readonly medians: number;
  readonly paired: Spread;
}

/** The init of one bundle. */
export interface InitOfBundle {
  /** `index.mjs`, without its source map, in KB. */
  readonly sizeKb: number;
  /** Wall time of the whole process, spawn to exit. */
  readonly process: Spread;
  /** Over the bare start of the same rounds. */
  readonly overBare: Difference;
  /** The `import()` of the handler module alone, timed inside the process. */
  readonly importCall: Spread;
}

/** One function, against its floor. */
export interface ColdStartRow {
  readonly name: string;
  readonly image: boolean;
  readonly floor: string;
  readonly init: InitOfBundle;
  /** Its init minus its floor's. */
  readonly overFloor: Difference;
}

/** A floor with both SDK sources: what the other source costs over the deployed one. */
export interface SdkSourceRow {
  readonly floor: string;
  readonly deployed: Difference;
  readonly other: Difference;
  /** The other source's init minus the deployed one's: positive when the deployed source is faster. */
  readonly otherOverDeployed: Difference;
}

/** Every function, every floor, and the floors' SDK comparison, from the same rounds. */
export interface ColdStartResult {
  readonly rounds: number;
  readonly bare: Spread;
  readonly floors: readonly { readonly floor: Floor; readonly init: InitOfBundle }[];
  readonly rows: readonly ColdStartRow[];
  readonly sdkSources: readonly SdkSourceRow[];
}

/** A bundle to time: its size with its samples. */
interface Subject extends InitSubject {
  readonly sizeKb: number;
}

function subjectOf(written: { readonly folder: string; readonly bytes: number }, name: string): Subject {
  return { folder: written.folder, sizeKb: written.bytes / 1024, environment: lambdaEnvironment(name, written.folder, deployedConfiguration()), samples: [], overBare: [] };
}

/** A floor built into a layout with one SDK source, ready to time. */
async function floorSubject(layout: LambdaLayout, floor: Floor, sdk: SdkSource): Promise<Subject> {
  const subject = subjectOf(await deployFloorToLayout(layout, floor, sdk), `floor ${floor.key}`);
  await checkFloorSends(floor, subject);
  return subject;
}

/**
 * Invoke a floor once before timing it: its handler must get one refused connection per client
 * (the command was built, signed and sent to the closed loopback port) and, with sharp, an image.
 */
async function checkFloorSends(floor: Floor, subject: Subject): Promise<void> {
  const invocation = await invokeBundle(subject.folder, subject.environment, { event: {}, context: { awsRequestId: 'floor-check', deadlineMs: Date.now() + 30_000 } });
  const expected = expectedOutcomes(floor);
  if (JSON.stringify(invocation.result) !== JSON.stringify(expected)) {
    throw new Error(`floor ${floor.key} answered ${JSON.stringify(invocation.result ?? invocation.error)}, expected ${JSON.stringify(expected)}:\n${invocation.stderr}`);
  }
}

function difference(subject: Subject, baseline: Subject, bare: Spread): Difference {
  const medians = initFigures(subject, bare).overBare.medians - initFigures(baseline, bare).overBare.medians;
  return { medians, paired: spread(subject.overBare.map((ms, round) => ms - (baseline.overBare[round] as number))) };
}

function initOf(subject: Subject, bare: Spread): InitOfBundle {
  return { sizeKb: subject.sizeKb, ...initFigures(subject, bare) };
}

/**
 * Bundles every function and its floor into Lambda-like layouts, checks each floor sends, and times
 * `rounds` cold inits of all, after one unrecorded round that warms the file cache.
 */
export async function benchColdStart(options: { rounds: number }): Promise<ColdStartResult> {
  const layouts: Record<'deployed' | 'other', LambdaLayout> = {
    deployed: await createLambdaLayout({ runtimeSdk: providesSdkFor(DEPLOYED_SDK_SOURCE) }),
    other: await createLambdaLayout({ runtimeSdk: providesSdkFor(OTHER_SDK_SOURCE) }),
  };
  try {
    const functions = await Promise.all(
      deployedFunctions().map(async (fn) => {
        const written = await deployToLayout(layouts.deployed, fn, DEPLOYED_SDK_SOURCE);
        return { fn, floor: floorOf(sdkClientsUsed(written.metafile), fn.image), subject: subjectOf(written, fn.name) };
      }),
    );
    const distinct = [...new Map(functions.map(({ floor }) => [floor.key, floor])).values()];
    const floors = await Promise.all(distinct.map(async (floor) => ({ floor, subject: await floorSubject(layouts.deployed, floor, DEPLOYED_SDK_SOURCE) })));
    const compared = await Promise.all(
      floors.filter(({ floor }) => !floor.image && floor.clients.length > 0).map(async ({ floor, subject }) => ({ floor, deployed: subject, other: await floorSubject(layouts.other, floor, OTHER_SDK_SOURCE) })),
    );
    const subjects = [...functions.map(({ subject }) => subject), ...floors.map(({ subject }) => subject), ...compared.map(({ other }) => other)];
    const bare = timeRounds(subjects, lambdaEnvironment('bare', layouts.deployed.root, deployedConfiguration()), options.rounds, 'cold start');
    const subjectOfFloor = new Map(floors.map(({ floor, subject }) => [floor.key, subject]));
    return {
      rounds: options.rounds,
      bare,
      floors: floors.map(({ floor, subject }) => ({ floor, init: initOf(subject, bare) })),
      rows: functions.map(({ fn, floor, subject }) => ({
        name: fn.name,
        image: fn.image,
        floor: floor.key,
        init: initOf(subject, bare),
        overFloor: difference(subject, subjectOfFloor.get(floor.key) as Subject, bare),
      })),
      sdkSources: compared.map(({ floor, deployed, other }) => ({
        floor: floor.key,
        deployed: initFigures(deployed, bare).overBare,
        other: initFigures(other, bare).overBare,
        otherOverDeployed: difference(other, deployed, bare),
      })),
    };
  } finally {
    await Promise.all(Object.values(layouts).map((layout) => layout.remove()));
  }
}

/** The non-image function whose init is furthest over its floor's. */
function slowestOverFloor(result: ColdStartResult): ColdStartRow | undefined {
  return [...result.rows].filter((row) => !row.image).sort((a, b) => b.overFloor.medians - a.overFloor.medians)[0];
}

/** The tables: the floors, every function against its floor, and the floors with the other SDK source. */
export function formatColdStart(result: ColdStartResult): string {
  const floorTable = formatTable(
    ['floor', 'KB', 'init', 'over bare', 'import()'],
    result.floors.map(({ floor, init }) => [floor.key, init.sizeKb.toFixed(1), formatSpread(init.process), formatOverBare(init.overBare), formatMs(init.importCall.median)]),
  );
  const floorInit = new Map(result.floors.map(({ floor, init }) => [floor.key, init]));
  const functionTable = formatTable(
    ['function', 'floor', 'init over bare', 'floor over bare', 'init − floor', 'import()', 'target'],
    result.rows.map((row) => [
      row.name + (row.image ? ' (sharp)' : ''),
      row.floor,
      formatOverBare(row.init.overBare),
      floorInit.has(row.floor) ? formatOverBare((floorInit.get(row.floor) as InitOfBundle).overBare) : 'n/a',
      formatOverBare(row.overFloor),
      formatMs(row.init.importCall.median),
      row.image ? 'image: no target' : row.overFloor.medians <= INIT_OVER_FLOOR_BUDGET_MS ? 'ok' : `OVER floor + ${INIT_OVER_FLOOR_BUDGET_MS} ms`,
    ]),
  );
  const sdkTable = formatTable(
    ['floor', `over bare, ${LABELS[DEPLOYED_SDK_SOURCE]} (deployed)`, `over bare, ${LABELS[OTHER_SDK_SOURCE]}`, 'difference'],
    result.sdkSources.map((row) => [row.floor, formatOverBare(row.deployed), formatOverBare(row.other), formatOverBare(row.otherOverDeployed)]),
  );
  return [
    `bare \`node -e ''\`: ${formatSpread(result.bare)}. ${result.rounds} rounds, each a fresh process per bundle and floor, interleaved in random order; medians with (25th–75th percentile); NODE_OPTIONS=--enable-source-maps as deployed.`,
    'over bare: the median minus the bare start\'s (spread: per-round differences); init − floor: the function\'s median minus its floor\'s (spread: per-round differences); import(): the module import alone.',
    'Floors (each checked first: one command per client sent and refused by a closed port on 127.0.0.1):',
    floorTable,
    '',
    functionTable,
    '',
    `The floors with the SDK left to the runtime vs bundled (difference: ${LABELS[OTHER_SDK_SOURCE]} minus deployed, positive when the deployed source is faster):`,
    sdkTable,
  ].join('\n');
}

/** The summary lines: the non-image function furthest over its floor, the slowest init over bare, and whether the deployed SDK source is the faster. */
export function coldStartTargets(result: ColdStartResult): TargetResult[] {
  const worst = slowestOverFloor(result);
  const slowest = [...result.rows].sort((a, b) => b.init.overBare.medians - a.init.overBare.medians)[0];
  if (!worst || !slowest) return [];
  const floorOver = result.floors.find(({ floor }) => floor.key === worst.floor)?.init.overBare.medians ?? Number.NaN;
  const savedMedian = spread(result.sdkSources.map((row) => row.otherOverDeployed.medians)).median;
  return [
    {
      bench: 'cold start: init over its floor (furthest non-image function)',
      target: `≤ floor + ${INIT_OVER_FLOOR_BUDGET_MS} ms`,
      measured: `+${formatMs(worst.overFloor.medians)} (${worst.name}: ${formatMs(worst.init.overBare.medians)} over bare, floor ${formatMs(floorOver)})`,
      pass: result.rows.every((row) => row.image || row.overFloor.medians <= INIT_OVER_FLOOR_BUDGET_MS),
    },
    { bench: 'cold start: init over bare node (slowest function)', target: 'reported', measured: `${formatMs(slowest.init.overBare.medians)} (${slowest.name})`, pass: null },
    ...(result.sdkSources.length > 0
      ? [{
          bench: 'cold start: deployed SDK source inits faster (floors)',
          target: LABELS[DEPLOYED_SDK_SOURCE],
          measured: `${LABELS[OTHER_SDK_SOURCE]} ${savedMedian >= 0 ? 'slower' : 'faster'} by ${formatMs(Math.abs(savedMedian))} (median floor)`,
          pass: savedMedian >= 0,
        }]
      : []),
  ];
}
