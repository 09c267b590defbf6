import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { MEDIA_LOG_ATTRIBUTES } from '../../shared/tables/media-log-table';
import { mediaLogKeys, STATUS_STORAGE } from '../model/keys';
import type { StatusChange } from './feed-messages';

/** What a status change did: changed the entry, or nothing (a duplicate, or older than the stored status). */
export type StatusOutcome = 'applied' | 'ignored';

/** A status change for an entry that is not stored (yet): the feed retries it until its request arrives. */
export class UnknownEntryError extends Error {
  public constructor(public readonly id: string) {
    super(`No entry with id ${id} is stored (yet).`);
    this.name = 'UnknownEntryError';
  }
}

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

/**
 * Applies status changes of the media pipeline feed to stored entries (DESIGN.md section 7b). One
 * change is one conditional update of its entry: the field, when it changed, and its status
 * partition, on condition that the entry exists and the change wins over the stored status
 * ({@link supersedes}, evaluated by DynamoDB on the stored item, so concurrent changes of one field
 * cannot both win). The stream carries the old and new image to the fold, which moves the entry
 * between its counters' status combinations.
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
        await this.client.send(this.update(change));
        return 'applied';
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
      // Refused: find out why. Only a refusal the stored item still explains is final.
      const stored = await this.read(change);
      if (stored === null) throw new UnknownEntryError(change.id);
      if (!supersedes(change, stored)) return 'ignored';
      if (attempt >= MAX_ATTEMPTS) throw new Error(`The status change of entry ${change.id} was refused ${attempt} times while it wins over the stored status.`);
    }
  }

  private update(change: StatusChange): UpdateCommand {
    const storage = STATUS_STORAGE[change.field];
    return new UpdateCommand({
      TableName: this.tableName,
      Key: mediaLogKeys.entry(change.id),
      UpdateExpression: 'SET #value = :value, #at = :at, #partition = :partition',
      // The rule of supersedes() as DynamoDB evaluates it; every entry item carries its statuses' times.
      ConditionExpression: 'attribute_exists(pk) AND (#at < :at OR (#at = :at AND #value < :value))',
      ExpressionAttributeNames: { '#value': storage.attribute, '#at': storage.changedAt, '#partition': MEDIA_LOG_ATTRIBUTES.partition[storage.partition] },
      ExpressionAttributeValues: { ':value': change.value, ':at': change.at, ':partition': mediaLogKeys.status(change.value) },
    });
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
