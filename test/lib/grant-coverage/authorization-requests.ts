import type { RecordedCall } from './sdk-recorder';

/**
 * What IAM is asked for a recorded request: each action with its resource and the values of the
 * condition keys the request carries, as DynamoDB and S3 document them. A transaction is the
 * actions of its items, each with `dynamodb:EnclosingOperation`
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis-iam.html);
 * `dynamodb:Attributes` are the attributes a request names or gets back, an unprojected read or an
 * `ALL_*` return value standing for "every attribute", which no attribute list allows
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html).
 * Resources are written as the simulator writes the template's: `<LogicalId>` for an ARN.
 */

/** One authorization IAM makes for a request. */
export interface AuthorizationRequest {
  readonly action: string;
  readonly resource: string;
  /** Condition key → the request's values; a key the request does not carry is absent. */
  readonly context: Readonly<Record<string, readonly string[]>>;
}

/** The deployed names of the data a request can address. */
export interface DataNames {
  /** Table name → its logical id and partition key attribute. */
  readonly tables: ReadonlyMap<string, { readonly logicalId: string; readonly partitionKey: string }>;
  readonly bucket: { readonly name: string; readonly logicalId: string };
}

/** What stands for "every attribute" in `dynamodb:Attributes`: no policy lists it. */
export const EVERY_ATTRIBUTE = '<every attribute>';

const OPERATORS = new Set(['SET', 'ADD', 'REMOVE', 'DELETE', 'AND', 'OR', 'NOT', 'BETWEEN', 'IN']);
const FUNCTIONS = new Set(['attribute_exists', 'attribute_not_exists', 'attribute_type', 'begins_with', 'contains', 'size', 'if_not_exists', 'list_append']);

type Input = Readonly<Record<string, any>>;

