import type { PageRequest } from '../../shared/listing/pagination';
import type { StatusFilter } from '../model/counters';
import { scopeName, type CounterScope } from '../model/keys';
import type { TimeRange } from '../model/time-buckets';
import type { CounterBucket } from './index-reads';
import type { CountedScopes, ListingScope } from './listing-scope';

/**
 * A listing resolved from a query and its caller: whose entries, which counters, which filters,
 * which range, which page. The listing, its plan and its counting all read this one shape.
 */
export interface ResolvedListing {
  /** Whose entries the caller may see (and asked for). */
  readonly scope: ListingScope;
  /** The counter scopes that make up the listing, and those whose entries are hidden from it. */
  readonly counted: CountedScopes;
  readonly statuses: StatusFilter;
  readonly url?: string;
  readonly range: TimeRange;
  readonly ascending: boolean;
  readonly page: PageRequest;
}

/** The month counters a listing plans and counts with, for the months of its range. */
export class MonthCounters {
  private readonly byScope: ReadonlyMap<string, readonly CounterBucket[]>;

  public constructor(
    scopes: readonly CounterScope[],
    buckets: readonly (readonly CounterBucket[])[],
    /** The whole log's months, when a users listing weighs the status partitions (which hold every user's entries). */
    public readonly wholeLog?: readonly CounterBucket[],
  ) {
    this.byScope = new Map(scopes.map((scope, index) => [scopeName(scope), buckets[index] ?? []]));
  }

  /** The month buckets of one scope (none when it has no entries in the range). */
  public of(scope: CounterScope): readonly CounterBucket[] {
    return this.byScope.get(scopeName(scope)) ?? [];
  }
}
