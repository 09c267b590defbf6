import * as z from '../validation/zod';
import { SORT_ORDERS } from './pagination';

/**
 * The pagination and sort objects of a list reply, as the API answers them: they type the
 * listings and generate the OpenAPI document; no function builds them.
 */

/** Pagination of a list reply (api-spec.md section 2), plus the `next` cursor and `total-exact` extensions. */
export const PaginationSchema = z.object({
  count: z.number().check(z.int()),
  limit: z.number().check(z.int()),
  page: z.number().check(z.int()),
  total: z.number().check(z.int()),
  /** Where the next page is: pass it back as `pagination[cursor]`; null on the last page. */
  next: z.nullable(z.string()),
  /** False only when counting the total would have read too much: `total` is then a lower bound. */
  'total-exact': z.boolean(),
});
/** The pagination object of a reply. */
export type Pagination = z.output<typeof PaginationSchema>;

/** Sort of a list reply. */
export const SortSchema = z.object({ field: z.string(), order: z.enum(SORT_ORDERS) });
