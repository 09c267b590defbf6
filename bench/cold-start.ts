/**
 * Cold start of every deployed function, measured as the Lambda runtime inits it: each sample is a
 * fresh `node` process that imports the function's `index.mjs` the way the Node.js runtime does
 * (bench/lambda-bootstrap.mjs), in a Lambda-like file layout where only the runtime's packages
 * resolve (bench/lambda-layout.ts), with the deployed configuration. Every function is bundled both
 * ways AWS discusses for Node cold starts: the SDK left to the runtime's copy, and the SDK bundled
 * (tree-shaken, minified). Rounds interleave a bare `node -e ''` and every bundle in a new random
 * order each, so drifting machine load hits all alike. Figures are medians with the middle half of
 * the samples; "over bare" is the difference of the medians, its spread taken from the per-round
 * differences. Target (DESIGN.md section 9): at most 50 ms over the bare start, bundles of non-image
 * functions at most 150 KB.
 */
import { tables } from '../functions/shared/tables';
import { avatarBucket } from '../functions/shared/storage/avatar-bucket';
import { DEPLOYED_SDK_SOURCE, SDK_SOURCES, type SdkSource } from '../lib/function-bundling';
import { deployedFunctions, type DeployedFunction } from './function-bundles';
import { createLambdaLayout, deployToLayout, type LambdaLayout } from './lambda-layout';
import { DEPLOYED_SETTINGS, lambdaEnvironment, timeBareNode, timeInit, type InitSample } from './lambda-process';
import { formatMs, formatSpread, formatTable, progressBar, spread, type Spread, type TargetResult } from './report';

/** Largest module init time over a bare Node start, in ms. */
export const MODULE_INIT_BUDGET_MS = 50;

/** Largest bundle of a function without sharp, in KB, "with the logging, metrics, tracing and CORS it ships". */
export const BUNDLE_BUDGET_KB = 150;

/** Both SDK sources, the deployed one first. */
const VARIANTS: readonly SdkSource[] = [DEPLOYED_SDK_SOURCE, ...Object.values(SDK_SOURCES).filter((sdk) => sdk !== DEPLOYED_SDK_SOURCE)];

/** Cold start of one function bundled one way. */
export interface VariantFigures {
  /** `index.mjs`, without its source map, in KB. */
  readonly sizeKb: number;
  /** Packages the bundle imports from outside it. */
  readonly imports: readonly string[];
  /** Wall time of the whole process, spawn to exit. */
  readonly process: Spread;
  /** The process's median minus the bare start's median; spread of the per-round differences. */
  readonly overBare: { readonly medians: number; readonly paired: Spread };
  /** The `import()` of the handler module alone, timed inside the process. */
  readonly importCall: Spread;
}

/** One function, both ways. */
export interface ColdStartRow {
  readonly name: string;
  readonly image: boolean;
  readonly variants: Readonly<Record<SdkSource, VariantFigures>>;
}

/** Every function against the bare start measured in the same rounds. */
export interface ColdStartResult {
  readonly rounds: number;
  readonly bare: Spread;
  readonly rows: readonly ColdStartRow[];
}

/** A bundle to time: a function, one SDK source, its folder and environment. */
interface Subject {
  readonly fn: DeployedFunction;
  readonly sdk: SdkSource;
  readonly sizeKb: number;
  readonly imports: readonly string[];
  readonly folder: string;
  readonly environment: Record<string, string>;
  readonly samples: InitSample[];
  /** This subject's wall time minus the bare start of the same round. */
  readonly overBare: number[];
}

/**
 * What the stack puts in every function's environment, with stand-in values: init reads names and
 * settings, never calls AWS, so dummy credentials and an unreachable issuer do.
 */
function deployedConfiguration(): Record<string, string> {
  return {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    ...Object.fromEntries(tables.map((table) => [table.nameEnv, table.id])),
    [avatarBucket.nameEnv]: avatarBucket.id,
    AVATAR_PUBLIC_BASE_URL: 'https://avatars.invalid',
    AUTH_ISSUER: 'https://issuer.invalid/',
    AUTH_JWKS_URL: 'https://issuer.invalid/.well-known/jwks.json',
    AUTH_COGNITO_CLIENT_ID: 'bench',
    // At least MIN_CURSOR_SECRET_LENGTH (32) characters: a shorter key fails the list functions' init.
    CURSOR_SECRET: 'cold-start-bench-cursor-signing-key',
    ...DEPLOYED_SETTINGS,
  };
}

