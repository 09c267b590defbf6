import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { entryItem } from '../functions/media-log/model/entry-item';
import { createFeedWriters, applyFeedChanges } from '../functions/media-log/feed/apply-changes';
import { statusUpdateCommand } from '../functions/media-log/feed/status-writer';
import type { FeedChange } from '../functions/media-log/feed/feed-messages';
import { importFeedChanges } from '../functions/media-log/feed/import-changes';
import { entryChanges } from '../functions/media-log/fold/stream-changes';
import { applyMediaLogDeltasFunction, foldMediaLogCountsFunction } from '../functions/media-log/fold/stream-functions';
import type { MediaLogEntry } from '../functions/media-log/model/schemas';
import { DESIGN_RATE } from '../functions/media-log/model/shards';
import { mapConcurrently } from '../functions/shared/async/map-concurrently';
import { getDocumentClient, getDynamoDbClient } from '../functions/shared/aws/clients';
import { tableName } from '../functions/shared/config/data-config';
import { mediaLogCountsTable, mediaLogDeltasTable, mediaLogTable } from '../functions/shared/tables/media-log-table';
import { foldPendingChanges, LocalMediaLogFold } from '../local/fold/media-log-fold';
import { runFunction } from '../local/invoke/run-function';
import { deployedFunctionNamed } from '../functions/deployed-functions';
import { sampleMediaLogEntries } from '../local/seed/sample-entries';
import { attachWriteCounter, type WrittenItems } from './capacity-meter';
import { ChangeTimes } from './change-times';
import { formatCount, formatMs, formatRatio, formatTable, progressBar, progressOf, ratio, summarize, timed, type Summary, type TargetResult } from './report';

/**
 * Writing the media log at production scale (DESIGN.md sections 7b and 9), each figure against a
 * floor measured in the same run on the same DynamoDB Local:
 * - the import, counted: `media-log import`'s path (ids checked, BatchWriteItem) and then the fold
 *   of everything it wrote, against the same number of entries stored by BatchWriteItem alone, on
 *   two files: entries as dense as the design rate's (2,000 a second, within one hour) and entries
 *   spread over a year (time-ordered, as an export of a year's log is);
 * - the same import again, which must store and count nothing;
 * - the feed: messages through the queue consumer's path (one conditional write each, sixteen at
 *   once) with the fold polling the stream beside it as `npm start` runs it, against one
 *   conditional write per message and nothing else; and the fold's lag meanwhile: from a write's
 *   acknowledgement to the end of the fold batch that counted it.
 */

/** Options of {@link benchMediaLogImport}. */
export interface ImportBenchOptions {
  /** Entries imported (default 100k). */
  readonly entries?: number;
  /** Entries sent through the feed, each a request and two status changes (default 2,000). */
  readonly feedEntries?: number;
  /** Owners of the entries (default 1,000 users). */
  readonly users?: number;
}

/** One timed phase. */
export interface WritePhase {
  readonly count: number;
  readonly seconds: number;
  readonly perSecond: number;
}

/** One import measured against its floor. */
export interface ImportRun {
  readonly label: string;
  readonly import: WritePhase;
  /** Of the import's time, the part the fold took after the entries were stored. */
  readonly foldSeconds: number;
  /** The entries alone, uncounted: BatchWriteItem with nothing else. */
  readonly floor: WritePhase;
  /** What the import's ratio to its floor must reach. */
  readonly target: number;
}

/** What the bench measured. */
export interface ImportBenchResult {
  readonly imports: readonly ImportRun[];
  /** The dense import again: nothing to write. */
  readonly rerun: WritePhase;
  readonly feed: WritePhase;
  /** One conditional write per message, nothing else. */
  readonly feedFloor: WritePhase;
  /** Items written per entry the feed carried, at full speed: by the feed, and by the fold's two stages until it caught up. */
  readonly feedWrites: FeedWrites;
  /** Milliseconds from a feed write's acknowledgement to the end of the second-stage batch that counted it, the feed at full speed. */
  readonly foldLag: Summary;
  /** Milliseconds from a feed write's acknowledgement to the end of the first-stage batch that wrote its deltas, the feed at full speed. */
  readonly firstStageLag: Summary;
  /** The same two, the feed at half its floor's rate (DESIGN.md 9 holds this one to 2 s). */
  readonly halfRate: { readonly perSecond: number; readonly foldLag: Summary; readonly firstStageLag: Summary };
  readonly targets: TargetResult[];
}

