/**
 * Bundle size of every function, bundled exactly as the stack bundles it (the settings come from
 * lib/function-bundling.ts). Cold start grows with the bundle: routes without sharp should stay
 * within 300 KB minified. Run alone with `npx tsx bench/bundle-size.ts`, or through `npm run bench`.
 */
import { build } from 'esbuild';
import { pathToFileURL } from 'node:url';
import { BUNDLE_SETTINGS } from '../lib/function-bundling';
import { bundleOptions, deployedFunctions, type DeployedFunction } from './function-bundles';

/** Largest minified bundle, in KB, for a function that does not ship sharp. */
export const BUNDLE_BUDGET_KB = 300;

/** The measured bundle of one function. */
export interface BundleSizeResult {
  /** Route name, `authorizer`, or a background function's name. */
  readonly name: string;
  /** Whether the function ships sharp (and is exempt from the budget). */
  readonly image: boolean;
  /** Minified `index.mjs`, without its source map, in KB (1024 bytes). */
  readonly sizeKb: number;
  /** Whether it meets {@link BUNDLE_BUDGET_KB}; always true for image routes. */
  readonly withinBudget: boolean;
}

async function bundledSize(fn: DeployedFunction): Promise<number> {
  const result = await build({ ...bundleOptions(fn, `/bundle/${BUNDLE_SETTINGS.outputFile}`), write: false });
  const bundle = result.outputFiles.find((file) => file.path.endsWith(BUNDLE_SETTINGS.outputFile));
  if (!bundle) throw new Error(`esbuild produced no ${BUNDLE_SETTINGS.outputFile} for ${fn.name}.`);
  return bundle.contents.byteLength;
}

/** Bundles every route's handler, the authorizer and the background functions and reports their sizes against the budget. */
export async function benchBundleSizes(): Promise<BundleSizeResult[]> {
  const functions = deployedFunctions();
  const results: BundleSizeResult[] = [];
  for (const fn of functions) {
    const sizeKb = Math.round(((await bundledSize(fn)) / 1024) * 10) / 10;
    results.push({ name: fn.name, image: fn.image, sizeKb, withinBudget: fn.image || sizeKb <= BUNDLE_BUDGET_KB });
  }
  return results;
}

/** One line per function: name, size, and the verdict. */
export function formatBundleSizes(results: readonly BundleSizeResult[]): string {
  const width = Math.max(...results.map((result) => result.name.length));
  return results
    .map((result) => {
      const verdict = result.image ? 'image route (ships sharp, no budget)' : result.withinBudget ? `ok (≤ ${BUNDLE_BUDGET_KB} KB)` : `OVER ${BUNDLE_BUDGET_KB} KB`;
      return `${result.name.padEnd(width)}  ${result.sizeKb.toFixed(1).padStart(8)} KB  ${verdict}`;
    })
    .join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await benchBundleSizes();
  console.log(formatBundleSizes(results));
  process.exitCode = results.every((result) => result.withinBudget) ? 0 : 1;
}
