import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { idempotencyTable } from '../../functions/shared/tables/idempotency-table';
import type { GatewayUnderTest } from '../harness/local-gateway';
import type { TestUser } from '../harness/users';

/** What the idempotency tests share: keyed calls over HTTP, and the records as stored. */

/** A fresh key, as a client makes one. */
export function freshKey(): string {
  return `"${crypto.randomUUID()}"`;
}

/** A JSON request with a key (or without one when `key` is undefined), as `user`. */
export function keyedCall(gateway: GatewayUnderTest, user: TestUser, method: string, path: string, key: string | undefined, body?: unknown, headers: Record<string, string> = {}) {
  return gateway.call(path, {
    method,
    token: user.token,
    headers: { ...(key === undefined ? {} : { 'Idempotency-Key': key }), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** Every record of the idempotency table, as stored. */
export async function idempotencyRecords(): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await getDocumentClient().send(new ScanCommand({ TableName: tableName(idempotencyTable), ConsistentRead: true }));
  return Items;
}
