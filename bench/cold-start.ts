/**
 * Module init time of every function's bundle, bundled with the stack's settings
 * (lib/function-bundling.ts): the wall time of `node -e "await import(bundle)"` minus that of a bare
 * `node -e ''`, median of several runs each. Target: at most 50 ms over the bare start. The modules
 * a bundle leaves external (the AWS SDK, which the Lambda runtime provides) are also imported alone,
 * so the table shows how much of the init is theirs and how much is the bundle's own code.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { tables } from '../functions/shared/tables';
import { avatarBucket } from '../functions/shared/storage/avatar-bucket';
import { BUNDLE_SETTINGS, PROJECT_ROOT } from '../lib/function-bundling';
import { bundleOptions, deployedFunctions, type DeployedFunction } from './function-bundles';
import { formatMs, formatTable, median, type TargetResult } from './report';

/** Largest module init time over a bare Node start, in ms. */
export const MODULE_INIT_BUDGET_MS = 50;

/**
 * Inside the project, so the bundles resolve `@aws-sdk/*` (and sharp) from its node_modules, as
 * they resolve them from the Lambda runtime in AWS.
 */
const BUNDLE_DIR = join(PROJECT_ROOT, 'node_modules', '.cache', 'frontend-api', 'bench', 'cold-start');

/** How long one child process may take before the run counts as failed. */
const CHILD_TIMEOUT_MS = 30_000;

/** A function as the stack deploys it. */

/** Module init of one function. */
export interface ColdStartRow {
  readonly name: string;
  readonly sizeKb: number;
  /** Median wall time of `node -e "await import(bundle)"`. */
  readonly importMs: number;
  /** {@link importMs} minus the bare start's median. */
  readonly initMs: number;
  /**
   * The same difference in CPU time (user + system, all threads): steadier than wall time when
   * other processes compete for the machine, and blind to time spent waiting on the disk.
   */
  readonly initCpuMs: number;
  /** Modules the bundle imports from outside (`@aws-sdk/*`, sharp). */
  readonly externals: readonly string[];
  /** Median import time of those modules alone, minus the bare start's median. */
  readonly externalsMs: number;
  /** Median, over the rounds, of the bundle's import time minus its externals' in the same round. */
  readonly ownCodeMs: number;
  readonly withinBudget: boolean;
}

/** Module init of every function, against the bare start measured in the same run. */
export interface ColdStartResult {
  readonly runs: number;
  readonly bareMs: number;
  readonly rows: readonly ColdStartRow[];
}



/** A written bundle, and a module that imports only what the bundle leaves external. */
interface WrittenBundle {
  readonly bundle: string;
  readonly externals: readonly string[];
  readonly externalsModule: string;
}

/** Bundle a function under {@link BUNDLE_DIR}, beside a module importing its externals alone. */
async function writeBundle(fn: DeployedFunction): Promise<WrittenBundle> {
  const folder = join(BUNDLE_DIR, fn.name);
  await mkdir(folder, { recursive: true });
  const bundle = join(folder, BUNDLE_SETTINGS.outputFile);
  // The folder holds ES modules whatever package.json above it says.
  await writeFile(join(folder, 'package.json'), '{"type":"module"}\n');
  const { metafile } = await build({ ...bundleOptions(fn, bundle), metafile: true });
  const output = Object.entries(metafile.outputs).find(([path]) => path.endsWith(BUNDLE_SETTINGS.outputFile))?.[1];
  const externals = [...new Set((output?.imports ?? []).filter((entry) => entry.external && !entry.path.startsWith('node:')).map((entry) => entry.path))];
  const externalsModule = join(folder, 'externals.mjs');
  await writeFile(externalsModule, externals.map((path) => `import ${JSON.stringify(path)};\n`).join(''));
  return { bundle, externals, externalsModule };
}

/**
 * The environment a deployed function starts with (every resource name, as the stack passes
 * them, and source maps on), with dummy credentials: module init must not need real ones.
 */
function functionEnvironment(name: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    AWS_LAMBDA_FUNCTION_NAME: name,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    ...Object.fromEntries(tables.map((table) => [table.nameEnv, table.id])),
    [avatarBucket.nameEnv]: avatarBucket.id,
    AVATAR_PUBLIC_BASE_URL: 'https://avatars.invalid',
    POWERTOOLS_SERVICE_NAME: 'frontend-api',
    POWERTOOLS_LOG_LEVEL: 'INFO',
    NODE_OPTIONS: '--enable-source-maps',
  };
}

/** The CPU time (user + system) a child process used up to the point it prints it. */
const PRINT_CPU_TIME = 'process.stdout.write(JSON.stringify(process.cpuUsage()));';

