import type { Caller } from '../access/roles';
import { ValidationError } from '../errors';
import { queryInteger } from '../validation/query-params';
import * as z from '../validation/zod';
import type { CursorCodec } from './cursor';
import { CURSOR_PARAMETER, CURSOR_SYNTAX, MAX_CURSOR_LENGTH } from './cursor-syntax';

/**
 * Pagination of the listings (DESIGN.md section 4): the query parameters and the page a query asks
 * for. What a page may read is each listing's read budget (read-budget.ts).
 */

/** Items a page holds unless `pagination[limit]` says otherwise. */
export const DEFAULT_LIMIT = 10;
/** Largest `pagination[limit]`. */
export const MAX_LIMIT = 100;
/**
 * Largest `page × limit` of offset paging: a page further on than that would read every earlier
 * page's items (OWASP API4); `pagination[cursor]` walks any distance at the cost of one page.
 */
export const OFFSET_BUDGET = 10_000;

/** Sort order values. */
export const SORT_ORDERS = ['asc', 'desc'] as const;

/** Pagination parameters shared by the list routes: `pagination[page]`, `pagination[limit]`, `pagination[cursor]`. */
export const PaginationQuerySchema = z.optional(
  z.strictObject({
    // Without a cursor the offset budget bounds the page; with one (which knows its page) it may be omitted.
    page: z.optional(queryInteger(1, OFFSET_BUDGET)),
    limit: z.optional(queryInteger(1, MAX_LIMIT)),
    cursor: z.optional(
      z.string().check(
        z.maxLength(MAX_CURSOR_LENGTH, `Must be at most ${MAX_CURSOR_LENGTH} characters.`),
        z.regex(CURSOR_SYNTAX, 'Must be a `pagination.next` value this API returned.'),
      ),
    ),
  }),
);
/** The validated pagination parameters. */
export type PaginationQuery = z.output<typeof PaginationQuerySchema>;

/** The page a request asks for. */
export interface PageRequest {
  readonly page: number;
  readonly limit: number;
  /** Items before the page, when it is reached by offset (none with a cursor). */
  readonly offset: number;
  /** Where the walk resumes, with a cursor (key-range.ts). */
  readonly edge?: string;
}

/**
 * What a cursor is bound to: the caller, the limit and every filter and sort of the query (the
 * pagination parameters aside), so that no other query or caller can reuse it.
 */
export function queryFingerprint(caller: Caller, query: { readonly pagination?: unknown }, limit: number): string {
  const { pagination: _pagination, ...rest } = query;
  return JSON.stringify([caller.userId, limit, rest]);
}

/**
 * The page a query asks for: by cursor (any depth, the cursor's own page number), or by page
 * number within the offset budget (beyond it a 400 that points to `pagination[cursor]`).
 */
export function requestedPage(pagination: PaginationQuery, cursors: CursorCodec, fingerprint: string): PageRequest {
  const limit = pagination?.limit ?? DEFAULT_LIMIT;
  if (pagination?.cursor !== undefined) {
    const cursor = cursors.decode(pagination.cursor, fingerprint);
    if (pagination.page !== undefined && pagination.page !== cursor.page) {
      throw new ValidationError([{ name: 'pagination[page]', reason: 'Omit it with a cursor, or give the page the cursor leads to.' }]);
    }
    return { page: cursor.page, limit, offset: 0, edge: cursor.edge };
  }
  const page = pagination?.page ?? 1;
  if (page * limit > OFFSET_BUDGET) {
    throw new ValidationError([
      {
        name: 'pagination[page]',
        reason: `pagination[page] × pagination[limit] must be at most ${OFFSET_BUDGET}; to walk further, follow pagination.next with ${CURSOR_PARAMETER}.`,
      },
    ]);
  }
  return { page, limit, offset: (page - 1) * limit };
}
