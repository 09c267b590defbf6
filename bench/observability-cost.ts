/**
 * What the X-Ray tracing costs each deployed function at cold start: every function bundled as
 * deployed with `-c tracing=true`, and again with Powertools Tracer replaced by a do-nothing
 * stand-in (bench/observability-stubs/, through an esbuild alias), everything else alike, both
 * timed in the same rounds (bench/build-pairs.ts). The logger and the metrics (a few hundred bytes
 * of the service's own, functions/shared/observability/embedded-metrics.ts) stay in both.
 */
import { DEPLOYED_SDK_SOURCE, TRACING_ENV, tracingDefines } from '../lib/function-bundling';
import { benchBuildPairs, formatBuildPairs, largestAddedKb, type BuildPairResult } from './build-pairs';
import { deployedFunctions, type OptionsChange } from '../local/lambda/function-bundles';
import { formatMs, formatSpread, spread, type TargetResult } from './report';

/** The packages the "without" build replaces, each by its stand-in (a path from the project root, as esbuild's alias takes it). */
const STAND_INS = {
  '@aws-lambda-powertools/tracer': './bench/observability-stubs/powertools-tracer.mjs',
} as const;

/** The stack's options with tracing on (`-c tracing=true`): the bundle holds the X-Ray SDK. */
const withTracing: OptionsChange = (options) => ({ ...options, define: { ...options.define, ...tracingDefines(true) } });

/** The stack's options, with Tracer swapped for its stand-in. */
const withoutTracing: OptionsChange = (options) => ({ ...options, alias: { ...options.alias, ...STAND_INS } });

/** Every function, with and without tracing. */
export type ObservabilityCostResult = BuildPairResult;

/** Bundles every function with and without tracing, as deployed otherwise, and times `rounds` cold inits of each. */
export function benchObservabilityCost(options: { rounds: number }): Promise<ObservabilityCostResult> {
  return benchBuildPairs(deployedFunctions(), { changes: { with: withTracing, without: withoutTracing }, withEnvironment: { [TRACING_ENV]: 'true' }, label: 'tracing' }, options.rounds);
}

/** The table: per function, size and init without and with tracing, and the difference. */
export function formatObservabilityCost(result: ObservabilityCostResult): string {
  return [
    `bare \`node -e ''\`: ${formatSpread(result.bare)}. ${result.rounds} rounds, each a fresh process per bundle; SDK ${DEPLOYED_SDK_SOURCE} as deployed.`,
    'without: Powertools Tracer replaced by a do-nothing stand-in; with: as deployed with -c tracing=true. init added: with minus without, per round, median (25th–75th percentile).',
    formatBuildPairs(result),
  ].join('\n');
}

/** The summary lines: what the tracing adds at most to a bundle, and to an init in the median function. */
export function observabilityCostTargets(result: ObservabilityCostResult): TargetResult[] {
  const largest = largestAddedKb(result);
  if (!largest) return [];
  const medianAdded = spread(result.rows.map((row) => row.addedMs.median)).median;
  return [
    { bench: 'tracing: bundle size added (largest)', target: 'reported', measured: `${largest.kb.toFixed(1)} KB (${largest.name})`, pass: null },
    { bench: 'tracing: init added (median function)', target: 'reported', measured: formatMs(medianAdded), pass: null },
  ];
}
