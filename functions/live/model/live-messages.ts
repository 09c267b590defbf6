import * as z from '../../shared/validation/zod';
import { MediaLogEntrySchema } from '../../media-log/model/schemas';
import { LiveFilterSchema } from './live-filter';

/**
 * The messages of the live media log's WebSocket (DESIGN.md 7c), defined once: what a client sends
 * (validated by the routes) and what the service sends (built by the routes and the notifier, and
 * the source of the typed client's message types, `npm run client`).
 */

/** A client's name for one of its subscriptions, echoed in every message about it. */
export const SubscriptionIdSchema = z.string().check(
  z.minLength(1, 'Must not be empty.'),
  z.maxLength(64, 'Must be at most 64 characters.'),
  z.regex(/^[A-Za-z0-9._:-]+$/, 'Must be letters, digits, and . _ : - only.'),
);

/** `{"action":"subscribe","id","filter"}`: entries of the caller's scope that match the filter of GET /media/log. */
export const SubscribeMessageSchema = z.strictObject({
  action: z.literal('subscribe'),
  id: SubscriptionIdSchema,
  filter: z.optional(LiveFilterSchema),
});
/** A validated subscribe message. */
export type SubscribeMessage = z.output<typeof SubscribeMessageSchema>;

/** `{"action":"unsubscribe","id"}`: end one subscription. */
export const UnsubscribeMessageSchema = z.strictObject({
  action: z.literal('unsubscribe'),
  id: SubscriptionIdSchema,
});

/** The actions a client may send, each a route of the WebSocket API. */
export const LIVE_ACTIONS = ['subscribe', 'unsubscribe'] as const;

/** `{"type":"subscribed","id"}`: the subscription holds from now on. */
export const SubscribedMessageSchema = z.object({ type: z.literal('subscribed'), id: z.string() });
/** `{"type":"unsubscribed","id"}`: no more messages of that subscription. */
export const UnsubscribedMessageSchema = z.object({ type: z.literal('unsubscribed'), id: z.string() });

/**
 * `{"type":"entry","subscription","entry","matches"}`: the latest state of an entry that is new or
 * changed, whose old or new state matches the subscription; `matches` false: it just left the filter.
 */
export const EntryMessageSchema = z.object({
  type: z.literal('entry'),
  subscription: z.string(),
  entry: MediaLogEntrySchema,
  matches: z.boolean(),
});

/** `{"type":"overflow","subscription","dropped"}`: entry messages were dropped over the rate; refetch the page. */
export const OverflowMessageSchema = z.object({
  type: z.literal('overflow'),
  subscription: z.string(),
  dropped: z.number().check(z.int(), z.positive()),
});

/** `{"type":"error","id","status","code","detail"}`: a message refused, with the problem catalog's code (`id`: the subscription it named). */
export const ErrorMessageSchema = z.object({
  type: z.literal('error'),
  id: z.optional(z.string()),
  status: z.number().check(z.int(), z.gte(400), z.lte(599)),
  code: z.string(),
  detail: z.string(),
  errors: z.optional(z.array(z.object({ name: z.string(), reason: z.string() }))),
});

/** Every message the service sends on the WebSocket. */
export const LiveMessageSchema = z.discriminatedUnion('type', [
  SubscribedMessageSchema,
  UnsubscribedMessageSchema,
  EntryMessageSchema,
  OverflowMessageSchema,
  ErrorMessageSchema,
]);
/** A message the service sends. */
export type LiveMessage = z.output<typeof LiveMessageSchema>;
/** An entry message. */
export type EntryMessage = z.output<typeof EntryMessageSchema>;
/** An overflow message. */
export type OverflowMessage = z.output<typeof OverflowMessageSchema>;
/** An error message. */
export type ErrorMessage = z.output<typeof ErrorMessageSchema>;

/**
 * The messages the service sends, by the name the OpenAPI document gives them as components (no
 * route returns them; the WebSocket that POST /media/log/live opens does): the typed client's
 * message types are generated from them.
 */
export const LIVE_MESSAGE_SCHEMAS: readonly (readonly [z.ZodMiniType, string])[] = [
  [LiveMessageSchema, 'LiveMessage'],
  [SubscribedMessageSchema, 'LiveSubscribedMessage'],
  [UnsubscribedMessageSchema, 'LiveUnsubscribedMessage'],
  [EntryMessageSchema, 'LiveEntryMessage'],
  [OverflowMessageSchema, 'LiveOverflowMessage'],
  [ErrorMessageSchema, 'LiveErrorMessage'],
];
