/**
 * Runs a bundle in a fresh Node process that stands in for a Lambda execution environment: the
 * variables the runtime sets, the function's configuration, and bench/lambda-bootstrap.mjs loading
 * the handler as the runtime does. The cold-start bench times such processes; the deployed-bundles
 * test invokes handlers through them.
 */
import { spawn, spawnSync, type StdioOptions } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { METRICS_NAMESPACE, SERVICE_NAME } from '../../functions/shared/observability/metric-catalog';
import { NODE_MAJOR_VERSION, TRACING_ENV } from '../../lib/function-bundling';
import { SETTINGS_DEFAULTS } from '../../lib/stack-settings';

/** The script that loads a handler like the runtime. */
const BOOTSTRAP = join(fileURLToPath(new URL('.', import.meta.url)), 'lambda-bootstrap.mjs');

/** The handler setting of every function: the stack deploys `index.mjs` exporting `handler`. */
const HANDLER = 'index.handler';

/** stdin, stdout, stderr, and the answer channel of the bootstrap. */
const STDIO: StdioOptions = ['pipe', 'pipe', 'pipe', 'pipe'];

/**
 * Settings the stack gives every function (lib/frontend-api-stack.ts) that do not depend on the
 * deployment, plus the switch that silences the SDK's notice about Node 20, which this machine runs
 * and Lambda does not.
 */
export const DEPLOYED_SETTINGS = {
  POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
  POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
  POWERTOOLS_LOG_LEVEL: 'INFO',
  [TRACING_ENV]: String(SETTINGS_DEFAULTS.tracing),
  NODE_OPTIONS: '--enable-source-maps',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
} as const;

/** How long one process may take before it counts as hung. */
const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The variables the Lambda runtime defines for every function
 * (https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime),
 * over the function's configuration. Nothing else of this machine's environment passes but PATH: no
 * NODE_PATH or HOME, through which Node could find packages the runtime does not provide.
 */
export function lambdaEnvironment(functionName: string, taskFolder: string, configuration: Readonly<Record<string, string>>): Record<string, string> {
  const region = configuration.AWS_REGION ?? 'us-east-1';
  return {
    ...configuration,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'en_US.UTF-8',
    TZ: 'UTC',
    _HANDLER: HANDLER,
    LAMBDA_TASK_ROOT: taskFolder,
    AWS_EXECUTION_ENV: `AWS_Lambda_nodejs${NODE_MAJOR_VERSION}.x`,
    AWS_LAMBDA_FUNCTION_NAME: functionName,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${functionName}`,
    AWS_LAMBDA_LOG_STREAM_NAME: 'local',
    AWS_REGION: region,
    AWS_DEFAULT_REGION: region,
  };
}

/** One timed init: the whole process's wall time, and the `import()` of the handler module inside it. */
export interface InitSample {
  readonly wallMs: number;
  readonly importMs: number;
}

/** What the bootstrap reports for an error: the phase it happened in and the runtime's error fields. */
export interface BundleError {
  readonly phase: 'init' | 'invoke';
  readonly errorType: string;
  readonly errorMessage: string;
  readonly stack: string;
}

/** The bootstrap's answer. */
interface BootstrapAnswer {
  readonly importMs?: number;
  readonly result?: unknown;
  readonly error?: BundleError;
}

function parseAnswer(text: string, stderr: string): BootstrapAnswer {
  if (text === '') throw new Error(`the bootstrap gave no answer: ${stderr.trim().slice(0, 1000)}`);
  return JSON.parse(text) as BootstrapAnswer;
}

/** A fresh process that only imports the bundle in `taskFolder`, as the runtime's init does; timed from spawn to exit. */
export function timeInit(taskFolder: string, environment: Readonly<Record<string, string>>): InitSample {
  const started = performance.now();
  const run = spawnSync(process.execPath, [BOOTSTRAP, 'init', taskFolder, HANDLER], { env: environment, stdio: STDIO, timeout: DEFAULT_TIMEOUT_MS, encoding: 'utf8' });
  const wallMs = performance.now() - started;
  const answer = parseAnswer(String(run.output[3] ?? ''), String(run.stderr ?? ''));
  if (answer.error || answer.importMs === undefined) throw new Error(`init of ${taskFolder} failed: ${answer.error?.errorType}: ${answer.error?.errorMessage}`);
  return { wallMs, importMs: answer.importMs };
}

/** Wall time of a bare `node -e ''` with `environment`: the baseline of every init. */
export function timeBareNode(environment: Readonly<Record<string, string>>): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, ['-e', ''], { env: environment, stdio: 'ignore', timeout: DEFAULT_TIMEOUT_MS });
  const wallMs = performance.now() - started;
  if (run.status !== 0) throw new Error(`bare node failed (${run.signal ?? run.status})`);
  return wallMs;
}

/** One invocation of a bundle: the handler's result or the error, with everything the function logged. */
export interface BundleInvocation {
  readonly result?: unknown;
  readonly error?: BundleError;
  readonly stdout: string;
  readonly stderr: string;
}

/** What {@link invokeBundle} hands the handler. */
export interface InvocationInput {
  readonly event: unknown;
  /** The context's data fields (a function cannot cross the process boundary) and its deadline. */
  readonly context: Readonly<Record<string, unknown>> & { readonly deadlineMs: number };
}

/**
 * Load the bundle in `taskFolder` in a fresh process and call its handler once with `input`. A
 * process that does not answer within `timeoutMs` is killed and reported as an error.
 */
export function invokeBundle(taskFolder: string, environment: Readonly<Record<string, string>>, input: InvocationInput, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<BundleInvocation> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BOOTSTRAP, 'invoke', taskFolder, HANDLER], { env: environment, stdio: STDIO });
    const streams = { stdout: '', stderr: '', answer: '' };
    child.stdout?.on('data', (chunk: Buffer) => (streams.stdout += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (streams.stderr += chunk.toString('utf8')));
    child.stdio[3]?.on('data', (chunk: Buffer) => (streams.answer += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal !== null) return reject(new Error(`the function process was killed (${signal}) after ${timeoutMs} ms; logs:\n${streams.stdout}${streams.stderr}`));
      try {
        const answer = parseAnswer(streams.answer, `exit ${code}: ${streams.stderr}`);
        resolve({ ...(answer.error ? { error: answer.error } : { result: answer.result }), stdout: streams.stdout, stderr: streams.stderr });
      } catch (error) {
        reject(error);
      }
    });
    child.stdin?.end(JSON.stringify(input));
  });
}