/** Wall time and CPU time of one `node` run. */
interface NodeRun {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** Run `node` with `args`; a failing run is an error (its stderr says why). */
function nodeRun(args: readonly string[], env: NodeJS.ProcessEnv): NodeRun {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { env, timeout: CHILD_TIMEOUT_MS, encoding: 'utf8' });
  const wallMs = performance.now() - started;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} failed (${run.signal ?? run.status}): ${run.stderr.trim().slice(0, 500)}`);
  const cpu = JSON.parse(run.stdout) as { user: number; system: number };
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** `node -e "await import(module)"` in a function's environment. */
function importRun(module: string, functionName: string): NodeRun {
  const script = `await import(${JSON.stringify(pathToFileURL(module).href)}); ${PRINT_CPU_TIME}`;
  return nodeRun(['--input-type=module', '-e', script], functionEnvironment(functionName));
}

/** Bundles every function and measures its module init against a bare Node start, `runs` times each. */
export async function benchColdStart(options: { runs: number }): Promise<ColdStartResult> {
  const functions = deployedFunctions();
  const bundles = await Promise.all(functions.map(writeBundle));
  const bare: NodeRun[] = [];
  const imports: NodeRun[][] = functions.map(() => []);
  const externalImports: NodeRun[][] = functions.map(() => []);
  // Rounds interleave the bare start and every bundle, so drift in machine load hits all alike.
  for (let round = 0; round < options.runs; round += 1) {
    bare.push(nodeRun(['-e', PRINT_CPU_TIME], functionEnvironment('bare')));
    functions.forEach((fn, index) => {
      const written = bundles[index] as WrittenBundle;
      imports[index]?.push(importRun(written.bundle, fn.name));
      externalImports[index]?.push(importRun(written.externalsModule, fn.name));
    });
  }
  const wall = (runs: readonly NodeRun[]) => median(runs.map((run) => run.wallMs));
  const cpu = (runs: readonly NodeRun[]) => median(runs.map((run) => run.cpuMs));
  const bareMs = wall(bare);
  const rows = functions.map((fn, index) => {
    const written = bundles[index] as WrittenBundle;
    const bundleRuns = imports[index] ?? [];
    const externalRuns = externalImports[index] ?? [];
    const importMs = wall(bundleRuns);
    const initMs = importMs - bareMs;
    // Paired per round: the two runs of a round share the machine's state of the moment.
    const ownCodeMs = median(bundleRuns.map((run, round) => run.wallMs - (externalRuns[round] as NodeRun).wallMs));
    return {
      name: fn.name,
      sizeKb: statSync(written.bundle).size / 1024,
      importMs,
      initMs,
      initCpuMs: cpu(bundleRuns) - cpu(bare),
      externals: written.externals,
      externalsMs: wall(externalRuns) - bareMs,
      ownCodeMs,
      withinBudget: initMs <= MODULE_INIT_BUDGET_MS,
    };
  });
  return { runs: options.runs, bareMs, rows };
}

/** One line per function: bundle size, import time, init over the bare start. */
export function formatColdStart(result: ColdStartResult): string {
  const rows = result.rows.map((row) => [
    row.name,
    `${row.sizeKb.toFixed(1)} KB`,
    formatMs(row.importMs),
    formatMs(row.initMs),
    formatMs(row.initCpuMs),
    formatMs(row.externalsMs),
    formatMs(row.ownCodeMs),
    row.withinBudget ? `ok (≤ ${MODULE_INIT_BUDGET_MS} ms)` : `OVER ${MODULE_INIT_BUDGET_MS} ms`,
  ]);
  const externals = [...new Set(result.rows.flatMap((row) => row.externals))].sort();
  return [
    `bare \`node -e\` (printing only its CPU time): ${formatMs(result.bareMs)}; every figure is the median of ${result.runs} runs, NODE_OPTIONS=--enable-source-maps as deployed`,
    'init over bare: wall time, the target; CPU over bare: user + system time of the same runs, steadier on a busy machine',
    `externals alone: the modules a bundle leaves to the runtime (${externals.join(', ') || 'none'}), imported without the bundle, over bare`,
    'own code: per round, the bundle\'s import minus its externals alone (median)',
    formatTable(['function', 'bundle', 'import', 'init over bare', 'CPU over bare', 'externals alone', 'own code', 'verdict'], rows),
  ].join('\n');
}

/** The summary line: the slowest function's init against the budget. */
export function coldStartTargets(result: ColdStartResult): TargetResult[] {
  const slowest = [...result.rows].sort((a, b) => b.initMs - a.initMs)[0];
  if (!slowest) return [];
  return [{
    bench: 'cold start: module init over bare node (slowest function)',
    target: `≤ ${MODULE_INIT_BUDGET_MS} ms`,
    measured: `${formatMs(slowest.initMs)} (${slowest.name}; externals ${formatMs(slowest.externalsMs)}, own code ${formatMs(slowest.ownCodeMs)})`,
    pass: result.rows.every((row) => row.withinBudget),
  }];
}
