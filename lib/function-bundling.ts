import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { SETTINGS_DEFAULTS } from './stack-settings';

/**
 * How every function is bundled, in one place: the stack's NodejsFunction bundling, the benchmarks
 * and the test that runs the bundles all read these settings, so what is measured and tested is
 * what deploys. Pure data and one options builder (no CDK imports) so the benchmark stays light.
 */

/** The project root: entry paths in the route table are relative to it. */
export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Node.js major version of the Lambda runtime; the bundle targets the same version. */
export const NODE_MAJOR_VERSION = 24;

/** Modules installed next to the bundle instead of bundled: native code that esbuild cannot inline. */
export const IMAGE_NODE_MODULES = ['sharp'] as const;

/** The AWS SDK v3, which the Lambda Node.js runtime provides. */
export const RUNTIME_SDK_MODULES = ['@aws-sdk/*'] as const;

/** Where a bundle's AWS SDK v3 comes from. */
export const SDK_SOURCES = {
  /** Left out of the bundle: the copy the Lambda runtime provides is loaded at init. */
  runtime: 'runtime',
  /** Bundled with the function's code: only the clients and commands it uses, tree-shaken and minified. */
  bundled: 'bundled',
} as const;

/** One of {@link SDK_SOURCES}. */
export type SdkSource = (typeof SDK_SOURCES)[keyof typeof SDK_SOURCES];

/**
 * The SDK source of the deployed bundles, chosen by `npm run bench -- --only cold-start`, which
 * times both. Bundling the SDK takes about 60 % off the init of every function that uses it (one
 * run on a busy 2-core machine: 160–220 ms over a bare node start instead of 420–510 ms): the
 * runtime's copy is the packages' whole CommonJS builds (about 900 KB in some 30 files for DynamoDB
 * alone), the bundled SDK only the code the function reaches, minified. The price is 420–590 KB
 * bundles instead of 60–120 KB, well over the 150 KB size budget; that budget stands for init time,
 * which is measured directly, and the bigger zip costs milliseconds to download. Bundling also
 * pins the SDK version the tests ran: the runtime's copy is no published version and changes by
 * region and over time (https://github.com/aws/aws-sdk-js-v3/issues/6159). AWS recommends it for
 * cold starts (https://aws.amazon.com/blogs/developer/reduce-lambda-cold-start-times-migrate-to-aws-sdk-for-javascript-v3/,
 * https://github.com/aws/aws-cdk/issues/25492).
 */
export const DEPLOYED_SDK_SOURCE: SdkSource = SDK_SOURCES.bundled;

/**
 * ESM bundles have no `require`; some CommonJS dependencies call it for Node built-ins. The alias
 * avoids clashing with a bundled module that imports `createRequire` itself.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as topLevelCreateRequire } from 'node:module'; const require = topLevelCreateRequire(import.meta.url);";

/** The platform npm installs native modules for: Lambda's arm64 Linux, whatever machine synthesizes. */
export const NATIVE_MODULE_PLATFORM = { os: 'linux', cpu: 'arm64', libc: 'glibc' } as const;

/** esbuild settings shared by the stack and the benchmark. */
export const BUNDLE_SETTINGS = {
  target: `node${NODE_MAJOR_VERSION}`,
  format: 'esm',
  minify: true,
  sourcemap: true,
  // Stack traces need the mappings only; the sources would double the artifact.
  sourcesContent: false,
  // Prefer ES module entry points: they tree-shake, CommonJS ones do not.
  mainFields: ['module', 'main'],
  banner: ESM_REQUIRE_BANNER,
  outputFile: 'index.mjs',
} as const;

/** Modules the SDK source leaves to the Lambda runtime. */
export function sdkExternalModules(sdk: SdkSource = DEPLOYED_SDK_SOURCE): string[] {
  return sdk === SDK_SOURCES.runtime ? [...RUNTIME_SDK_MODULES] : [];
}

/** Modules that stay out of a function's bundle: the SDK when the runtime provides it, sharp for image functions. */
export function externalModules(image: boolean, sdk: SdkSource = DEPLOYED_SDK_SOURCE): string[] {
  return [...sdkExternalModules(sdk), ...(image ? IMAGE_NODE_MODULES : [])];
}

/** The lock file: image routes install their native modules from it, at the pinned versions. */
export const LOCK_FILE = join(PROJECT_ROOT, 'package-lock.json');