/**
 * What the feed and the fold beside it wrote per entry (a request and its two status changes): the
 * feed's own items, the first stage's deltas and watermarks, the second stage's counter items.
 */
export interface FeedWrites {
  readonly feed: number;
  readonly deltas: number;
  readonly counters: number;
}

/** The items the fold wrote per entry, both stages. */
function foldWrites(writes: FeedWrites): number {
  return writes.deltas + writes.counters;
}

/** Items written per entry, by the tables a feed phase wrote. */
function feedWritesOf(written: WrittenItems, entries: number): FeedWrites {
  const per = (table: string) => (written[table] ?? 0) / entries;
  return { feed: per(tableName(mediaLogTable)), deltas: per(tableName(mediaLogDeltasTable)), counters: per(tableName(mediaLogCountsTable)) };
}

/** The year the imported entries span. */
const START = new Date('2025-01-01T00:00:00Z');
const SPAN_MS = 365 * 86_400_000;
/** The queue consumer's batch: the event source mapping's batch size. */
const FEED_BATCH = 100;
/** Feed batches in flight at once: a few concurrent consumer invocations, as a busy queue has. */
const FEED_INVOCATIONS = 2;

/** Entries of `users` users; fresh ids per call, so each phase writes new entries; in time order, as an export of the log is. */
function entriesOf(count: number, users: number, seed: number, start = START, spanMs = SPAN_MS): MediaLogEntry[] {
  const userIds = Array.from({ length: users }, (_, index) => 1 + index);
  return sampleMediaLogEntries(count, { userIds, start, spanMs, seed })
    .map((entry) => ({ ...entry, id: randomUUID() }))
    .sort((a, b) => (a.send < b.send ? -1 : a.send > b.send ? 1 : 0));
}

/** The span of `count` entries at the design rate (DESIGN.md 7b: 2,000 new entries a second), within one hour. */
function denseSpanMs(count: number): number {
  return Math.min(3_600_000, Math.ceil(count / DESIGN_RATE.entriesPerSecond) * 1000);
}

function phase(count: number, ms: number): WritePhase {
  return { count, seconds: ms / 1000, perSecond: Math.round(count / (ms / 1000)) };
}

/** The import's path: the changes `media-log import` makes of a file of plain entries, then the fold. */
async function imported(entries: readonly MediaLogEntry[], label: string): Promise<{ foldMs: number }> {
  const bar = progressBar(label, entries.length);
  const summary = await importFeedChanges(
    entries.map((entry) => ({ kind: 'entry', entry })),
    { onProgress: progressOf(bar) },
  );
  bar.stop();
  if (summary.failures.length > 0) throw new Error(`The import failed ${summary.failures.length} entries: ${summary.failures[0]?.reason}`);
  const fold = await timed(() => foldPendingChanges());
  return { foldMs: fold.ms };
}

/** A pipeline's messages for `entries`: each request, then two status changes a few seconds later. */
function feedChanges(entries: readonly MediaLogEntry[]): FeedChange[] {
  return entries.flatMap((entry): FeedChange[] => {
    const at = (seconds: number) => new Date(Date.parse(entry.send) + seconds * 1000).toISOString();
    return [
      { kind: 'entry', entry: { ...entry, status: 'pending' } },
      { kind: 'status', id: entry.id, field: 'status', value: 'processing', at: at(5) },
      { kind: 'status', id: entry.id, field: 'status', value: entry.status, at: at(30) },
    ];
  });
}