/** Every function bundled both ways, each into its task folder; esbuild runs the builds side by side. */
function prepareSubjects(layouts: Readonly<Record<SdkSource, LambdaLayout>>): Promise<Subject[]> {
  const jobs = VARIANTS.flatMap((sdk) => deployedFunctions().map((fn) => ({ sdk, fn })));
  return Promise.all(
    jobs.map(async ({ sdk, fn }) => {
      const written = await deployToLayout(layouts[sdk], fn, sdk);
      const environment = lambdaEnvironment(fn.name, written.folder, deployedConfiguration());
      return { fn, sdk, sizeKb: written.bytes / 1024, imports: written.imports, folder: written.folder, environment, samples: [], overBare: [] };
    }),
  );
}

/** Fisher–Yates, so no bundle always runs right after another (a warm page cache, a busy neighbour). */
function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

/** One round: the bare start and every subject once, in a random order. */
function runRound(subjects: readonly Subject[], bareEnvironment: Record<string, string>, record: boolean): number {
  let bareMs = Number.NaN;
  const walls = new Map<Subject, number>();
  for (const job of shuffled<Subject | 'bare'>(['bare', ...subjects])) {
    if (job === 'bare') bareMs = timeBareNode(bareEnvironment);
    else {
      const sample = timeInit(job.folder, job.environment);
      walls.set(job, sample.wallMs);
      if (record) job.samples.push(sample);
    }
  }
  if (record) for (const [subject, wallMs] of walls) subject.overBare.push(wallMs - bareMs);
  return bareMs;
}

function figures(subject: Subject, bare: Spread): VariantFigures {
  const processSpread = spread(subject.samples.map((sample) => sample.wallMs));
  return {
    sizeKb: subject.sizeKb,
    imports: subject.imports,
    process: processSpread,
    overBare: { medians: processSpread.median - bare.median, paired: spread(subject.overBare) },
    importCall: spread(subject.samples.map((sample) => sample.importMs)),
  };
}

/**
 * Bundles every function both ways into Lambda-like layouts and times `rounds` cold inits of each,
 * after one unrecorded round that warms the file cache and fails fast on a bundle that cannot load.
 */
export async function benchColdStart(options: { rounds: number }): Promise<ColdStartResult> {
  const layouts = { runtime: await createLambdaLayout({ runtimeSdk: true }), bundled: await createLambdaLayout({ runtimeSdk: false }) };
  try {
    const subjects = await prepareSubjects(layouts);
    const bareEnvironment = lambdaEnvironment('bare', layouts.runtime.root, deployedConfiguration());
    runRound(subjects, bareEnvironment, false);
    const bareSamples: number[] = [];
    const bar = progressBar('cold start', options.rounds);
    for (let round = 0; round < options.rounds; round += 1) {
      bareSamples.push(runRound(subjects, bareEnvironment, true));
      bar.increment(1);
    }
    bar.stop();
    const bare = spread(bareSamples);
    const rows = deployedFunctions().map((fn) => {
      const variant = (sdk: SdkSource) => figures(subjects.find((subject) => subject.fn.name === fn.name && subject.sdk === sdk) as Subject, bare);
      return { name: fn.name, image: fn.image, variants: { runtime: variant('runtime'), bundled: variant('bundled') } };
    });
    return { rounds: options.rounds, bare, rows };
  } finally {
    await Promise.all(Object.values(layouts).map((layout) => layout.remove()));
  }
}

const LABELS: Record<SdkSource, string> = { runtime: "runtime's SDK", bundled: 'SDK bundled' };

/** The difference of medians, with the spread of the per-round differences around it. */
function overBareCell(value: VariantFigures['overBare']): string {
  return formatSpread({ ...value.paired, median: value.medians });
}

/** What the SDK choice rests on: the init bundling saves against the size it adds. */
export interface SdkComparison {
  /** Per function that uses the SDK: init over bare with the runtime's SDK minus with the SDK bundled. */
  readonly savedMs: Spread;
  /** Smallest and largest bundle of the non-image functions, per SDK source. */
  readonly sizesKb: Readonly<Record<SdkSource, readonly [number, number]>>;
  /** The source with the faster init, by the median saving. */
  readonly fasterSource: SdkSource;
}

