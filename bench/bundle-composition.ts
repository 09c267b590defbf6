/**
 * What a bundle is made of, read from esbuild's metafile: the product code it holds (its import
 * closure under functions/), the AWS SDK clients that code uses, and its bytes by part (a package,
 * or an area of functions/). The bundles and cold-start benches build each function's floor from
 * these clients and break the rest down, so nothing here is a hand-kept list of what a function uses.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { PROJECT_ROOT } from '../lib/function-bundling';
import { bundleOutput, type BundleOutput } from '../local/lambda/function-bundles';

export { bundleOutput, type BundleOutput };

/** The product code, as the metafile names it (paths relative to the project root). */
export const PRODUCT_FOLDER = 'functions/';

/** The document client: a wrapper of the DynamoDB client, counted as a client of its own. */
export const DOCUMENT_CLIENT_PACKAGE = '@aws-sdk/lib-dynamodb';

/** SDK packages that create a client (helpers such as presigners are extras above the floor). */
const CLIENT_PACKAGE = /^@aws-sdk\/client-/;

/** One output of a metafile: the bytes each input contributed to it. */
/** The package an input path belongs to (its innermost `node_modules` folder), or undefined for the project's own files. */
export function packageOf(path: string): string | undefined {
  const marker = 'node_modules/';
  const index = path.lastIndexOf(marker);
  return index < 0 ? undefined : packageName(path.slice(index + marker.length));
}

/** Whether an input is product code. */
export function isProductFile(path: string): boolean {
  return path.startsWith(PRODUCT_FOLDER);
}

/**
 * The part of a bundle an input counts towards: its package, its area of functions/
 * (`functions/media-log`; a file directly in functions/ stands for itself), or its own path.
 */
export function partOf(path: string): string {
  const pkg = packageOf(path);
  if (pkg !== undefined) return pkg;
  if (!isProductFile(path)) return path;
  const [root, area, rest] = path.split('/');
  return rest === undefined ? path : `${root}/${area}`;
}

/** The product code of a bundle. */
export interface ProductClosure {
  /** Files under functions/ with code in the bundle. */
  readonly files: number;
  /** Their lines, as written. */
  readonly lines: number;
  /** Files under functions/ that esbuild followed an import to but dropped whole (tree-shaken). */
  readonly shaken: number;
}

/** Lines of a project file. */
export function projectFileLines(path: string): number {
  const text = readFileSync(join(PROJECT_ROOT, path), 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** The product files of a bundle and their lines; `countLines` reads a file (the project's, by default). */
export function productClosure(metafile: Metafile, countLines: (path: string) => number = projectFileLines): ProductClosure {
  const output = bundleOutput(metafile);
  const followed = Object.keys(metafile.inputs).filter(isProductFile);
  const included = followed.filter((path) => (output.inputs[path]?.bytesInOutput ?? 0) > 0);
  return { files: included.length, lines: included.reduce((sum, path) => sum + countLines(path), 0), shaken: followed.length - included.length };
}

/**
 * The AWS SDK clients a bundle uses: the `@aws-sdk/client-*` packages (and the document client)
 * that product code imports and that kept code in the bundle. An import whose every use was shaken
 * away (a shared module importing a client the function never creates) does not count.
 */
export function sdkClientsUsed(metafile: Metafile): string[] {
  const output = bundleOutput(metafile);
  const bytes = bytesByPart(output);
  // With the SDK left to the runtime, its packages are external imports that survive in the output.
  const keptExternal = new Set(output.imports.filter((record) => record.external).map((record) => packageName(record.path)));
  const imported = Object.entries(metafile.inputs)
    .filter(([path]) => isProductFile(path) && (output.inputs[path]?.bytesInOutput ?? 0) > 0)
    .flatMap(([, input]) => input.imports.map((record) => (record.external ? packageName(record.path) : packageOf(record.path))));
  return [...new Set(imported)]
    .filter((pkg): pkg is string => pkg !== undefined && (CLIENT_PACKAGE.test(pkg) || pkg === DOCUMENT_CLIENT_PACKAGE) && ((bytes.get(pkg) ?? 0) > 0 || keptExternal.has(pkg)))
    .sort();
}

/** The package of an import specifier (`@aws-sdk/lib-dynamodb/…` → `@aws-sdk/lib-dynamodb`). */
function packageName(specifier: string): string {
  const [first, second] = specifier.split('/');
  return first?.startsWith('@') ? `${first}/${second}` : (first as string);
}

/** Bytes of a bundle by {@link partOf}. */
export function bytesByPart(output: BundleOutput): Map<string, number> {
  const parts = new Map<string, number>();
  for (const [path, input] of Object.entries(output.inputs)) {
    if (input.bytesInOutput > 0) parts.set(partOf(path), (parts.get(partOf(path)) ?? 0) + input.bytesInOutput);
  }
  return parts;
}

/** Bytes of a bundle that come from no input: esbuild's module wrappers, the banner, the source map comment. */
export function glueBytes(output: BundleOutput): number {
  return output.bytes - Object.values(output.inputs).reduce((sum, input) => sum + input.bytesInOutput, 0);
}
