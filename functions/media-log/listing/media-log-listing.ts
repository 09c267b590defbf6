import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Caller } from '../../shared/access/roles';
import { mapConcurrently } from '../../shared/async/map-concurrently';
import { tableName } from '../../shared/config/data-config';
import { CursorCodec } from '../../shared/listing/cursor';
import { cursorConfig } from '../../shared/listing/cursor-config';
import { isEmptyRange, rangeFrom } from '../../shared/listing/key-range';
import { DEFAULT_LIMIT, queryFingerprint, requestedPage } from '../../shared/listing/pagination';
import { ReadBudget } from '../../shared/listing/read-budget';
import { mediaLogCountsTable, mediaLogTable } from '../../shared/tables/media-log-table';
import { UserScopeReader } from '../../shared/tables/user-scope-reader';
import { usersTable } from '../../shared/tables/users-table';
import { familyMoves } from '../family/family-stores';
import { COUNTER_SCOPES } from '../model/keys';
import { Retention } from '../model/retention';
import type { MediaLogList } from '../model/schemas';
import { COUNTER_READS_IN_FLIGHT, MediaLogIndexReader } from './index-reader';
import { counterReadsOf, entryCheck, MonthCounters, planListing, type CounterReads, type ListingPlan } from './list-plan';
import { listReply, type ListingResult } from './list-reply';
import { listingRequest, type ListingRequest } from './list-request';
import type { ListMediaLogQuery } from './list-schemas';
import { FamilyScopes } from './listing-scope';
import { locate, segmentsOf, totalOf, type PagePosition, type Total } from './range-counts';
import { LISTING_READ_UNITS } from './read-costs';
import { ScopeCounting } from './scope-counting';

/** A listing that found nothing: no entry, an exact zero. */
const NOTHING: ListingResult = { page: { values: [] }, total: { count: 0, exact: true } };

/**
 * GET /media/log: request → plan → reads → reply. The query and the caller make the request
 * (list-request.ts); the month counters read for it make the plan (list-plan.ts); the reader runs
 * the plan within the request's read budget (index-reader.ts), counting the total beside the page
 * (range-counts.ts, scope-counting.ts); the reply builder answers (list-reply.ts). A deep page by
 * number is located from the counters first, so it reads no earlier page.
 */
export class MediaLogListing {
  public constructor(
    private readonly reader: MediaLogIndexReader,
    private readonly scopes: FamilyScopes,
    private readonly cursors: CursorCodec,
    /** What one request may read (DESIGN.md 9); tests walk with far smaller budgets. */
    private readonly readUnits: number = LISTING_READ_UNITS,
    /** How long entries are kept: every listing and total starts at the window, whatever TTL has yet removed. */
    private readonly retention: Retention = Retention.forever,
    private readonly now: () => number = Date.now,
  ) {}

  /** One page of the log. */
  public async list(caller: Caller, query: ListMediaLogQuery): Promise<MediaLogList> {
    const fingerprint = queryFingerprint(caller, query, query.pagination?.limit ?? DEFAULT_LIMIT);
    const page = requestedPage(query.pagination, this.cursors, fingerprint);
    // A url or `request` filter checks users on items that carry no family: those take the caller's members.
    const byFamily = query.url === undefined && query.request === undefined;
    const scope = byFamily ? await this.scopes.resolveOwn(caller, query['user-id']) : await this.scopes.resolve(caller, query['user-id']);
    const asked = listingRequest(query, scope, page);
    const request = { ...asked, range: this.retention.clamp(asked.range, this.now()) };
    const result = await this.read(request, new ReadBudget(this.readUnits));
    return listReply(query, request, result, (edge) => this.cursors.encode({ page: page.page + 1, edge }, fingerprint));
  }

