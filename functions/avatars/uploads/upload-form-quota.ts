import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { usersKeys } from '../../shared/tables/users-keys';
import { UPLOAD_FORM_COUNTER } from '../avatar-grants';
import { uploadFormsExhausted } from '../errors';

/**
 * How many upload forms a user has been given today (UTC), counted on its profile item: a day and
 * a count beside the profile's fields, which change neither its version nor its ETag. Each form
 * can store one file of up to the byte cap, kept until the lifecycle rule removes it, so bounding
 * the forms bounds what one user's files can cost (docs/frontend.md, "An avatar from the user's own file").
 *
 * A form is taken with one conditional write: the count goes up while it is today's and below the
 * bound. When that fails, the count is either another day's (the first form of a day starts it
 * again at 1, with a write conditional on that) or today's and at the bound. Concurrent requests
 * cannot overshoot: DynamoDB applies each conditional write atomically
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.ConditionExpressions.html).
 */
export class UploadFormQuota {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** Forms a user is given per day. */
    private readonly perDay: number,
  ) {}

  /**
   * Counts one form for user `userId` at `now`.
   *
   * @throws ProblemError 429 `upload_forms_exhausted` when the user has had its forms of the day.
   */
  public async take(userId: number, now = new Date()): Promise<void> {
    const day = now.toISOString().slice(0, 10);
    if (await this.countOn(userId, day)) return;
    if (await this.startDay(userId, day)) return;
    // Another request started the day in between: count on it, or find it at the bound.
    if (await this.countOn(userId, day)) return;
    throw uploadFormsExhausted(now);
  }

  /** One more form on `day`, if the count is that day's and below the bound. */
  private countOn(userId: number, day: string): Promise<boolean> {
    return this.updateCounter(userId, 'ADD #count :one', '#day = :day AND #count < :perDay', { ':one': 1, ':day': day, ':perDay': this.perDay });
  }

  /** The first form of `day`, if the profile exists and its count is of another day (or none). */
  private startDay(userId: number, day: string): Promise<boolean> {
    return this.updateCounter(userId, 'SET #day = :day, #count = :one', 'attribute_exists(pk) AND (attribute_not_exists(#day) OR #day <> :day)', { ':one': 1, ':day': day });
  }

  /** Applies `update` to the counter of user `userId`'s profile if `condition` holds; false when it does not. */
  private async updateCounter(userId: number, update: string, condition: string, values: Record<string, unknown>): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: usersKeys.profile(userId),
          UpdateExpression: update,
          ConditionExpression: condition,
          ExpressionAttributeNames: { '#day': UPLOAD_FORM_COUNTER.day, '#count': UPLOAD_FORM_COUNTER.count },
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}
