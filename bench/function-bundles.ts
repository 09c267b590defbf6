/**
 * The deployed functions and their esbuild options, bundled exactly as the stack bundles them (the
 * settings come from lib/function-bundling.ts): one place for the benches that build bundles.
 */
import type { BuildOptions } from 'esbuild';
import { backgroundFunctions } from '../functions/background-functions';
import { authorizerFunction, routes } from '../functions/routes';
import { BUNDLE_SETTINGS, entryPath, externalModules, PROJECT_ROOT } from '../lib/function-bundling';

/** One deployed function: a route, the authorizer or a background function. */
export interface DeployedFunction {
  readonly name: string;
  readonly handler: string;
  /** Whether it ships sharp. */
  readonly image: boolean;
}

/** Every function the stack deploys. */
export function deployedFunctions(): DeployedFunction[] {
  return [
    ...routes.map((route) => ({ name: route.name, handler: route.handler, image: route.image === true })),
    { name: authorizerFunction.name, handler: authorizerFunction.handler, image: false },
    ...backgroundFunctions.map((definition) => ({ name: definition.name, handler: definition.handler, image: false })),
  ];
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