/** The comparison of both SDK sources over the functions that use the SDK. */
export function sdkComparison(result: ColdStartResult): SdkComparison {
  const sdkUsers = result.rows.filter((row) => row.variants.runtime.imports.some((name) => name.startsWith('@aws-sdk/')));
  const saved = sdkUsers.map((row) => row.variants.runtime.overBare.medians - row.variants.bundled.overBare.medians);
  const range = (sdk: SdkSource): readonly [number, number] => {
    const sizes = result.rows.filter((row) => !row.image).map((row) => row.variants[sdk].sizeKb);
    return [Math.min(...sizes), Math.max(...sizes)];
  };
  const savedMs = spread(saved);
  return { savedMs, sizesKb: { runtime: range('runtime'), bundled: range('bundled') }, fasterSource: savedMs.median > 0 ? 'bundled' : 'runtime' };
}

/** The table: per function, bundle size and init for both SDK sources, against the bare start. */
export function formatColdStart(result: ColdStartResult): string {
  const headers = ['function', ...VARIANTS.map((sdk) => `KB, ${LABELS[sdk]}`), ...VARIANTS.flatMap((sdk) => [`init, ${LABELS[sdk]}`, 'over bare', 'import()'])];
  const rows = result.rows.map((row) => [
    row.name + (row.image ? ' (sharp)' : ''),
    ...VARIANTS.map((sdk) => row.variants[sdk].sizeKb.toFixed(1)),
    ...VARIANTS.flatMap((sdk) => [formatSpread(row.variants[sdk].process), overBareCell(row.variants[sdk].overBare), formatMs(row.variants[sdk].importCall.median)]),
  ]);
  const comparison = sdkComparison(result);
  const kb = ([low, high]: readonly [number, number]) => `${low.toFixed(0)}–${high.toFixed(0)} KB`;
  return [
    `bare \`node -e ''\`: ${formatSpread(result.bare)}. ${result.rounds} rounds, each a fresh process per bundle, medians with (25th–75th percentile); NODE_OPTIONS=--enable-source-maps as deployed.`,
    "init: the process that imports index.mjs as the Lambda runtime does, spawn to exit; over bare: its median minus the bare start's (spread: per-round differences); import(): the module import alone, inside that process.",
    formatTable(headers, rows),
    '',
    `Init over bare saved by bundling the SDK, per function that uses it: ${formatSpread(comparison.savedMs)}; non-image bundles: ${kb(comparison.sizesKb.runtime)} with the runtime's SDK, ${kb(comparison.sizesKb.bundled)} with it bundled (budget ${BUNDLE_BUDGET_KB} KB).`,
    `Deployed: ${LABELS[DEPLOYED_SDK_SOURCE]} (lib/function-bundling.ts); the faster in this run: ${LABELS[comparison.fasterSource]}.`,
  ].join('\n');
}

/** The summary lines: the deployed bundles' slowest init and largest size against the budgets, and whether the deployed SDK source is the faster one. */
export function coldStartTargets(result: ColdStartResult): TargetResult[] {
  const deployed = result.rows.map((row) => ({ row, figures: row.variants[DEPLOYED_SDK_SOURCE] }));
  const slowest = [...deployed].sort((a, b) => b.figures.overBare.medians - a.figures.overBare.medians)[0];
  const largest = [...deployed].filter(({ row }) => !row.image).sort((a, b) => b.figures.sizeKb - a.figures.sizeKb)[0];
  const comparison = sdkComparison(result);
  if (!slowest || !largest) return [];
  return [
    {
      bench: 'cold start: init over bare node (slowest deployed bundle)',
      target: `≤ ${MODULE_INIT_BUDGET_MS} ms`,
      measured: `${formatMs(slowest.figures.overBare.medians)} (${slowest.row.name})`,
      pass: slowest.figures.overBare.medians <= MODULE_INIT_BUDGET_MS,
    },
    {
      bench: 'cold start: deployed bundle size (largest non-image)',
      target: `≤ ${BUNDLE_BUDGET_KB} KB`,
      measured: `${largest.figures.sizeKb.toFixed(1)} KB (${largest.row.name})`,
      pass: largest.figures.sizeKb <= BUNDLE_BUDGET_KB,
    },
    {
      bench: 'cold start: deployed SDK source is the faster one',
      target: LABELS[DEPLOYED_SDK_SOURCE],
      measured: `${LABELS[comparison.fasterSource]} (bundling saves ${formatMs(comparison.savedMs.median)} median)`,
      pass: comparison.fasterSource === DEPLOYED_SDK_SOURCE,
    },
  ];
}
