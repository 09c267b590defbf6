import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse } from 'aws-lambda';
import { countedEntryOfItem, entryFromItem } from '../../../functions/media-log/model/entry-item';
import type { CountedEntry } from '../../../functions/media-log/model/counters';
import { ENTRY_KEY_PREFIX } from '../../../functions/media-log/model/keys';
import { handler } from '../../../functions/media-log/feed/ingest-media-log';
import { STATUS_FIELDS, type MediaStatus, type StatusField } from '../../../functions/media-log/model/entry-fields';
import type { MediaLogEntry } from '../../../functions/media-log/model/schemas';
import { getDocumentClient } from '../../../functions/shared/aws/clients';
import { tableName } from '../../../functions/shared/config/data-config';
import { mediaLogTable } from '../../../functions/shared/tables/media-log-table';
import { lambdaContext } from '../../../local/gateway/lambda-context';
import { generateSqsEvent } from '../../../local/invoke/sqs-event';
import type { Caller } from '../../../functions/shared/access/roles';
import { invoke } from '../../harness/invoke';
import { foldLog } from '../../harness/media-log';

/** What the tests of the feed send and check. */

/** A `media-request` message for `entry` (statuses left out are `pending`). */
export function requestMessage(entry: Partial<MediaLogEntry> & Pick<MediaLogEntry, 'id' | 'send' | 'url' | 'user-id'>): object {
  return { type: 'media-request', entry };
}

/** A `status` message. */
export function statusMessage(id: string, field: StatusField, value: MediaStatus, at: string): object {
  return { type: 'status', id, field, value, at };
}

/** A delivered message: its SQS message id and body. */
export interface Delivered {
  readonly messageId: string;
  readonly body: string;
}

/** Runs the consumer on one SQS event holding `messages` (objects are sent as JSON, strings as they are). */
export async function deliver(messages: readonly (object | string)[]): Promise<{ response: SQSBatchResponse; records: Delivered[] }> {
  const event = generateSqsEvent(messages.map((message) => (typeof message === 'string' ? message : JSON.stringify(message))), 'MediaLogEvents');
  const response = await handler(event, lambdaContext('ingestMediaLog', 60_000));
  return { response, records: event.Records.map(({ messageId, body }) => ({ messageId, body })) };
}

/** The bodies of the records a batch response names for retry. */
export function failedBodies(response: SQSBatchResponse, records: readonly Delivered[]): string[] {
  const failed = new Set(response.batchItemFailures.map((failure) => failure.itemIdentifier));
  return records.filter((record) => failed.has(record.messageId)).map((record) => record.body);
}

/** Every entry item stored in the media log table, read by a full scan (not through any index or counter). */
async function scanEntryItems(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await getDocumentClient().send(
      new ScanCommand({ TableName: tableName(mediaLogTable), FilterExpression: 'begins_with(pk, :entry)', ExpressionAttributeValues: { ':entry': ENTRY_KEY_PREFIX }, ExclusiveStartKey: start }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return items;
}

/** Every entry stored in the media log table, read by a full scan. */
export async function scanEntries(): Promise<MediaLogEntry[]> {
  return (await scanEntryItems()).map(entryFromItem);
}

/** Every entry stored, with the family it is counted in: what the counters must add up to. */
export async function scanCountedEntries(): Promise<CountedEntry[]> {
  return (await scanEntryItems()).map(countedEntryOfItem);
}

/**
 * One page of GET /media/log as `caller`, once the fold has counted every change stored so far
 * (unless `fold` is false: a test that ran the fold its own way checks what that left).
 */
export async function listLog(caller: Caller, query: string, fold = true): Promise<{ log: MediaLogEntry[]; total: number }> {
  if (fold) await foldLog();
  const response = await invoke('listMediaLog', { caller, query });
  if (response.status !== 200) throw new Error(`GET /media/log?${query} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return { log: response.body.log, total: response.body.pagination.total };
}

/** A status filter of the listing: one field, one value. */
export interface StatusFilter {
  readonly field: StatusField;
  readonly value: MediaStatus;
}

/** Every field with every value that `entries` hold in it: the filters worth checking. */
export function filtersOf(entries: readonly MediaLogEntry[]): StatusFilter[] {
  return STATUS_FIELDS.flatMap((field) => [...new Set(entries.map((entry) => entry[field]))].map((value) => ({ field, value })));
}

/** A feed that goes on until stopped: see {@link busyFeed}. */
export interface BusyFeed {
  /** Resolves once the first round is written (and `after` has run): the feed is under way. */
  readonly firstRound: Promise<void>;
  /** Stop after the round under way; resolves to the rounds sent. */
  stop(): Promise<number>;
}

/**
 * A feed that keeps changing the `status-ffscan` of `entries` (error and success in turn, each
 * round a second later in feed time) until stopped, running `after` after each round: the busy
 * counters a recount must leave alone.
 */
export function busyFeed(entries: readonly MediaLogEntry[], after?: () => Promise<unknown>): BusyFeed {
  let writing = true;
  let rounds = 0;
  let firstRoundDone: () => void = () => undefined;
  const firstRound = new Promise<void>((resolve) => (firstRoundDone = resolve));
  const running = (async () => {
    while (writing) {
      rounds += 1;
      const at = new Date(Date.parse('2026-06-01T00:00:00Z') + rounds * 1000).toISOString();
      await deliver(entries.map((entry) => statusMessage(entry.id, 'status-ffscan', rounds % 2 === 0 ? 'success' : 'error', at)));
      await after?.();
      firstRoundDone();
    }
  })();
  return {
    firstRound,
    stop: async () => {
      writing = false;
      await running;
      return rounds;
    },
  };
}
