import type { TableDefinition } from './table-definition';
import { TABLE_NAMES } from './table-names';

/**
 * The attributes of an idempotency record, as Powertools Idempotency's DynamoDB persistence layer
 * is told to write them (functions/shared/idempotency/idempotency-store.ts): the record id, its
 * expiry in epoch seconds (the TTL attribute), its status, until when an unfinished request holds
 * the key (epoch milliseconds), the hash of the request it was made for, and the answer.
 */
export const IDEMPOTENCY_ATTRIBUTES = {
  id: 'id',
  expiry: 'expiration',
  status: 'status',
  inProgressExpiry: 'in_progress_expiration',
  validation: 'validation',
  answer: 'data',
} as const;

/**
 * Prefix of every record id (`request#<hash>`). Fixed, not the function name Powertools defaults to:
 * a key names one request of its caller whatever the operation, so the same key on another
 * operation is the mismatch (422) the draft asks for, not a second, unrelated use.
 */
export const IDEMPOTENCY_RECORD_PREFIX = 'request';

/**
 * The requests made with an `Idempotency-Key` (DESIGN.md 5b): one item per caller and key,
 * `request#<hash of the caller's id and the key>`, holding the request's fingerprint, whether it
 * still runs, and the answer it gave. A table of its own, with TTL on the expiry: records go away by
 * themselves, and no write of the user data carries them.
 */
export const idempotencyTable: TableDefinition = {
  ...TABLE_NAMES.idempotency,
  partitionKey: { name: IDEMPOTENCY_ATTRIBUTES.id, type: 'S' },
  indexes: [],
  timeToLiveAttribute: IDEMPOTENCY_ATTRIBUTES.expiry,
};
