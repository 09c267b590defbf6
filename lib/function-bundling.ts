import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * How every function is bundled, in one place: the stack's NodejsFunction bundling and the
 * bundle-size benchmark both read these settings, so the measured bundle is the deployed one.
 * Pure data (no CDK imports) so the benchmark stays light.
 */

/** The project root: entry paths in the route table are relative to it. */
export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Node.js major version of the Lambda runtime; the bundle targets the same version. */
export const NODE_MAJOR_VERSION = 24;

/** Modules installed next to the bundle instead of bundled: native code that esbuild cannot inline. */
export const IMAGE_NODE_MODULES = ['sharp'] as const;

/** Modules left out of every bundle: the Lambda Node.js runtime provides the AWS SDK v3. */
export const EXTERNAL_MODULES = ['@aws-sdk/*'] as const;

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

/** Modules that stay out of a route's bundle: the SDK always, sharp for image routes. */
export function externalModules(image: boolean): string[] {
  return [...EXTERNAL_MODULES, ...(image ? IMAGE_NODE_MODULES : [])];
}

/** The lock file: image routes install their native modules from it, at the pinned versions. */
export const LOCK_FILE = join(PROJECT_ROOT, 'package-lock.json');

/** Absolute path of a handler module named in the route table. */
export function entryPath(handlerModule: string): string {
  return join(PROJECT_ROOT, handlerModule);
}