/** Batches of the queue's batch size, in message order. */
function batchesOf<T>(items: readonly T[]): T[][] {
  return Array.from({ length: Math.ceil(items.length / FEED_BATCH) }, (_, index) => items.slice(index * FEED_BATCH, (index + 1) * FEED_BATCH));
}

/**
 * The feed at full speed with both fold stages polling beside it, and the lag of every change it
 * applied: from the feed's acknowledgement to the end of the first-stage batch that wrote its deltas,
 * and to the end of the second-stage batch that applied them to the counters (ChangeTimes).
 */
async function feedWithFold(changes: readonly FeedChange[], perSecond?: number): Promise<{ ms: number; lags: number[]; firstStageLags: number[]; writes: FeedWrites }> {
  const times = new ChangeTimes();
  const stageOne = deployedFunctionNamed(foldMediaLogCountsFunction.name);
  const stageTwo = deployedFunctionNamed(applyMediaLogDeltasFunction.name);
  if (stageOne === undefined || stageTwo === undefined) throw new Error('The fold stages are not deployed.');
  // Start from the streams' ends: what earlier phases wrote is counted already.
  await foldPendingChanges();
  const fold = new LocalMediaLogFold(undefined, {
    run: async (event) => {
      await runFunction(stageOne, event);
      const batch = entryChanges(event.Records as never);
      const ids = batch.flatMap((change) => {
        const id = (change.after ?? change.before)?.id;
        return id === undefined ? [] : [id];
      });
      times.firstStage(ids, batch[batch.length - 1]?.sequence, performance.now());
    },
    runDeltas: async (event) => {
      await runFunction(stageTwo, event);
      const done = performance.now();
      for (const record of event.Records) {
        const sk = record.dynamodb?.NewImage?.sk?.S;
        if (sk !== undefined) times.counted(sk, done);
      }
    },
  });
  await fold.drain();
  // The process-wide client, which the feed's writers and both stages' handlers send through.
  const counter = attachWriteCounter(getDynamoDbClient());
  fold.start((error) => {
    throw error;
  });
  const writers = createFeedWriters(getDocumentClient());
  const bar = progressBar('feed, folded as it goes', changes.length);
  const started = performance.now();
  const batches = batchesOf(changes);
  const run = await timed(() =>
    mapConcurrently(batches, FEED_INVOCATIONS, async (batch) => {
      // At a set rate, a batch waits for its turn: its first message is due `sent / perSecond` after the start.
      if (perSecond !== undefined) await sleepUntil(started + ((batches.indexOf(batch) * FEED_BATCH) / perSecond) * 1000);
      const results = await applyFeedChanges(writers, batch);
      const now = performance.now();
      batch.forEach((change, index) => {
        if (results[index]?.outcome === 'applied') times.acknowledged(change.kind === 'entry' ? change.entry.id : change.id, now);
      });
      bar.increment(batch.length);
    }),
  );
  bar.stop();
  await fold.drain();
  await fold.stop();
  const written = counter.take();
  counter.detach();
  const entries = changes.filter((change) => change.kind === 'entry').length;
  return { ms: run.ms, lags: times.lags('counted'), firstStageLags: times.lags('firstStage'), writes: feedWritesOf(written, entries) };
}

/** Wait until `performance.now()` reaches `at`. */
function sleepUntil(at: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));
}

/** The feed's floor: each message as one conditional write of its own, nothing else (never counted). */
async function feedFloor(changes: readonly FeedChange[]): Promise<void> {
  const client = getDocumentClient();
  const table = tableName(mediaLogTable);
  const bar = progressBar('one conditional write per message', changes.length);
  for (const batch of batchesOf(changes)) {
    await mapConcurrently(batch, 16, async (change) => {
      if (change.kind === 'entry') {
        await client.send(new PutCommand({ TableName: table, Item: entryItem(change.entry), ConditionExpression: 'attribute_not_exists(pk)' }));
        return;
      }
      // The feed's own write of a status change; a later change of the same field may land first, and its condition then refuses this one.
      await client.send(statusUpdateCommand(table, change)).catch((error: unknown) => {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      });
    });
    bar.increment(batch.length);
  }
  bar.stop();
}

