import { IDEMPOTENCY_RECORD_PREFIX } from '../tables/idempotency-table';
import type { TableAccess } from './data-grants';

/**
 * What a route that takes an `Idempotency-Key` does to the idempotency table, through Powertools
 * Idempotency: a conditional PutItem reserves the key (refused, it returns the record it met, so no
 * GetItem is needed), UpdateItem stores the answer, DeleteItem frees the key of a request that
 * failed. Only records under the request prefix.
 */
export const KEYED_REQUESTS: TableAccess = { actions: ['PutItem', 'UpdateItem', 'DeleteItem'], partitions: [`${IDEMPOTENCY_RECORD_PREFIX}#*`] };
