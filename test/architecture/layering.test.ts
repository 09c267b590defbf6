import { areaOf, importEdges } from './import-graph';

/**
 * The layering of STYLE.md, checked on the real imports: functions/ never imports the stack or the
 * local tools, functions/shared knows no feature and no route table, and no two features import
 * each other both ways. `npm run --silent imports` prints the graph these rules are checked on.
 */

const edges = importEdges();

/**
 * The files that import each other round a cycle, one list per cycle (Tarjan's strongly connected
 * components): a cycle makes load order matter and two modules one.
 */
function importCycles(graph: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of graph) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file) as number, low.get(to) as number));
      } else if (stack.includes(to)) low.set(file, Math.min(low.get(file) as number, index.get(to) as number));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      component.push(member);
    } while (member !== file);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of next.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

const FEATURES = new Set(['functions/users', 'functions/avatars', 'functions/media-log', 'functions/auth', 'functions/openapi']);

function violations(rule: (from: string, to: string) => boolean): string[] {
  return edges.filter(({ from, to }) => rule(areaOf(from), areaOf(to))).map(({ from, to }) => `${from} -> ${to}`);
}

describe('the import structure', () => {
  it('reads a graph of the project', () => {
    expect(edges.length).toBeGreaterThan(300);
  });

  it('has functions/ import nothing from lib/, local/, bin/ or bench/', () => {
    expect(violations((from, to) => from.startsWith('functions') && !to.startsWith('functions'))).toEqual([]);
  });

  it('has functions/shared import no feature and no route table', () => {
    expect(violations((from, to) => from === 'functions/shared' && to !== 'functions/shared')).toEqual([]);
  });

  it('has no two features import each other', () => {
    const pairs = new Set(edges.map(({ from, to }) => `${areaOf(from)} -> ${areaOf(to)}`));
    const both = [...pairs].filter((pair) => {
      const [from, to] = pair.split(' -> ') as [string, string];
      return from !== to && FEATURES.has(from) && FEATURES.has(to) && pairs.has(`${to} -> ${from}`);
    });
    expect(both).toEqual([]);
  });

  it('has the media log read users through the users table code of functions/shared, not the users feature', () => {
    expect(violations((from, to) => from === 'functions/media-log' && to === 'functions/users')).toEqual([]);
  });

  it('has no import cycle between files', () => {
    expect(importCycles(edges)).toEqual([]);
  });

  it('has the benchmarks and the tests apart: no import from bench/ into test/ or from test/ into bench/, their own tests included', () => {
    const crossing = importEdges(undefined, ['bench', 'test']).filter(({ from, to }) => from.split('/')[0] !== to.split('/')[0] && ['bench', 'test'].includes(to.split('/')[0] as string));
    expect(crossing.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  it('has features depend on the route table only where they describe the API (openapi)', () => {
    expect(violations((from, to) => FEATURES.has(from) && to === 'functions/*' && from !== 'functions/openapi')).toEqual([]);
  });
});
