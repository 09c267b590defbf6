/**
 * The deployed functions and their esbuild options, bundled exactly as the stack bundles them (the
 * settings come from lib/function-bundling.ts): one place for the benches that build bundles.
 */
import type { BuildOptions } from 'esbuild';
import { deployedFunctions as deployedFunctionList } from '../functions/deployed-functions';
import type { DeployedFunction } from '../functions/shared/deployment/function-definitions';
import { BUNDLE_SETTINGS, entryPath, externalModules, PROJECT_ROOT } from '../lib/function-bundling';

export type { DeployedFunction };

/** Every function the stack deploys. */
export function deployedFunctions(): DeployedFunction[] {
  return [...deployedFunctionList];
}

/** The esbuild options of a function's bundle, written to `outfile`. */
export function bundleOptions(fn: DeployedFunction, outfile: string): BuildOptions {
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
    external: externalModules(fn.image),
    outfile,
    logLevel: 'silent',
  };
}
