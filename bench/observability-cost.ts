/**
 * What the X-Ray tracing costs each deployed function at cold start: every function bundled as
 * deployed with `-c tracing=true`, and again with Powertools Tracer replaced by a do-nothing
 * stand-in (bench/observability-stubs/, through an esbuild alias), everything else alike. Both
 * builds are timed in the same rounds as the Lambda runtime inits them (bench/init-rounds.ts), so
 * the difference is the libraries' load and set-up, measured against each other and not against a
 * figure from another day. The logger and the metrics (a few hundred bytes of the service's own,
 * functions/shared/observability/embedded-metrics.ts) stay in both.
 */
import { bundleDefines, DEPLOYED_SDK_SOURCE, TRACING_ENV } from '../lib/function-bundling';
import { deployedFunctions, type DeployedFunction, type OptionsChange } from '../local/lambda/function-bundles';
import { deployedConfiguration, formatOverBare, initFigures, timeRounds, type InitSubject } from './init-rounds';
import { createLambdaLayout, deployToLayout, providesSdkFor, type LambdaLayout } from '../local/lambda/lambda-layout';
import { lambdaEnvironment } from '../local/lambda/lambda-process';
import { formatMs, formatSpread, formatTable, spread, type Spread, type TargetResult } from './report';

/** The two builds of every function. */
const BUILDS = { with: 'with', without: 'without' } as const;

/** One of {@link BUILDS}. */
type Build = (typeof BUILDS)[keyof typeof BUILDS];

/** The packages the "without" build replaces, each by its stand-in (a path from the project root, as esbuild's alias takes it). */
const STAND_INS = {
  '@aws-lambda-powertools/tracer': './bench/observability-stubs/powertools-tracer.mjs',
} as const;

/** The stack's options with tracing on (`-c tracing=true`): the bundle holds the X-Ray SDK. */
const withTracing: OptionsChange = (options) => ({ ...options, define: { ...options.define, ...bundleDefines(true) } });

/** The stack's options, with Tracer swapped for its stand-in. */
const withoutTracing: OptionsChange = (options) => ({ ...options, alias: { ...options.alias, ...STAND_INS } });

/** One build of one function: its size and init. */
export interface BuildFigures {
  readonly sizeKb: number;
  readonly process: Spread;
  readonly overBare: { readonly medians: number; readonly paired: Spread };
}

/** One function, both builds, and what the tracing adds. */
export interface ObservabilityCostRow {
  readonly name: string;
  readonly image: boolean;
  readonly builds: Readonly<Record<Build, BuildFigures>>;
  /** Wall time with minus without, per round (the two ran in the same round). */
  readonly addedMs: Spread;
}

/** Every function against the bare start measured in the same rounds. */
export interface ObservabilityCostResult {
  readonly rounds: number;
  readonly bare: Spread;
  readonly rows: readonly ObservabilityCostRow[];
}

interface Subject extends InitSubject {
  readonly fn: DeployedFunction;
  readonly build: Build;
  readonly sizeKb: number;
}

async function prepareSubjects(layouts: Readonly<Record<Build, LambdaLayout>>): Promise<Subject[]> {
  const jobs = Object.values(BUILDS).flatMap((build) => deployedFunctions().map((fn) => ({ build, fn })));
  return Promise.all(
    jobs.map(async ({ build, fn }) => {
      const traced = build === BUILDS.with;
      const written = await deployToLayout(layouts[build], fn, DEPLOYED_SDK_SOURCE, traced ? withTracing : withoutTracing);
      const environment = lambdaEnvironment(fn.name, written.folder, { ...deployedConfiguration(), ...(traced ? { [TRACING_ENV]: 'true' } : {}) });
      return { fn, build, sizeKb: written.bytes / 1024, folder: written.folder, environment, samples: [], overBare: [] };
    }),
  );
}

/** Bundles every function with and without tracing, as deployed otherwise, and times `rounds` cold inits of each. */
export async function benchObservabilityCost(options: { rounds: number }): Promise<ObservabilityCostResult> {
  const runtimeSdk = providesSdkFor(DEPLOYED_SDK_SOURCE);
  const layouts = { with: await createLambdaLayout({ runtimeSdk }), without: await createLambdaLayout({ runtimeSdk }) };
  try {
    const subjects = await prepareSubjects(layouts);
    const bare = timeRounds(subjects, lambdaEnvironment('bare', layouts.with.root, deployedConfiguration()), options.rounds, 'tracing');
    const rows = deployedFunctions().map((fn): ObservabilityCostRow => {
      const subject = (build: Build) => subjects.find((candidate) => candidate.fn.name === fn.name && candidate.build === build) as Subject;
      const figures = (build: Build): BuildFigures => {
        const { process, overBare } = initFigures(subject(build), bare);
        return { sizeKb: subject(build).sizeKb, process, overBare };
      };
      const added = subject(BUILDS.with).overBare.map((ms, round) => ms - (subject(BUILDS.without).overBare[round] as number));
      return { name: fn.name, image: fn.image, builds: { with: figures(BUILDS.with), without: figures(BUILDS.without) }, addedMs: spread(added) };
    });
    return { rounds: options.rounds, bare, rows };
  } finally {
    await Promise.all(Object.values(layouts).map((layout) => layout.remove()));
  }
}

/** The table: per function, size and init without and with tracing, and the difference. */
export function formatObservabilityCost(result: ObservabilityCostResult): string {
  const headers = ['function', 'KB without', 'KB with', 'added KB', 'init without, over bare', 'init with, over bare', 'init added (paired)'];
  const rows = result.rows.map((row) => [
    row.name + (row.image ? ' (sharp)' : ''),
    row.builds.without.sizeKb.toFixed(1),
    row.builds.with.sizeKb.toFixed(1),
    (row.builds.with.sizeKb - row.builds.without.sizeKb).toFixed(1),
    formatOverBare(row.builds.without.overBare),
    formatOverBare(row.builds.with.overBare),
    formatSpread(row.addedMs),
  ]);
  return [
    `bare \`node -e ''\`: ${formatSpread(result.bare)}. ${result.rounds} rounds, each a fresh process per bundle; SDK ${DEPLOYED_SDK_SOURCE} as deployed.`,
    'without: Powertools Tracer replaced by a do-nothing stand-in; with: as deployed with -c tracing=true. init added: with minus without, per round, median (25th–75th percentile).',
    formatTable(headers, rows),
  ].join('\n');
}

/** The summary lines: what the tracing adds at most to a bundle, and to an init in the median function. */
export function observabilityCostTargets(result: ObservabilityCostResult): TargetResult[] {
  const addedKb = result.rows.map((row) => ({ row, kb: row.builds.with.sizeKb - row.builds.without.sizeKb }));
  const largest = [...addedKb].sort((a, b) => b.kb - a.kb)[0];
  if (!largest) return [];
  const medianAdded = spread(result.rows.map((row) => row.addedMs.median)).median;
  return [
    { bench: 'tracing: bundle size added (largest)', target: 'reported', measured: `${largest.kb.toFixed(1)} KB (${largest.row.name})`, pass: null },
    { bench: 'tracing: init added (median function)', target: 'reported', measured: formatMs(medianAdded), pass: null },
  ];
}
