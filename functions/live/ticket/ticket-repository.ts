import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LIVE_CONNECTION_ATTRIBUTES } from '../../shared/tables/live-connections-table';
import { liveKeys } from '../model/live-keys';

/** What a ticket is bound to: its user, and the `exp` of the token that obtained it (epoch seconds). */
export interface TicketGrant {
  readonly userId: number;
  readonly tokenExpires: number;
}

const expiry = LIVE_CONNECTION_ATTRIBUTES.expiresAt;

/** Tickets in the live connections table, by hash: stored once, taken once. */
export class TicketRepository {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Store a new ticket, valid until `expiresAt` (epoch seconds); TTL removes it some time after. */
  public async store(hash: string, grant: TicketGrant, expiresAt: number): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...liveKeys.ticket(hash), userId: grant.userId, tokenExpires: grant.tokenExpires, [expiry]: expiresAt },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  /**
   * Take a ticket: delete it if it is there and valid at `nowSeconds`, in one conditional write, so
   * that of two connects with one ticket exactly one gets it. Undefined: unknown, used or expired.
   */
  public async take(hash: string, nowSeconds: number): Promise<TicketGrant | undefined> {
    try {
      const { Attributes } = await this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: liveKeys.ticket(hash),
          ConditionExpression: '#expiry > :now',
          ExpressionAttributeNames: { '#expiry': expiry },
          ExpressionAttributeValues: { ':now': nowSeconds },
          ReturnValues: 'ALL_OLD',
        }),
      );
      return Attributes === undefined ? undefined : { userId: Attributes.userId as number, tokenExpires: Attributes.tokenExpires as number };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }
}
