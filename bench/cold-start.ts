/**
 * Cold start of every deployed function, measured as the Lambda runtime inits it: each sample is a
 * fresh `node` process that imports the function's `index.mjs` the way the Node.js runtime does
 * (bench/lambda-bootstrap.mjs), in a Lambda-like file layout where only the runtime's packages
 * resolve (bench/lambda-layout.ts), with the deployed configuration. Every function is bundled both
 * ways AWS discusses for Node cold starts: the SDK left to the runtime's copy, and the SDK bundled
 * (tree-shaken, minified). Rounds interleave a bare `node -e ''` and every bundle in a new random
 * order each, so drifting machine load hits all alike. Figures are medians with the middle half of
 * the samples; "over bare" is the difference of the medians, its spread taken from the per-round
 * differences (bench/init-rounds.ts). Target (DESIGN.md section 9): at most 50 ms over the bare
 * start, bundles of non-image functions at most 150 KB.
 */
import { DEPLOYED_SDK_SOURCE, SDK_SOURCES, type SdkSource } from '../lib/function-bundling';
import { deployedFunctions } from './function-bundles';
import { deployedConfiguration, formatOverBare, initFigures, timeRounds, type InitSubject } from './init-rounds';
import { createLambdaLayout, deployToLayout, type LambdaLayout } from './lambda-layout';
import { lambdaEnvironment } from './lambda-process';
import { formatMs, formatSpread, formatTable, spread, type Spread, type TargetResult } from './report';

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

/** A bundle to time: a function bundled with one SDK source. */
interface Subject extends InitSubject {
  readonly sdk: SdkSource;
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

function figures(subject: Subject, bare: Spread): VariantFigures {
  return { sizeKb: subject.sizeKb, imports: subject.imports, ...initFigures(subject, bare) };
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
    const bare = timeRounds(subjects, bareEnvironment, options.rounds, 'cold start');
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
    ...VARIANTS.flatMap((sdk) => [formatSpread(row.variants[sdk].process), formatOverBare(row.variants[sdk].overBare), formatMs(row.variants[sdk].importCall.median)]),
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
