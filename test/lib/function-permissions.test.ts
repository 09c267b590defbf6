import { usersTable } from '../../functions/shared/tables/users-table';
import { authorizerFunction } from '../../functions/auth/authorizer-function';
import { routes } from '../../functions/routes';
import type { DataGrants, TableGrantKey } from '../../functions/shared/deployment/data-grants';
import { routeGrants } from '../../functions/shared/deployment/route-grants';
import { avatarBucket } from '../../functions/shared/storage/avatar-bucket';
import { USER_SUBJECT_INDEX } from '../../functions/shared/tables/users-table';
import { tables } from '../../functions/shared/tables/index';
import { actionsOf, resourcesOf, statementsOfRole, type RoleStatement } from './grant-coverage/policy-simulator';
import { logicalIdAt, sampleRoutes, synthesizeStack, tableLogicalId, type Resources } from './stack-fixture';

/**
 * Each function's role, as synthesized: the actions of its grants on the resources they name and
 * nothing else (issue 16, item 8: per-function action lists instead of read/write levels). Whether
 * those lists are enough is function-grants-coverage.test.ts's question; this file pins their shape.
 */

const table = [...routes, ...sampleRoutes()];
const { stack, template } = synthesizeStack({}, { routes: table });
const resources = template.toJSON().Resources as Resources;

/** Each table's grant key and logical id (`MediaLog` → `mediaLog`). */
const tableIds = tables.map((definition) => ({
  key: (definition.id.charAt(0).toLowerCase() + definition.id.slice(1)) as TableGrantKey,
  tableId: tableLogicalId(stack, definition),
}));
const bucketId = logicalIdAt(stack, ['AvatarStorage', 'Avatars']);
const usersTableId = tableLogicalId(stack, usersTable);
const idempotencyTableId = logicalIdAt(stack, ['Data', 'Idempotency']);

const statementsAt = (path: readonly string[]): RoleStatement[] => statementsOfRole(resources, logicalIdAt(stack, path));
const on = (prefix: string) => (statements: RoleStatement[]) => statements.filter((statement) => actionsOf(statement).some((action) => action.startsWith(prefix)));
const dynamodb = on('dynamodb:');
const s3 = on('s3:');

/** `action on resource` for every pair a set of statements grants. */
const pairs = (statements: RoleStatement[]): string[] =>
  [...new Set(statements.flatMap((statement) => actionsOf(statement).flatMap((action) => resourcesOf(statement).map((resource) => `${action} on ${resource}`))))].sort();

/** The pairs a function's grants name: its table actions on the table or on each named index. */
function declaredPairs(grants: DataGrants): string[] {
  const declared = tableIds.flatMap(({ key, tableId }) =>
    (grants[key] ?? []).flatMap((access) =>
      access.actions.flatMap((action) => (access.indexes ?? [undefined]).map((index) => `dynamodb:${action} on <${tableId}>${index === undefined ? '' : `/index/${index}`}`)),
    ),
  );
  return [...new Set(declared)].sort();
}

const functionsUnderTest: [string, DataGrants, string[]][] = [
  ...table.map((route): [string, DataGrants, string[]] => [route.name, routeGrants(route), ['Routes', route.name, 'Role']]),
  [authorizerFunction.name, authorizerFunction.grants, ['Auth', 'AuthorizerFunction', 'Role']],
];

