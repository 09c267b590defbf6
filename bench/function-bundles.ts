/**
 * The deployed functions and their bundles, built with the stack's esbuild options
 * (lib/function-bundling.ts): one place for the benches and the test that build bundles.
 */
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { backgroundFunctions } from '../functions/background-functions';
import { authorizerFunction, routes } from '../functions/routes';
import { BUNDLE_SETTINGS, DEPLOYED_SDK_SOURCE, esbuildOptions, type SdkSource } from '../lib/function-bundling';

/** One deployed function: a route, the authorizer or a background function. */
export interface DeployedFunction {
  readonly name: string;
  readonly handler: string;
  /** Whether it ships sharp. */
  readonly image: boolean;
  /** What invokes it, which decides the event it takes. */
  readonly kind: 'route' | 'authorizer' | 'scheduled';
}

/** Every function the stack deploys. */
export function deployedFunctions(): DeployedFunction[] {
  return [
    ...routes.map((route) => ({ name: route.name, handler: route.handler, image: route.image === true, kind: 'route' as const })),
    { name: authorizerFunction.name, handler: authorizerFunction.handler, image: false, kind: 'authorizer' },
    ...backgroundFunctions.map((definition) => ({ name: definition.name, handler: definition.handler, image: false, kind: 'scheduled' as const })),
  ];
}

/** The esbuild options of a function's bundle, written to `outfile`, with the deployed SDK source. */
export function bundleOptions(fn: DeployedFunction, outfile: string): BuildOptions {
  return esbuildOptions(fn, outfile, DEPLOYED_SDK_SOURCE);
}

/** A bundle written to disk, as the stack uploads it. */
export interface WrittenBundle {
  /** The folder holding it: the function's `/var/task`. */
  readonly folder: string;
  /** `index.mjs` in that folder (its source map beside it). */
  readonly file: string;
  /** Size of `index.mjs`, without its source map. */
  readonly bytes: number;
  /** Packages the bundle imports at init instead of carrying them (`node:` built-ins left out). */
  readonly imports: readonly string[];
}

/** A change to the stack's options, for a test that needs a deliberately broken bundle. */
export type OptionsChange = (options: BuildOptions) => BuildOptions;

/** Bundle `fn` into `folder` with the stack's options for SDK source `sdk`, changed by `adjust`. */
export async function writeBundle(fn: DeployedFunction, folder: string, sdk: SdkSource, adjust: OptionsChange = (options) => options): Promise<WrittenBundle> {
  await mkdir(folder, { recursive: true });
  const file = join(folder, BUNDLE_SETTINGS.outputFile);
  const { metafile } = await build({ ...adjust(esbuildOptions(fn, file, sdk)), metafile: true });
  const output = Object.entries(metafile.outputs).find(([path]) => path.endsWith(BUNDLE_SETTINGS.outputFile))?.[1];
  const imports = [...new Set((output?.imports ?? []).filter((entry) => entry.external && !entry.path.startsWith('node:')).map((entry) => entry.path))].sort();
  return { folder, file, bytes: (await stat(file)).size, imports };
}