/** Absolute path of a handler module named in the route table. */
export function entryPath(handlerModule: string): string {
  return join(PROJECT_ROOT, handlerModule);
}

/**
 * The file the getOpenApi bundle ships beside `index.mjs`: the OpenAPI document, built when the
 * function is bundled (lib/bundled-files.ts) and read at its cold start.
 */
export const OPENAPI_DOCUMENT_FILE = 'openapi.json';

/**
 * Compile-time values of a bundle: whether it traces (the stack's `tracing` setting), so that a
 * bundle without tracing leaves the X-Ray SDK out (functions/shared/observability/tracing.ts), and
 * where the OpenAPI document lies beside it, so that getOpenApi leaves out the code that builds it
 * (functions/openapi/get-openapi.ts; no other function reads the name). The function's environment
 * carries the same tracing value.
 */
export function bundleDefines(tracing: boolean): Record<string, string> {
  return { ...tracingDefines(tracing), 'process.env.OPENAPI_DOCUMENT_FILE': JSON.stringify(OPENAPI_DOCUMENT_FILE) };
}

/** The compile-time tracing value of {@link bundleDefines} alone, for a build that changes only it. */
export function tracingDefines(tracing: boolean): Record<string, string> {
  return { [`process.env.${TRACING_ENV}`]: JSON.stringify(String(tracing)) };
}

/**
 * The package.json condition under which `#idempotency-layer` (the `imports` of package.json) is
 * the module without the idempotency layer (functions/shared/idempotency/without-idempotency-key.ts).
 */
export const WITHOUT_IDEMPOTENCY_KEY_CONDITION = 'frontend-api-without-idempotency-key';

/**
 * The package.json conditions a function's bundle resolves with. A function that is not the route
 * of an `Idempotency-Key` resolves `#idempotency-layer` to the module without the layer: a static
 * import of Powertools Idempotency would keep its JMESPath engine (module-level decorator calls,
 * about 23 KB) in every bundle that merely imports it, and a dynamic `import()` would keep whole AWS
 * SDK clients in the keyed ones (esbuild cannot shake a module it must load on demand: measured,
 * 50–80 KB more). `module` is esbuild's own default, which it applies only while no condition is
 * set (https://esbuild.github.io/api/#conditions): named again, the other packages resolve as before.
 */
export function bundleConditions(fn: Pick<BundledFunction, 'idempotencyKey'>): string[] {
  return fn.idempotencyKey === true ? ['module'] : ['module', WITHOUT_IDEMPOTENCY_KEY_CONDITION];
}

/** The Powertools variable that switches tracing, in a function's environment and in its bundle. */
export const TRACING_ENV = 'POWERTOOLS_TRACE_ENABLED';

/** Whether a function with `environment` traces: the stack writes {@link TRACING_ENV} into every function's. */
export function tracesWith(environment: Readonly<Record<string, string>>): boolean {
  return environment[TRACING_ENV] === 'true';
}

/** What the bundling of one function depends on. */
export interface BundledFunction {
  /** Module (from the project root) whose named export `handler` is the function. */
  readonly handler: string;
  /** Whether it ships sharp beside the bundle. */
  readonly image: boolean;
  /** Whether it is the function of a route that takes an `Idempotency-Key` (RouteOperation.idempotencyKey). */
  readonly idempotencyKey?: boolean;
}

/**
 * The esbuild options of a function's bundle, written to `outfile`: the settings the stack's
 * NodejsFunction passes to esbuild, for the benchmarks and the test that run bundles outside CDK.
 */
export function esbuildOptions(fn: BundledFunction, outfile: string, sdk: SdkSource = DEPLOYED_SDK_SOURCE, tracing: boolean = SETTINGS_DEFAULTS.tracing): BuildOptions {
  return {
    entryPoints: [entryPath(fn.handler)],
    absWorkingDir: PROJECT_ROOT,
    bundle: true,
    platform: 'node',
    target: BUNDLE_SETTINGS.target,
    format: BUNDLE_SETTINGS.format,
    minify: BUNDLE_SETTINGS.minify,
    sourcemap: BUNDLE_SETTINGS.sourcemap,
    sourcesContent: BUNDLE_SETTINGS.sourcesContent,
    mainFields: [...BUNDLE_SETTINGS.mainFields],
    banner: { js: BUNDLE_SETTINGS.banner },
    define: bundleDefines(tracing),
    conditions: bundleConditions(fn),
    external: externalModules(fn.image, sdk),
    outfile,
    logLevel: 'silent',
  };
}
