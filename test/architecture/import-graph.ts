import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's import structure, read from the sources: which module imports which, grouped into
 * areas (a feature of functions/, functions/shared, the route table, lib/, local/, bin/, bench/).
 * The layering rules of STYLE.md are checked on it by layering.test.ts, and
 * `npm run --silent imports` prints it.
 */

/** The repository root. */
export const REPOSITORY_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Source folders whose modules make up the graph (tests are left out: they may import anything). */
const SOURCE_FOLDERS = ['functions', 'lib', 'local', 'bin', 'bench'] as const;

/** One import of one module by another, as paths relative to the repository root. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
}

// Static imports and re-exports (`import … from '…'`, `export … from '…'`, `import '…'`) and
// dynamic imports with a literal specifier. Type-only imports count: they tie the code as well.
const SPECIFIERS = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * Where a package.json `imports` specifier (`#name`) leads from source, as Node, tsx and jest
 * resolve it: its `default` target (a bundle may resolve another under its conditions).
 */
function subpathImportTarget(root: string, specifier: string): string | null {
  const { imports = {} } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { imports?: Record<string, string | Record<string, string>> };
  const target = imports[specifier];
  const path = typeof target === 'string' ? target : target?.default;
  return path === undefined ? null : join(root, path);
}

function resolveRelative(fromFile: string, specifier: string, root: string): string | null {
  if (specifier.startsWith('#')) return subpathImportTarget(root, specifier);
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not this candidate; try the next.
    }
  }
  return null;
}

/** Every import between the project's own modules (of `folders`: the source folders unless told, tests left out of them). */
export function importEdges(root: string = REPOSITORY_ROOT, folders: readonly string[] = SOURCE_FOLDERS): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const folder of folders) {
    for (const file of sourceFiles(join(root, folder))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(SPECIFIERS)) {
        const target = resolveRelative(file, (match[1] ?? match[2] ?? match[3]) as string, root);
        if (target !== null) edges.push({ from: relative(root, file), to: relative(root, target) });
      }
    }
  }
  return edges;
}

/**
 * The area of a module: `functions/shared`, a feature such as `functions/users`, `functions/*` for
 * the route table and the function lists at the top of functions/, or a top folder (`lib`, `local/gateway`, …).
 */
export function areaOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] === 'functions') return parts.length === 2 ? 'functions/*' : `functions/${parts[1]}`;
  if (parts[0] === 'local' && parts.length > 2) return `local/${parts[1]}`;
  return parts[0] as string;
}

/** Imports between areas, counted: `from area -> to area`. */
export function areaEdges(edges: readonly ImportEdge[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { from, to } of edges) {
    const key = `${areaOf(from)} -> ${areaOf(to)}`;
    if (areaOf(from) !== areaOf(to)) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return new Map([...counts].sort(([a], [b]) => a.localeCompare(b)));
}