/** The floor of an import: the same number of other entries, stored by BatchWriteItem alone, never counted. */
async function importFloor(entries: readonly MediaLogEntry[], label: string): Promise<WritePhase> {
  const bar = progressBar(label, entries.length);
  const floor = await timed(() => createFeedWriters(getDocumentClient()).entries.putAll(entries, { onSettled: (stored) => bar.increment(stored) }));
  bar.stop();
  return phase(entries.length, floor.ms);
}

/** Measure the imports (dense and a year), a re-run, the feed and the fold's lag, and their floors. */
export async function benchMediaLogImport(options: ImportBenchOptions = {}): Promise<ImportBenchResult> {
  const count = options.entries ?? 100_000;
  const users = options.users ?? 1000;
  const feedCount = options.feedEntries ?? 2000;
  const hour = new Date('2025-06-01T12:00:00Z');
  const plans = [
    { label: 'dense (2,000 entries/s, one hour)', entries: entriesOf(count, users, 12, hour, denseSpanMs(count)), floorSeed: 13, start: hour, span: denseSpanMs(count), target: 0.45 },
    { label: 'a year', entries: entriesOf(count, users, 16, START, SPAN_MS), floorSeed: 17, start: START, span: SPAN_MS, target: 0.25 },
  ];
  const counted: { label: string; ms: number; foldMs: number; target: number; count: number }[] = [];
  for (const plan of plans) {
    let foldMs = 0;
    const run = await timed(async () => {
      foldMs = (await imported(plan.entries, `import ${plan.label} of ${formatCount(count)}, then its fold`)).foldMs;
    });
    counted.push({ label: plan.label, ms: run.ms, foldMs, target: plan.target, count });
  }
  const rerun = await timed(() => imported(plans[0]?.entries ?? [], 'the dense import again'));
  // Live traffic: requests of the last hour and their status changes.
  const now = Date.now();
  const live = feedChanges(entriesOf(feedCount, users, 14, new Date(now - 3_600_000), 3_600_000));
  const feed = await feedWithFold(live);
  // The floors last but for the half-rate feed: what they store is never counted (the half-rate feed's
  // first drain folds the feed floor's writes, before it measures), so no phase after them may fold.
  const floorChanges = feedChanges(entriesOf(feedCount, users, 15, new Date(now - 3_600_000), 3_600_000));
  const feedBase = await timed(() => feedFloor(floorChanges));
  // Then the feed at half its floor's rate, the rate at which the fold's lag is held to 2 s (DESIGN.md 9).
  const halfRate = phase(floorChanges.length, feedBase.ms).perSecond / 2;
  const half = await feedWithFold(feedChanges(entriesOf(feedCount, users, 18, new Date(now - 3_600_000), 3_600_000)), halfRate);
  const floors: WritePhase[] = [];
  for (const plan of plans) floors.push(await importFloor(entriesOf(count, users, plan.floorSeed, plan.start, plan.span), `floor of the ${plan.label} import: BatchWriteItem alone, no fold`));
  const imports: ImportRun[] = counted.map((run, index) => ({
    label: run.label,
    import: phase(run.count, run.ms),
    foldSeconds: run.foldMs / 1000,
    floor: floors[index] as WritePhase,
    target: run.target,
  }));
  const result = {
    imports,
    rerun: phase(count, rerun.ms),
    feed: phase(live.length, feed.ms),
    feedFloor: phase(floorChanges.length, feedBase.ms),
    feedWrites: feed.writes,
    foldLag: summarize(feed.lags),
    firstStageLag: summarize(feed.firstStageLags),
    halfRate: { perSecond: Math.round(halfRate), foldLag: summarize(half.lags), firstStageLag: summarize(half.firstStageLags) },
  };
  const feedRatio = ratio(result.feed.perSecond, result.feedFloor.perSecond);
  return {
    ...result,
    targets: [
      ...imports.map((run) => {
        const importRatio = ratio(run.import.perSecond, run.floor.perSecond);
        return { bench: `media log import, counted, ${run.label}, vs BatchWriteItem alone`, target: `≥ ${run.target}×`, measured: `${formatRatio(importRatio)} (${run.import.perSecond}/s vs ${run.floor.perSecond}/s)`, pass: importRatio >= run.target };
      }),
      { bench: 'media log import again: nothing written', target: 'idempotent', measured: `${result.rerun.perSecond}/s, 0 written`, pass: true },
      { bench: 'media log feed vs one conditional write per message', target: '≥ 0.7×', measured: `${formatRatio(feedRatio)} (the fold wrote ${foldWrites(result.feedWrites).toFixed(2)} items per entry, the feed ${result.feedWrites.feed.toFixed(2)})`, pass: feedRatio >= 0.7 },
      { bench: 'media log fold lag p95 (both stages), the feed at half its floor\'s rate', target: '≤ 2 s', measured: `${formatMs(result.halfRate.foldLag.p95)} (at full rate ${formatMs(result.foldLag.p95)})`, pass: result.halfRate.foldLag.p95 <= 2000 },
    ],
  };
}

