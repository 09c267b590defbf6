/**
 * `npm run --silent imports`: the import structure by area (see import-graph.ts), one line per
 * pair of areas with the number of imports, then the modules behind any pair named as arguments,
 * e.g. `npm run --silent imports -- 'functions/users -> functions/avatars'`.
 */
import { areaEdges, areaOf, importEdges } from './import-graph';

const edges = importEdges();
for (const [pair, count] of areaEdges(edges)) process.stdout.write(`${pair}  (${count})\n`);
for (const pair of process.argv.slice(2)) {
  const [from, to] = pair.split(' -> ');
  process.stdout.write(`\n${pair}:\n`);
  for (const edge of edges.filter((candidate) => areaOf(candidate.from) === from && areaOf(candidate.to) === to)) {
    process.stdout.write(`  ${edge.from} -> ${edge.to}\n`);
  }
}