/** The attribute names an expression uses: its `#names` resolved, bare names kept, values and keywords left out. */
function expressionAttributes(expression: string | undefined, names: Record<string, string> | undefined): string[] {
  const tokens = expression?.match(/[#:]?[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
  return tokens.flatMap((token) => {
    if (token.startsWith(':')) return [];
    if (token.startsWith('#')) return [names?.[token] ?? token];
    return OPERATORS.has(token.toUpperCase()) || FUNCTIONS.has(token) ? [] : [token];
  });
}

function tableOf(names: DataNames, tableName: string) {
  const table = names.tables.get(tableName);
  if (!table) throw new Error(`A request names the table "${tableName}", which the stack does not deploy.`);
  return table;
}

/** The attributes of a request: what its keys, items and expressions name; every one for an unprojected read or an ALL_* return. */
function attributesOf(input: Input, ...named: (readonly string[])[]): string[] {
  const all = [...named.flat(), ...expressionAttributes(input.ConditionExpression, input.ExpressionAttributeNames)];
  if (/^ALL_/.test(input.ReturnValues ?? '')) all.push(EVERY_ATTRIBUTE);
  return [...new Set(all)];
}

function projected(input: Input, reads: boolean): string[] {
  if (input.ProjectionExpression) return expressionAttributes(input.ProjectionExpression, input.ExpressionAttributeNames);
  return reads && input.Select !== 'COUNT' ? [EVERY_ATTRIBUTE] : [];
}

/** A key value as sent: plain from the document client, `{ S: … }` or `{ N: … }` from a low-level client (Powertools Idempotency's). */
function keyValue(value: unknown): string {
  if (typeof value === 'object' && value !== null) {
    const { S, N } = value as { S?: unknown; N?: unknown };
    if (S !== undefined || N !== undefined) return String(S ?? N);
  }
  return String(value);
}

function itemRequest(action: string, input: Input, names: DataNames, extra: Record<string, readonly string[]> = {}): AuthorizationRequest {
  const table = tableOf(names, input.TableName);
  const key = input.Key ?? input.Item ?? {};
  const attributes =
    action === 'dynamodb:UpdateItem'
      ? attributesOf(input, Object.keys(key), expressionAttributes(input.UpdateExpression, input.ExpressionAttributeNames))
      : attributesOf(input, Object.keys(key), action === 'dynamodb:GetItem' ? projected(input, true) : []);
  return {
    action,
    resource: `<${table.logicalId}>`,
    context: {
      'dynamodb:LeadingKeys': [keyValue(key[table.partitionKey])],
      'dynamodb:Attributes': attributes,
      ...(input.ReturnValues ? { 'dynamodb:ReturnValues': [input.ReturnValues] } : {}),
      ...extra,
    },
  };
}

function queryRequest(input: Input, names: DataNames): AuthorizationRequest {
  const table = tableOf(names, input.TableName);
  // Every key condition of this service starts with the partition key's equality.
  const match = /^\s*(#?\w+)\s*=\s*(:\w+)/.exec(input.KeyConditionExpression ?? '');
  if (!match?.[2]) throw new Error(`A Query without a partition key equality first: ${input.KeyConditionExpression}`);
  const attributes = [
    ...expressionAttributes(input.KeyConditionExpression, input.ExpressionAttributeNames),
    ...expressionAttributes(input.FilterExpression, input.ExpressionAttributeNames),
    ...projected(input, true),
  ];
  return {
    action: 'dynamodb:Query',
    resource: input.IndexName ? `<${table.logicalId}>/index/${input.IndexName}` : `<${table.logicalId}>`,
    context: { 'dynamodb:LeadingKeys': [String(input.ExpressionAttributeValues?.[match[2]])], 'dynamodb:Attributes': [...new Set(attributes)] },
  };
}

function batchGetRequests(input: Input, names: DataNames): AuthorizationRequest[] {
  return Object.entries(input.RequestItems as Record<string, Input>).map(([tableName, request]) => {
    const table = tableOf(names, tableName);
    const keys = request.Keys as Record<string, unknown>[];
    return {
      action: 'dynamodb:BatchGetItem',
      resource: `<${table.logicalId}>`,
      context: {
        'dynamodb:LeadingKeys': keys.map((key) => String(key[table.partitionKey])),
        'dynamodb:Attributes': [...new Set([...keys.flatMap((key) => Object.keys(key)), ...projected(request, true)])],
      },
    };
  });
}

const TRANSACT_ACTIONS: Readonly<Record<string, string>> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem', Get: 'GetItem' };

function transactionRequests(operation: string, input: Input, names: DataNames): AuthorizationRequest[] {
  return (input.TransactItems as Record<string, Input>[]).map((item) => {
    const [kind, part] = Object.entries(item)[0] ?? [];
    const action = kind === undefined ? undefined : TRANSACT_ACTIONS[kind];
    if (!action || !part) throw new Error(`An unknown transaction item: ${JSON.stringify(item)}`);
    return itemRequest(`dynamodb:${action}`, part, names, { 'dynamodb:EnclosingOperation': [operation] });
  });
}

function dynamodbRequests(call: RecordedCall, names: DataNames): AuthorizationRequest[] {
  const { operation, input } = call;
  if (operation === 'Query') return [queryRequest(input, names)];
  if (operation === 'BatchGetItem') return batchGetRequests(input, names);
  if (operation === 'TransactWriteItems' || operation === 'TransactGetItems') return transactionRequests(operation, input, names);
  if (['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'].includes(operation)) return [itemRequest(`dynamodb:${operation}`, input, names)];
  // Anything else (Scan, BatchWriteItem, DescribeTable, …) asks for its own action on the table.
  return [{ action: `dynamodb:${operation}`, resource: `<${tableOf(names, input.TableName ?? Object.keys(input.RequestItems ?? {})[0]).logicalId}>`, context: {} }];
}

function s3Requests(call: RecordedCall, names: DataNames): AuthorizationRequest[] {
  const { operation, input } = call;
  if (input.Bucket !== names.bucket.name) throw new Error(`A request names the bucket "${input.Bucket}", which the stack does not deploy.`);
  const bucket = `<${names.bucket.logicalId}>`;
  if (operation === 'ListObjectsV2' || operation === 'ListObjects') return [{ action: 's3:ListBucket', resource: bucket, context: { 's3:prefix': [input.Prefix ?? ''] } }];
  const action = operation === 'HeadObject' ? 'GetObject' : operation;
  return [{ action: `s3:${action}`, resource: `${bucket}/${input.Key}`, context: {} }];
}

/** The authorizations IAM makes for one recorded request. */
export function authorizationRequests(call: RecordedCall, names: DataNames): AuthorizationRequest[] {
  return call.service === 'dynamodb' ? dynamodbRequests(call, names) : s3Requests(call, names);
}
