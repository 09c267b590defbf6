import { BYTES_PER_READ_UNIT, HALF_UNIT } from '../../shared/listing/read-budget';

/**
 * What the media log's listings may read and what each read costs, in read units as AWS bills them
 * (functions/shared/listing/read-budget.ts). The planner weighs its choices with these figures, the
 * reader budgets its reads with them, and the bench and tests hold the listings to the budgets.
 */

/**
 * Read units one request may spend, counters, counts, index items and entries together (DESIGN.md
 * 9). Beyond it a page ends with a `next` cursor, and a total that could not be counted says so.
 */
export const LISTING_READ_UNITS = 200;

/**
 * Of them, what a total from the counters may spend counting entry by entry where no counter can
 * say it: the partial buckets at a range's ends (their entries read too when statuses are
 * filtered: a partial hour of the whole log at a million entries a year holds about 60, a user's
 * partial month about 40), and an admin's hidden users inside buckets finer than their counters.
 * Half the request's budget: the page keeps the other half.
 */
export const COUNT_READ_UNITS = 100;

/**
 * What counting a url's requests may spend: a url's page must stay within 40 units whatever the
 * url's number of requests (DESIGN.md 9), and it costs its count, one Query and its ten entries
 * (5.5 units) more.
 */
export const URL_COUNT_READ_UNITS = 30;

/**
 * The largest item of a listing index, as DynamoDB sizes items (names and values,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html):
 * `pk` `E#<uuid>` (40 bytes), the send key `sk` `<send>#<uuid>` (63), the partition (`urlPk` and a
 * 22-character hash: 27; `userPk` `USER#<16 digits>#<shard>`: 29, in an index without `userId`)
 * and `userId` (a 16-digit number: 15): 145 bytes.
 */
export const INDEX_ITEM_BYTES = 145;

/** Read units of one index item within a Query (a Query costs its items' bytes, rounded up to 4 KB). */
export const INDEX_ITEM_UNITS = INDEX_ITEM_BYTES / BYTES_PER_READ_UNIT;

/** Read units of a Query whatever it returns. */
export const QUERY_UNITS = HALF_UNIT;

/** Read units of an entry read by key: an entry (a 2,048-character url at most, keys and statuses) weighs under 4 KB. */
export const ENTRY_READ_UNITS = HALF_UNIT;

/**
 * What a counter item is budgeted at before it is read: a whole-log month meets some 600 status
 * combinations (about 5 KB). Counters are charged what they cost once read; this only sizes the reservation.
 */
export const COUNTER_ITEM_BYTES = 4096;
