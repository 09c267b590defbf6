/**
 * The Frontend API's typed client for web frontends: every call checked against the types of the
 * API's OpenAPI document, unsafe calls keyed and retried, and the live media log.
 */
export * from './frontend-api.js';
export * from './retrying-fetch.js';
export * from './media-log-live.js';
export type { components, operations, paths } from './api-types.js';