describe.each(functionsUnderTest)('the %s function role', (_name, grants, rolePath) => {
  const statements = statementsAt(rolePath);

  it('allows only, and never by a wildcard action', () => {
    expect(statements.every((statement) => statement.Effect === 'Allow')).toBe(true);
    expect(statements.flatMap(actionsOf).filter((action) => action.includes('*'))).toEqual([]);
  });

  it('has exactly the DynamoDB actions of its grants, on its tables and named indexes', () => {
    expect(pairs(dynamodb(statements))).toEqual(declaredPairs(grants));
  });

  it('never scans, never writes in batches, never names index/*', () => {
    expect(dynamodb(statements).flatMap(actionsOf).filter((action) => /Scan|BatchWriteItem/.test(action))).toEqual([]);
    expect(dynamodb(statements).flatMap(resourcesOf).filter((resource) => resource.includes('index/*'))).toEqual([]);
  });

  it('touches only the avatar and upload prefixes of the bucket, with exactly the object actions of its grants on each', () => {
    const onPrefix = (actions: DataGrants['avatars'], prefix: string) => (actions ?? []).map((action) => `s3:${action} on <${bucketId}>/${prefix}*`);
    expect(pairs(s3(statements))).toEqual([...onPrefix(grants.avatars, avatarBucket.objectPrefix), ...onPrefix(grants.uploads, avatarBucket.uploadPrefix)].sort());
  });

  it('writes to its own log group, nothing else (untraced by default)', () => {
    const others = statements.flatMap(actionsOf).filter((action) => !/^(dynamodb|s3):/.test(action));
    expect(others.sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
  });
});

describe('the narrowest grants', () => {
  const onTable = (tableId: string) => (statement: RoleStatement) => resourcesOf(statement).every((resource) => resource === `<${tableId}>`);
  const writes = (statements: RoleStatement[]) =>
    dynamodb(statements).filter((statement) => onTable(usersTableId)(statement) && actionsOf(statement).some((action) => /(Put|Update|Delete|BatchWrite)Item|ConditionCheck/.test(action)));
  const keyedRoutes = routes.filter((route) => route.idempotencyKey === true).map((route) => route.name).sort();
  const onIdempotencyTable = (statements: RoleStatement[]) => dynamodb(statements).filter((statement) => resourcesOf(statement).includes(`<${idempotencyTableId}>`));

  it('every unsafe route takes an Idempotency-Key, and exactly those roles may write the idempotency table', () => {
    expect(keyedRoutes).toEqual(routes.filter((route) => route.method !== 'GET').map((route) => route.name).sort());
    const granted = routes.filter((route) => onIdempotencyTable(statementsAt(['Routes', route.name, 'Role'])).length > 0).map((route) => route.name);
    expect(granted.sort()).toEqual(keyedRoutes);
  });

  it.each(functionsUnderTest)('%s may only put, update and delete request records of the idempotency table, if granted it at all', (_name, grants, rolePath) => {
    const statements = onIdempotencyTable(statementsAt(rolePath));
    const keyed = {
      Effect: 'Allow',
      Action: ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      Resource: { 'Fn::GetAtt': [idempotencyTableId, 'Arn'] },
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['request#*'] } },
    };
    expect(statements).toEqual(grants.idempotency === undefined ? [] : [keyed]);
  });

  it.each([['updateCurrentUser'], ['updateUser']])('%s may only UpdateItem user partitions of the users table: no PutItem, DeleteItem or index', (name) => {
    expect(writes(statementsAt(['Routes', name, 'Role']))).toEqual([
      {
        Effect: 'Allow',
        Action: 'dynamodb:UpdateItem',
        Resource: { 'Fn::GetAtt': [usersTableId, 'Arn'] },
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['USER#*'] }, StringEqualsIfExists: { 'dynamodb:ReturnValues': ['ALL_NEW'] } },
      },
    ]);
  });

  it('the authorizer may Query the subject index, and nothing else of any table', () => {
    expect(dynamodb(statementsAt(['Auth', 'AuthorizerFunction', 'Role']))).toEqual([
      { Effect: 'Allow', Action: 'dynamodb:Query', Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [usersTableId, 'Arn'] }, `/index/${USER_SUBJECT_INDEX}`]] } },
    ]);
  });

  it.each([['uploadCurrentAvatar'], ['uploadUserAvatar'], ['deleteCurrentAvatar']])(
    '%s puts and deletes avatar records only inside a transaction, naming only avatar attributes, and updates only the profile\'s avatar fields',
    (name) => {
      const conditions = writes(statementsAt(['Routes', name, 'Role'])).map((statement) => [actionsOf(statement).sort(), statement.Condition]);
      const recordWrites = conditions.find(([actions]) => (actions as string[]).includes('dynamodb:DeleteItem'));
      const profileUpdate = conditions.find(([actions]) => (actions as string[]).includes('dynamodb:UpdateItem'));
      expect(recordWrites?.[1]).toMatchObject({
        'ForAnyValue:StringEquals': { 'dynamodb:EnclosingOperation': ['TransactWriteItems'] },
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'userId', 'avatarId', 'created', 'objectKey', 'provider'] },
      });
      expect(profileUpdate?.[1]).toMatchObject({
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'currentAvatarId', 'updated', 'version'] },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
      });
      expect(conditions).toHaveLength(2);
    },
  );
});

describe('the function roles', () => {
  it('carry no managed policies', () => {
    const roles = Object.entries(resources).filter(([id, resource]) => resource.Type === 'AWS::IAM::Role' && !id.includes('CloudWatchRole'));
    expect(roles.length).toBeGreaterThan(table.length);
    for (const [, role] of roles) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });
});
