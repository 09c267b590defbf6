/**
 * Stands in for functions/shared/idempotency/idempotent-route.ts in the bundles that
 * bench/idempotency-cost.ts builds without key support: the route's work, unwrapped.
 */
export function idempotent(_route, handle) {
  return handle;
}
