import type { idempotent as layer } from './idempotent-route';

/**
 * What `#idempotency-layer` is in the bundle of a route that takes no `Idempotency-Key`
 * (package.json `imports`, resolved under the condition lib/function-bundling.ts gives those
 * bundles): no layer, so that the bundle carries nothing of Powertools Idempotency, whose JMESPath
 * engine esbuild could not shake out (DESIGN.md 9). Such a route never asks for the layer; a bundle
 * built for the wrong route fails its cold start saying so.
 */
export const idempotent: typeof layer = (route) => {
  throw new Error(`Route ${route.name} takes an Idempotency-Key, but its bundle was built for a route that takes none.`);
};
