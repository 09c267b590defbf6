import type { KeyWindow } from '../../shared/listing/key-window';
import type { IndexPartition, ItemFilter } from '../../shared/listing/index-partition';
import type { SortedStream } from '../../shared/listing/merge-reader';
import type { MediaLogEntry } from '../model/schemas';

/**
 * What a listing asks of the media log's index reader (index-reader.ts), and what it gets back:
 * the shapes the planning code (list-plan.ts, scope-counting.ts, url-listing.ts) speaks in, apart
 * from the reader that holds the client and the tables.
 */

/** Counter reads in flight at once for one listing (one per counted scope: a family of hundreds has hundreds). */
export const COUNTER_READS_IN_FLIGHT = 16;

/** The counts of one time bucket: `n` and one attribute per status combination. */
export interface CounterBucket {
  readonly bucket: string;
  readonly counts: Readonly<Record<string, number>>;
  /** False when the counts are only a lower bound (hidden entries subtracted by a coarser counter). */
  readonly exact?: boolean;
  /** With `exact` false: its finer buckets can be made exact (the hidden entries were not read at this level). */
  readonly refinable?: boolean;
}

/** The counts of hidden entries per bucket, read entry by entry within a budget. */
export interface BucketEntryCounts {
  readonly counts: ReadonlyMap<string, Readonly<Record<string, number>>>;
  /** False when the budget ran out before the window was read through. */
  readonly exact: boolean;
  /** Items read. */
  readonly scanned: number;
}

/** Whether an entry counts for a listing: the conditions no index item can show (statuses, the url itself). */
export type EntryCheck = (entry: MediaLogEntry) => boolean;

/** One page to read from the listing indexes. */
export interface PageRead {
  readonly streams: readonly SortedStream[];
  readonly window: KeyWindow;
  readonly ascending: boolean;
  /** Matching entries to pass over before the page. */
  readonly skip: number;
  readonly take: number;
  /** Checked on the entries of the streams marked `checked`, and on every entry the page returns. */
  readonly check?: EntryCheck;
}

/** A page of entries, and where the next one resumes (merge-reader.ts). */
export interface EntryPage {
  readonly entries: MediaLogEntry[];
  readonly resumeAfter?: string;
  readonly more: boolean;
  readonly budgetSpent: boolean;
}

/** What to count entry by entry: index partitions, each with its index filter, in a window. */
export interface CountRead {
  readonly parts: readonly { readonly partition: IndexPartition; readonly filter?: ItemFilter }[];
  readonly window: KeyWindow;
  readonly readBudget: number;
  /** When set, an index item counts only if its entry passes (the entries are read to know). */
  readonly check?: EntryCheck;
}