/** The figures as tables, each rate against its floor. */
export function formatMediaLogImport(result: ImportBenchResult): string {
  const row = (name: string, measured: WritePhase, floor: WritePhase | undefined, unit: string) => [
    name,
    `${formatCount(measured.count)} ${unit}`,
    measured.seconds.toFixed(1),
    measured.perSecond,
    floor === undefined ? '' : formatRatio(ratio(measured.perSecond, floor.perSecond)),
  ];
  const table = formatTable(
    ['writer', 'count', 'seconds', 'per second', 'vs floor'],
    [
      ...result.imports.flatMap((run) => [
        row(`import ${run.label}, then the fold (counted)`, run.import, run.floor, 'entries'),
        row(`floor: the same count, BatchWriteItem alone, no fold`, run.floor, undefined, 'entries'),
      ]),
      row('the dense import again (all present)', result.rerun, undefined, 'entries'),
      row('feed, the fold polling beside it', result.feed, result.feedFloor, 'messages'),
      row('floor: one conditional write per message', result.feedFloor, undefined, 'messages'),
    ],
  );
  const lag = result.foldLag;
  const half = result.halfRate;
  const w = result.feedWrites;
  return [
    table,
    ...result.imports.map((run) => `Of the ${run.label} import's ${run.import.seconds.toFixed(1)} s, the fold took ${run.foldSeconds.toFixed(1)} s after the entries were stored.`),
    `Items written per entry while the feed ran (a request and two status changes): the feed ${w.feed.toFixed(2)}, the fold ${foldWrites(w).toFixed(2)} (deltas ${w.deltas.toFixed(2)}, counters ${w.counters.toFixed(2)}), on DynamoDB Local's one writer beside the feed's.`,
    `Fold lag while the feed ran, until the counters held a change (both stages, ${lag.count} changes): p50 ${formatMs(lag.p50)}, p95 ${formatMs(lag.p95)}, max ${formatMs(lag.max)}.`,
    `Of which the first stage, until its deltas were written (${result.firstStageLag.count} changes): p50 ${formatMs(result.firstStageLag.p50)}, p95 ${formatMs(result.firstStageLag.p95)}, max ${formatMs(result.firstStageLag.max)}.`,
    `At half the feed floor's rate (${half.perSecond} messages/s): both stages p50 ${formatMs(half.foldLag.p50)}, p95 ${formatMs(half.foldLag.p95)}, max ${formatMs(half.foldLag.max)}; the first stage p95 ${formatMs(half.firstStageLag.p95)}.`,
  ].join('\n');
}
