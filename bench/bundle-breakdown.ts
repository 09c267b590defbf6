/**
 * What a bundle holds above its floor, by group: each package the product code imports (with the
 * packages only it pulls in: the tracer with aws-xray-sdk-core and its dependencies), packages two
 * of those share, our own code, and esbuild's glue; each group's bytes in the bundle, in the floor,
 * and the difference. Read from the metafiles of both builds (bench/bundle-composition.ts).
 */
import type { Metafile } from 'esbuild';
import { bundleOutput, bytesByPart, glueBytes, isProductFile, packageOf, partOf } from './bundle-composition';

/** The group of the AWS SDK's packages. */
export const SDK_GROUP = 'AWS SDK';

/** Packages shown as one family: the SDK's own packages, and middy's core and middlewares. */
const FAMILIES: readonly (readonly [RegExp, string])[] = [
  [/^@(aws-sdk|smithy)\//, SDK_GROUP],
  [/^@middy\//, 'middy'],
];

/** The group of the code under functions/. */
export const PRODUCT_GROUP = 'functions/';

/** The group of the bytes no input accounts for. */
export const GLUE_GROUP = 'esbuild glue';

/** The group of packages the floor holds and the bundle does not. */
export const FLOOR_ONLY_GROUP = 'in the floor only';

function familyOf(pkg: string): string {
  return FAMILIES.find(([pattern]) => pattern.test(pkg))?.[1] ?? pkg;
}

/** Package-to-package imports, and the packages the project's own files import (the roots). */
function packageGraph(metafile: Metafile): { readonly roots: ReadonlySet<string>; readonly edges: ReadonlyMap<string, ReadonlySet<string>> } {
  const roots = new Set<string>();
  const edges = new Map<string, Set<string>>();
  for (const [path, input] of Object.entries(metafile.inputs)) {
    const from = packageOf(path);
    for (const record of input.imports) {
      const to = record.external ? undefined : packageOf(record.path);
      if (to === undefined || to === from) continue;
      if (from === undefined) roots.add(to);
      else edges.set(from, (edges.get(from) ?? new Set<string>()).add(to));
    }
  }
  return { roots, edges };
}

/** The families of the roots from which each package is reached. */
function ownersOf(graph: ReturnType<typeof packageGraph>): Map<string, Set<string>> {
  const owners = new Map<string, Set<string>>();
  for (const root of graph.roots) {
    const seen = new Set([root]);
    for (const pkg of seen) for (const next of graph.edges.get(pkg) ?? []) seen.add(next);
    for (const pkg of seen) owners.set(pkg, (owners.get(pkg) ?? new Set<string>()).add(familyOf(root)));
  }
  return owners;
}

/**
 * The group of every part of a bundle ({@link partOf}): a package the project imports is its own
 * (family's) group; a package reached only through one of those joins it; one reached through
 * several is `shared: …` by them.
 */
export function partGroups(metafile: Metafile): Map<string, string> {
  const graph = packageGraph(metafile);
  const owners = ownersOf(graph);
  const groups = new Map<string, string>();
  for (const path of Object.keys(metafile.inputs)) {
    const part = partOf(path);
    const pkg = packageOf(path);
    if (pkg === undefined) groups.set(part, isProductFile(path) ? PRODUCT_GROUP : part);
    else if (graph.roots.has(pkg)) groups.set(part, familyOf(pkg));
    else {
      const families = [...(owners.get(pkg) ?? [])].sort();
      groups.set(part, families.length === 1 ? (families[0] as string) : families.length > 1 ? `shared: ${families.join(', ')}` : pkg);
    }
  }
  return groups;
}

/** One part of a group: bytes in the bundle and in the floor. */
export interface BreakdownPart {
  readonly part: string;
  readonly bytes: number;
  readonly floorBytes: number;
}

/** One group of a bundle, against the floor. */
export interface BreakdownGroup {
  readonly group: string;
  /** Its parts, the most bytes above the floor first. */
  readonly parts: readonly BreakdownPart[];
  readonly bytes: number;
  readonly floorBytes: number;
  /** Bytes minus floor bytes: what this group adds to the bundle over the floor. */
  readonly aboveFloor: number;
}

/** The groups of `bundle` against `floor`, the most bytes above the floor first; their `aboveFloor` add up to the bundle minus the floor. */
export function breakdownAboveFloor(bundle: Metafile, floor: Metafile): BreakdownGroup[] {
  const [bundleOut, floorOut] = [bundleOutput(bundle), bundleOutput(floor)];
  const [bundleParts, floorParts] = [bytesByPart(bundleOut), bytesByPart(floorOut)];
  const groupOf = partGroups(bundle);
  const parts = new Map<string, BreakdownPart[]>();
  const add = (group: string, part: BreakdownPart) => parts.set(group, [...(parts.get(group) ?? []), part]);
  for (const [part, bytes] of bundleParts) add(groupOf.get(part) ?? part, { part, bytes, floorBytes: floorParts.get(part) ?? 0 });
  for (const [part, floorBytes] of floorParts) if (!bundleParts.has(part)) add(FLOOR_ONLY_GROUP, { part, bytes: 0, floorBytes });
  add(GLUE_GROUP, { part: 'glue', bytes: glueBytes(bundleOut), floorBytes: glueBytes(floorOut) });
  const above = (part: BreakdownPart) => part.bytes - part.floorBytes;
  return [...parts]
    .map(([group, members]) => {
      const sorted = [...members].sort((a, b) => above(b) - above(a));
      const sum = (bytesOf: (part: BreakdownPart) => number) => sorted.reduce((total, part) => total + bytesOf(part), 0);
      return { group, parts: sorted, bytes: sum((part) => part.bytes), floorBytes: sum((part) => part.floorBytes), aboveFloor: sum(above) };
    })
    .sort((a, b) => b.aboveFloor - a.aboveFloor);
}
