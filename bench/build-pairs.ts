/**
 * Two builds of each of some deployed functions, alike but for one change of the stack's esbuild
 * options (a library swapped for a do-nothing stand-in, a module left out), sized and timed in the
 * same rounds as the Lambda runtime inits them (bench/init-rounds.ts): the difference is what the
 * change costs, measured against each other and not against a figure from another day.
 */
import { DEPLOYED_SDK_SOURCE } from '../lib/function-bundling';
import type { DeployedFunction, OptionsChange } from '../local/lambda/function-bundles';
import { deployedConfiguration, formatOverBare, initFigures, timeRounds, type InitSubject } from './init-rounds';
import { createLambdaLayout, deployToLayout, providesSdkFor, type LambdaLayout } from '../local/lambda/lambda-layout';
import { lambdaEnvironment } from '../local/lambda/lambda-process';
import { formatSpread, formatTable, spread, type Spread } from './report';

/** The two builds of every function: `with` the thing measured, `without` it. */
export const BUILDS = { with: 'with', without: 'without' } as const;

/** One of {@link BUILDS}. */
export type Build = (typeof BUILDS)[keyof typeof BUILDS];

/** How each build changes the stack's options, and what `with` adds to the environment. */
export interface BuildPair {
  readonly changes: Readonly<Record<Build, OptionsChange>>;
  readonly withEnvironment?: Readonly<Record<string, string>>;
  /** The progress bar's label. */
  readonly label: string;
}

/** One build of one function: its size and init. */
export interface BuildFigures {
  readonly sizeKb: number;
  readonly process: Spread;
  readonly overBare: { readonly medians: number; readonly paired: Spread };
}

/** One function, both builds, and what the change adds to its init. */
export interface BuildPairRow {
  readonly name: string;
  readonly image: boolean;
  readonly builds: Readonly<Record<Build, BuildFigures>>;
  /** Wall time with minus without, per round (the two ran in the same round). */
  readonly addedMs: Spread;
}

/** Every function against the bare start measured in the same rounds. */
export interface BuildPairResult {
  readonly rounds: number;
  readonly bare: Spread;
  readonly rows: readonly BuildPairRow[];
}

interface Subject extends InitSubject {
  readonly fn: DeployedFunction;
  readonly build: Build;
  readonly sizeKb: number;
}

async function prepareSubjects(functions: readonly DeployedFunction[], pair: BuildPair, layouts: Readonly<Record<Build, LambdaLayout>>): Promise<Subject[]> {
  const jobs = Object.values(BUILDS).flatMap((build) => functions.map((fn) => ({ build, fn })));
  return Promise.all(
    jobs.map(async ({ build, fn }) => {
      const written = await deployToLayout(layouts[build], fn, DEPLOYED_SDK_SOURCE, pair.changes[build]);
      const extra = build === BUILDS.with ? pair.withEnvironment : {};
      const environment = lambdaEnvironment(fn.name, written.folder, { ...deployedConfiguration(), ...extra });
      return { fn, build, sizeKb: written.bytes / 1024, folder: written.folder, environment, samples: [], overBare: [] };
    }),
  );
}

/** Bundles `functions` both ways, as deployed otherwise, and times `rounds` cold inits of each. */
export async function benchBuildPairs(functions: readonly DeployedFunction[], pair: BuildPair, rounds: number): Promise<BuildPairResult> {
  const runtimeSdk = providesSdkFor(DEPLOYED_SDK_SOURCE);
  const layouts = { with: await createLambdaLayout({ runtimeSdk }), without: await createLambdaLayout({ runtimeSdk }) };
  try {
    const subjects = await prepareSubjects(functions, pair, layouts);
    const bare = timeRounds(subjects, lambdaEnvironment('bare', layouts.with.root, deployedConfiguration()), rounds, pair.label);
    const rows = functions.map((fn): BuildPairRow => {
      const subject = (build: Build) => subjects.find((candidate) => candidate.fn.name === fn.name && candidate.build === build) as Subject;
      const figures = (build: Build): BuildFigures => {
        const { process, overBare } = initFigures(subject(build), bare);
        return { sizeKb: subject(build).sizeKb, process, overBare };
      };
      const added = subject(BUILDS.with).overBare.map((ms, round) => ms - (subject(BUILDS.without).overBare[round] as number));
      return { name: fn.name, image: fn.image, builds: { with: figures(BUILDS.with), without: figures(BUILDS.without) }, addedMs: spread(added) };
    });
    return { rounds, bare, rows };
  } finally {
    await Promise.all(Object.values(layouts).map((layout) => layout.remove()));
  }
}

/** The table: per function, size and init without and with, and the difference. */
export function formatBuildPairs(result: BuildPairResult): string {
  const headers = ['function', 'KB without', 'KB with', 'added KB', 'init without, over bare', 'init with, over bare', 'init added (paired)'];
  return formatTable(
    headers,
    result.rows.map((row) => [
      row.name + (row.image ? ' (sharp)' : ''),
      row.builds.without.sizeKb.toFixed(1),
      row.builds.with.sizeKb.toFixed(1),
      (row.builds.with.sizeKb - row.builds.without.sizeKb).toFixed(1),
      formatOverBare(row.builds.without.overBare),
      formatOverBare(row.builds.with.overBare),
      formatSpread(row.addedMs),
    ]),
  );
}

/** What the change adds to a bundle at most, with the function it adds it to. */
export function largestAddedKb(result: BuildPairResult): { readonly kb: number; readonly name: string } | undefined {
  const added = result.rows.map((row) => ({ kb: row.builds.with.sizeKb - row.builds.without.sizeKb, name: row.name }));
  return [...added].sort((a, b) => b.kb - a.kb)[0];
}
