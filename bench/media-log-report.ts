import { LISTING_READ_UNITS } from '../functions/media-log/listing/read-costs';
import type { PatternResult } from './media-log-measure';
import { PATTERNS } from './media-log-patterns';
import { formatCount, formatMs, formatRatio, formatTable, type TargetResult } from './report';

/** How a size was seeded. */
export interface SeedingResult {
  readonly size: number;
  /** Seconds the import's writer took to store the entries, and the fold to count them. */
  readonly writeSeconds: number;
  readonly foldSeconds: number;
  /** Entries stored and counted per second, the whole seeding. */
  readonly perSecond: number;
  readonly seconds: number;
}

/**
 * What the media log bench (bench/media-log.ts) reports: its figures as tables, and each held to
 * its target (DESIGN.md 9, restated in round five).
 */

/** Read units a url's page may cost, whatever the url's number of requests (DESIGN.md 9). */
const URL_PAGE_UNITS = 40;

/** Every measured listing against its targets, and p95 as the log grows. */
export function mediaLogTargets(results: readonly PatternResult[], sizes: readonly number[]): TargetResult[] {
  const out: TargetResult[] = [];
  const line = (result: PatternResult, target: string, pass: boolean, measured = result.unitsPerPage.toFixed(1)) =>
    out.push({ bench: `media log ${formatCount(result.size)}: ${result.pattern}, read units per page`, target, measured, pass });
  for (const result of results) {
    if (result.kind.startsWith('common')) {
      const budget = 2 * result.returnedPerPage;
      line(result, `≤ ${budget.toFixed(1)} (2 × ${result.returnedPerPage.toFixed(1)} returned)`, result.unitsPerPage <= budget);
    }
    if (result.kind.endsWith('url')) line(result, `≤ ${URL_PAGE_UNITS}`, result.unitsPerPage <= URL_PAGE_UNITS);
    line(result, `≤ ${LISTING_READ_UNITS} on every page`, result.maxUnits <= LISTING_READ_UNITS, `${result.maxUnits.toFixed(1)} at most`);
  }
  const [small, large] = [sizes[0], sizes[sizes.length - 1]];
  if (small !== undefined && large !== undefined && large > small) {
    for (const pattern of PATTERNS) {
      const before = results.find((row) => row.size === small && row.pattern === pattern.name);
      const after = results.find((row) => row.size === large && row.pattern === pattern.name);
      if (!before || !after) continue;
      const growth = after.p95 / before.p95;
      const common = pattern.kind.startsWith('common');
      out.push({
        bench: `media log p95 ${formatCount(large)} vs ${formatCount(small)}: ${pattern.name}`,
        target: common ? '≤ 1.50× (flat)' : 'reported',
        measured: `${formatRatio(growth)} (${formatMs(before.p95)} → ${formatMs(after.p95)})`,
        pass: common ? growth <= 1.5 : null,
      });
    }
  }
  return out;
}

/** The seeding and the listings measured, as tables. */
export function formatMediaLogResults(seeding: readonly SeedingResult[], results: readonly PatternResult[]): string {
  const seeded = formatTable(
    ['size', 'write s', 'fold s', 'entries/s, counted', 'seconds'],
    seeding.map((row) => [formatCount(row.size), row.writeSeconds, row.foldSeconds, formatCount(row.perSecond), row.seconds]),
  );
  const patterns = formatTable(
    ['size', 'listing (pages of 10)', 'returned', 'read units', 'max', 'items read/returned', 'index items', 'entries by key', 'counter items', 'counted', 'requests', 'total exact', 'p50', 'p95'],
    results.map((row) => [
      formatCount(row.size), row.pattern, row.returnedPerPage.toFixed(1), row.unitsPerPage.toFixed(1), row.maxUnits.toFixed(1), row.readPerReturned.toFixed(2), row.indexItemsPerPage.toFixed(1),
      row.entriesPerPage.toFixed(1), row.counterItemsPerPage.toFixed(1), row.countedPerPage.toFixed(1), row.requestsPerPage.toFixed(1), `${Math.round(row.exactShare * 100)} %`, formatMs(row.p50), formatMs(row.p95),
    ]),
  );
  return `${seeded}\n\n${patterns}`;
}

