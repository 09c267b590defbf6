import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Role, UserStatus } from '../shared/access/roles';
import { readProfile, type StoredItem } from '../shared/tables/user-partition';
import { USER_SUBJECT_INDEX } from '../shared/tables/users-table';
import { AmbiguousSubjectError } from './errors';

/** What the authorizer needs to know about a token's subject. */
export interface AuthIdentity {
  readonly id: number;
  readonly role: Role;
  readonly status: UserStatus;
  readonly parentId: number | null;
}

/**
 * Who a token's subject is, and who a caller is now: the two reads of the users table that
 * authentication makes. The authorizer maps a subject through the subject index (its cached answer
 * is reused for up to the cache TTL); every route then reads the caller's stored profile.
 */
export class IdentityRepository {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * The user a token subject answers to, or null. A subject claimed by two records (which the
   * subject claims of user creation prevent) is refused rather than resolved to either.
   *
   * @throws AmbiguousSubjectError when more than one user answers to the subject.
   */
  public async findBySubject(subject: string): Promise<AuthIdentity | null> {
    const { Items = [] } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: USER_SUBJECT_INDEX,
        KeyConditionExpression: 'subject = :subject',
        ExpressionAttributeValues: { ':subject': subject },
        // Two are enough to tell "one user" from "more than one".
        Limit: 2,
      }),
    );
    if (Items.length > 1) throw new AmbiguousSubjectError();
    const item = Items[0];
    if (!item) return null;
    return { id: item.id as number, role: item.role as Role, status: item.status as UserStatus, parentId: (item.parentId as number | null) ?? null };
  }

  /** The stored profile item of user `id`, or null when the user is gone. Strongly consistent. */
  public async storedProfile(id: number): Promise<StoredItem | null> {
    return readProfile(this.client, this.tableName, id);
  }
}
