import * as z from '../../shared/validation/zod';
import { ValidationError } from '../../shared/errors';
import { parseInput } from '../../shared/validation/issues';
import { STATUS_FIELDS, type MediaStatus, type StatusField } from '../model/entry-fields';
import { ChangeTimeSchema, EntryIdSchema, MediaStatusSchema } from '../model/field-schemas';
import type { MediaLogEntry } from '../model/schemas';
import { MediaRequestEntrySchema, NewMediaLogEntrySchema } from './new-entry-schemas';

/**
 * The messages of the media pipeline feed (DESIGN.md section 7a), defined once: they validate the
 * queue's message bodies and the lines of `media-log import`, and appear in the OpenAPI document
 * for the pipeline team.
 */

/** A new media request; absent statuses are `pending`. */
export const MediaRequestMessageSchema = z.strictObject({
  type: z.literal('media-request'),
  entry: MediaRequestEntrySchema,
});

/** One status field of one entry changed at time `at`. */
export const StatusMessageSchema = z.strictObject({
  type: z.literal('status'),
  id: EntryIdSchema,
  field: z.enum(STATUS_FIELDS),
  value: MediaStatusSchema,
  at: ChangeTimeSchema,
});

/** A message body of the `MediaLogEvents` queue. */
export const FeedMessageSchema = z.discriminatedUnion('type', [MediaRequestMessageSchema, StatusMessageSchema]);

/** A validated `media-request` message. */
export type MediaRequestMessage = z.output<typeof MediaRequestMessageSchema>;
/** A validated `status` message. */
export type StatusMessage = z.output<typeof StatusMessageSchema>;

/** One status change of one entry, as the writer applies it. */
export interface StatusChange {
  readonly id: string;
  readonly field: StatusField;
  readonly value: MediaStatus;
  /** When it changed: ISO-8601 UTC with milliseconds. */
  readonly at: string;
}

/** What the feed asks of the log: store a new entry, or change one status of a stored one. */
export type FeedChange = { readonly kind: 'entry'; readonly entry: MediaLogEntry } | ({ readonly kind: 'status' } & StatusChange);

/** Most bytes of one message: SQS's own limit (256 KiB), so a line of an import is held to the same. */
export const MAX_MESSAGE_BYTES = 262_144;

/**
 * Parse one message: a feed message (`type` set), or, where `plainEntries` allows it (the import),
 * a plain entry with all its fields. A bad one is a {@link ValidationError} naming each field.
 */
export function parseFeedChange(input: unknown, options: { readonly plainEntries: boolean }): FeedChange {
  const typed = typeof input === 'object' && input !== null && !Array.isArray(input) && 'type' in input;
  if (!typed && options.plainEntries) return { kind: 'entry', entry: parseInput(NewMediaLogEntrySchema, input, 'body') };
  const message = parseInput(FeedMessageSchema, input, 'body');
  if (message.type === 'media-request') return { kind: 'entry', entry: message.entry };
  return { kind: 'status', id: message.id, field: message.field, value: message.value, at: message.at };
}

/** Parse a message body (JSON text), as the queue delivers it. */
export function parseFeedBody(body: string, options: { readonly plainEntries: boolean }): FeedChange {
  if (Buffer.byteLength(body, 'utf8') > MAX_MESSAGE_BYTES) {
    throw new ValidationError([{ name: 'body', reason: `Must be at most ${MAX_MESSAGE_BYTES} bytes.` }]);
  }
  let input: unknown;
  try {
    input = JSON.parse(body);
  } catch {
    throw new ValidationError([{ name: 'body', reason: 'Not a JSON value.' }], 'The message is not valid JSON.');
  }
  return parseFeedChange(input, options);
}
