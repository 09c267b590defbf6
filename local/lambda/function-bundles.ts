/**
 * The deployed functions and their bundles, built with the stack's esbuild options
 * (lib/function-bundling.ts): one place for the benches and the test that build bundles.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { deployedFunctions as deployedFunctionList } from '../../functions/deployed-functions';
import type { DeployedFunction } from '../../functions/shared/deployment/function-definitions';
import { bundledFiles } from '../../lib/bundled-files';
import { BUNDLE_SETTINGS, DEPLOYED_SDK_SOURCE, esbuildOptions, type SdkSource } from '../../lib/function-bundling';

/** One output of an esbuild build, from its metafile. */
export type BundleOutput = Metafile['outputs'][string];

/** The bundle itself among a build's outputs (its source map is the other one). */
export function bundleOutput(metafile: Metafile): BundleOutput {
  const output = Object.entries(metafile.outputs).find(([path]) => path.endsWith(BUNDLE_SETTINGS.outputFile))?.[1];
  if (!output) throw new Error(`the build has no ${BUNDLE_SETTINGS.outputFile} output`);
  return output;
}


export type { DeployedFunction };

/** Every function the stack deploys. */
export function deployedFunctions(): DeployedFunction[] {
  return [...deployedFunctionList];
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
  /** esbuild's account of the build: what it followed and what each input put in the bundle. */
  readonly metafile: Metafile;
}

/** A change to the stack's options, for a test that needs a deliberately broken bundle. */
export type OptionsChange = (options: BuildOptions) => BuildOptions;

/** The path of the bundle in `folder`. */
export function bundleFile(folder: string): string {
  return join(folder, BUNDLE_SETTINGS.outputFile);
}

/** Build with `options` (whose outfile is {@link bundleFile} of `folder`) and describe what was written. */
export async function writeBuild(options: BuildOptions, folder: string): Promise<WrittenBundle> {
  await mkdir(folder, { recursive: true });
  const file = bundleFile(folder);
  const { metafile } = await build({ ...options, metafile: true });
  const imports = [...new Set(bundleOutput(metafile).imports.filter((entry) => entry.external && !entry.path.startsWith('node:')).map((entry) => entry.path))].sort();
  return { folder, file, bytes: (await stat(file)).size, imports, metafile };
}

/**
 * Bundle `fn` into `folder` with the stack's options for SDK source `sdk`, changed by `adjust`,
 * with the files the stack ships beside it (lib/bundled-files.ts).
 */
export async function writeBundle(fn: DeployedFunction, folder: string, sdk: SdkSource, adjust: OptionsChange = (options) => options): Promise<WrittenBundle> {
  const written = await writeBuild(adjust(esbuildOptions(fn, bundleFile(folder), sdk)), folder);
  await Promise.all(Object.entries(bundledFiles(fn.handler)).map(([name, content]) => writeFile(join(folder, name), content)));
  return written;
}