  private async read(request: ListingRequest, budget: ReadBudget): Promise<ListingResult> {
    // A range wholly before the retention window holds nothing, whatever TTL has yet removed.
    if (isEmptyRange(request.range)) return NOTHING;
    if (request.id !== undefined) return this.byId(request, request.id, budget);
    if (request.scope.kind === 'users' && request.scope.ids.length === 0) return NOTHING;
    const reads = counterReadsOf(request);
    const months = reads === null ? null : await this.monthCounters(reads, budget);
    const plan = planListing(request, months);
    // The count's share: the plan's, and never more than half of what is left, so the page always has the rest.
    const count = budget.share(Math.min(plan.total.readUnits, budget.left / 2));
    const located = request.page.offset > 0 && plan.total.kind === 'counters';
    if (!located) {
      // The page and its total at once: the page reads what the count's share leaves.
      const pageBudget = budget.share(budget.left - count.limit);
      const position = { ...(request.page.edge === undefined ? {} : { edge: request.page.edge }), skip: request.page.offset };
      const [total, page] = await Promise.all([this.total(request, plan, months, count).then(({ total }) => total), this.page(request, plan, position, pageBudget)]);
      return { page, total };
    }
    // A deep page by number: the counters say where it starts, then the page reads what is left.
    const { total, position } = await this.total(request, plan, months, count, request.page.offset);
    if (position === null) return { page: NOTHING.page, total };
    return { page: await this.page(request, plan, position, budget.share(budget.left)), total };
  }

  /** The page at `position`, as the plan says. */
  private page(request: ListingRequest, plan: ListingPlan, position: PagePosition, budget: ReadBudget): Promise<ListingResult['page']> {
    return this.reader.page(
      {
        streams: plan.streams,
        range: rangeFrom(request.range, position.edge, request.ascending),
        ascending: request.ascending,
        skip: position.skip,
        take: request.page.limit,
        ...(plan.check ? { check: plan.check } : {}),
        resolveSkipped: plan.checkSkipped,
      },
      budget,
    );
  }

  /** The total, from the counters or by counting; with `offset`, where the entry at that offset lies too. */
  private async total(request: ListingRequest, plan: ListingPlan, months: MonthCounters | null, budget: ReadBudget, offset?: number): Promise<{ total: Total; position: PagePosition | null }> {
    if (plan.total.kind === 'count') {
      const { check } = plan.total;
      const counted = await this.reader.count(plan.streams, request.range, budget, check ? { check } : {});
      return { total: { count: counted.count, exact: counted.exact }, position: null };
    }
    const source = new ScopeCounting(this.reader, request, plan.total.scopes, months ?? new MonthCounters([], []), budget);
    const segments = await segmentsOf(source, request.range);
    const counted = totalOf(segments);
    // A family's counters still count the entries of a user being re-keyed out of it, and not yet all of one moving in.
    const total = request.scope.kind === 'family' && request.scope.moving.length > 0 ? { ...counted, exact: false } : counted;
    if (offset === undefined || offset >= total.count) return { total, position: null };
    return { total, position: await locate(source, segments, offset, request.ascending) };
  }

  /** `request` filter: the one entry read by key, and the scope and the other filters checked on it; shown on the first page only. */
  private async byId(request: ListingRequest, id: string, budget: ReadBudget): Promise<ListingResult> {
    const entry = await this.reader.entry(id, entryCheck(request), budget);
    const shown = entry !== null && request.page.offset === 0 && request.page.edge === undefined;
    return { page: { values: shown ? [entry] : [] }, total: { count: entry === null ? 0 : 1, exact: true } };
  }

  /** The month counters the plan needs: every counted and hidden scope's, and the whole log's when it weighs the status partitions. */
  private async monthCounters(reads: CounterReads, budget: ReadBudget): Promise<MonthCounters> {
    const [lists, wholeLog] = await Promise.all([
      mapConcurrently(reads.scopes, COUNTER_READS_IN_FLIGHT, (scope) => this.reader.counterBuckets(scope, 'month', null, reads.months, budget)),
      reads.wholeLog ? this.reader.counterBuckets(COUNTER_SCOPES.all, 'month', null, reads.months, budget) : Promise.resolve(undefined),
    ]);
    return new MonthCounters(reads.scopes, lists, wholeLog);
  }
}

/**
 * The listing on `client`, over the tables the data configuration names (the entries, their
 * counters, and the users table for the callers' families), its cursors sealed with the configured
 * secret, its window the configured retention: what GET /media/log serves, and what the bench and the read-cost tests measure.
 */
export function createMediaLogListing(
  client: DynamoDBDocumentClient,
  options: { readonly readUnits?: number; readonly retention?: Retention; readonly now?: () => number } = {},
): MediaLogListing {
  return new MediaLogListing(
    new MediaLogIndexReader(client, { entries: tableName(mediaLogTable), counts: tableName(mediaLogCountsTable) }),
    new FamilyScopes(new UserScopeReader(client, tableName(usersTable)), familyMoves(client)),
    new CursorCodec('media-log', cursorConfig().secret),
    options.readUnits,
    options.retention ?? Retention.configured(),
    options.now,
  );
}
