import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { MEDIA_LOG_ATTRIBUTES } from '../../shared/tables/media-log-table';
import { statusPartition } from '../model/entry-item';
import { ContendedWriteError, UnknownEntryError } from '../model/errors';
import { mediaLogKeys, STATUS_STORAGE } from '../model/keys';
import type { StatusChange } from './feed-messages';

/** What a status change did: changed the entry, or nothing (a duplicate, or older than the stored status). */
export type StatusOutcome = 'applied' | 'ignored';

/** A status field's value and when it was set, as stored. */
interface Stamped {
  readonly value: string;
  readonly at: string;
}

/**
 * Whether `change` wins over `stored`: a later `at`, or at the same `at` the greater value by name.
 * Every change either wins or not whatever arrived before it, so the stored status is the greatest
 * change ever delivered: the same for any delivery order, and a duplicate never wins.
 */
export function supersedes(change: Stamped, stored: Stamped): boolean {
  return change.at > stored.at || (change.at === stored.at && change.value > stored.value);
}

/**
 * Reads of a refused change before it counts as settled: each read that finds the change winning
 * means the entry was stored or changed between the write and the read, which cannot go on long.
 */
const MAX_ATTEMPTS = 5;

/** What a status change writes on its entry item: attributes set, and attributes removed. */
export interface StatusUpdate {
  readonly set: Readonly<Record<string, string>>;
  readonly remove: readonly string[];
}

/**
 * What `change` writes on its entry: the field's value, when it changed, and the field's status
 * index partition (the value's shard), or no partition when the value has no index items
 * (`success`), so that the entry leaves that index. Nothing else of the item changes, so a status
 * change writes no index item but its own field's, and that one only when the value moves in or
 * out of an indexed value (DESIGN.md 7b, round four). The key-heat bench plays the design rate
 * through this same function.
 */
export function statusUpdate(change: StatusChange): StatusUpdate {
  const storage = STATUS_STORAGE[change.field];
  const partitionAttribute = MEDIA_LOG_ATTRIBUTES.partition[storage.index];
  const partition = statusPartition(change.id, change.value);
  return {
    set: { [storage.attribute]: change.value, [storage.changedAt]: change.at, ...(partition === undefined ? {} : { [partitionAttribute]: partition }) },
    remove: partition === undefined ? [partitionAttribute] : [],
  };
}

/**
 * The one write of a status change: the entry's update ({@link statusUpdate}) on condition that it
 * exists and the change wins over the stored status ({@link supersedes}). The feed sends it, and
 * the feed's floor in the import bench sends it alone, without the feed's read-back of a refusal.
 */
export function statusUpdateCommand(tableName: string, change: StatusChange): UpdateCommand {
  const storage = STATUS_STORAGE[change.field];
  const { set, remove } = statusUpdate(change);
  const names: Record<string, string> = {};
  const values: Record<string, string> = {};
  const sets = Object.entries(set).map(([attribute, value], index) => {
    names[`#s${index}`] = attribute;
    values[`:s${index}`] = value;
    return `#s${index} = :s${index}`;
  });
  const removes = remove.map((attribute, index) => {
    names[`#r${index}`] = attribute;
    return `#r${index}`;
  });
  names['#value'] = storage.attribute;
  names['#at'] = storage.changedAt;
  return new UpdateCommand({
    TableName: tableName,
    Key: mediaLogKeys.entry(change.id),
    UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
    // The rule of supersedes() as DynamoDB evaluates it; every entry item carries its statuses' times.
    ConditionExpression: 'attribute_exists(pk) AND (#at < :at OR (#at = :at AND #value < :value))',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: { ...values, ':value': change.value, ':at': change.at },
  });
}

/**
 * Applies status changes of the media pipeline feed to stored entries (DESIGN.md section 7b). One
 * change is one conditional update of its entry ({@link statusUpdate}), on condition that the entry
 * exists and the change wins over the stored status ({@link supersedes}, evaluated by DynamoDB on
 * the stored item, so concurrent changes of one field cannot both win). The stream carries the old
 * and new image to the fold, which moves the entry between its counters' status combinations.
 */
export class StatusWriter {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Apply one change; an entry not stored is an {@link UnknownEntryError}. */
  public async apply(change: StatusChange): Promise<StatusOutcome> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.client.send(statusUpdateCommand(this.tableName, change));
        return 'applied';
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
      // Refused: find out why. Only a refusal the stored item still explains is final.
      const stored = await this.read(change);
      if (stored === null) throw new UnknownEntryError(change.id);
      if (!supersedes(change, stored)) return 'ignored';
      if (attempt >= MAX_ATTEMPTS) throw new ContendedWriteError(`The status change of entry ${change.id} was refused ${attempt} times while it wins over the stored status.`);
    }
  }

  /** The stored value of the change's field and when it was set, or null when the entry is not stored. */
  private async read(change: StatusChange): Promise<Stamped | null> {
    const storage = STATUS_STORAGE[change.field];
    const { Item } = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: mediaLogKeys.entry(change.id),
        ConsistentRead: true,
        ProjectionExpression: '#value, #at',
        ExpressionAttributeNames: { '#value': storage.attribute, '#at': storage.changedAt },
      }),
    );
    return Item === undefined ? null : { value: String(Item[storage.attribute]), at: String(Item[storage.changedAt]) };
  }
}
