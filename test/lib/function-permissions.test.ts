import { routes } from '../../functions/routes';
import { type RouteDefinition } from '../../functions/shared/http/route-definition';
import { authorizerFunction } from '../../functions/auth/authorizer-function';
import { avatarBucket } from '../../functions/shared/storage/avatar-bucket';
import { tables } from '../../functions/shared/tables/index';
import { TABLE_READ_ACTIONS, TABLE_WRITE_ACTIONS } from '../../lib/data-grants';
import { logicalIdAt, sampleRoutes, synthesizeStack } from './stack-fixture';

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

const table = [...routes, ...sampleRoutes()];
const { stack, template } = synthesizeStack({}, { routes: table });
const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;

function statementsOf(roleId: string): Statement[] {
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(`"${roleId}"`))
    .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[]);
}

const actionsOf = (statements: Statement[]): string[] => statements.flatMap((s) => [s.Action].flat());
const resourcesOf = (statements: Statement[], prefix: string): string[] =>
  statements
    .filter((s) => actionsOf([s]).some((action) => action.startsWith(prefix)))
    .flatMap((s) => [s.Resource].flat())
    .map((resource) => JSON.stringify(resource));

/** Each table with the route-table grant key that names it (`MediaLog` → `mediaLog`). */
const tableGrants = tables.map((definition) => ({
  key: (definition.id.charAt(0).toLowerCase() + definition.id.slice(1)) as 'users' | 'mediaLog',
  tableId: logicalIdAt(stack, ['Data', definition.id]),
}));
const tableIdIn = (resource: string): string => tableGrants.find(({ tableId }) => resource.includes(`"${tableId}"`))?.tableId ?? `no table: ${resource}`;
const bucketId = logicalIdAt(stack, ['AvatarStorage', 'Avatars']);

const functionsUnderTest: [string, RouteDefinition['grants'], string[]][] = [
  ...table.map((route): [string, RouteDefinition['grants'], string[]] => [route.name, route.grants, ['Routes', route.name, 'Role']]),
  [authorizerFunction.name, authorizerFunction.grants, ['Auth', 'AuthorizerFunction', 'Role']],
];

describe.each(functionsUnderTest)('the %s function role', (_name, grants, rolePath) => {
  const statements = statementsOf(logicalIdAt(stack, rolePath));
  const actions = actionsOf(statements);

  it('allows only, never denies or widens by wildcard actions', () => {
    expect(statements.every((s) => s.Effect === 'Allow')).toBe(true);
    expect(actions.filter((action) => action.includes('*'))).toEqual([]);
  });

  it('has exactly the DynamoDB actions of its grants, each on its own table', () => {
    const granted = statements.flatMap((statement) =>
      actionsOf([statement])
        .filter((action) => action.startsWith('dynamodb:'))
        .flatMap((action) => [statement.Resource].flat().map((resource) => `${action} on ${tableIdIn(JSON.stringify(resource))}`)),
    );
    const expected = tableGrants.flatMap(({ key, tableId }) => {
      const level = grants[key];
      const allowed = level === 'write' ? [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS] : level === 'read' ? [...TABLE_READ_ACTIONS] : [];
      return allowed.map((action) => `${action} on ${tableId}`);
    });
    expect([...new Set(granted)].sort()).toEqual(expected.sort());
  });

  it('cannot write a table without a write grant, and never scans', () => {
    const changes = actions.filter((action) => /^dynamodb:(Put|Update|Delete|BatchWrite|Scan)/.test(action));
    const writes = tableGrants.filter(({ key }) => grants[key] === 'write').length;
    if (writes > 0) expect([...new Set(changes)].sort()).toEqual(['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    else expect(changes).toEqual([]);
  });

  it('names each table index instead of index/*', () => {
    for (const resource of resourcesOf(statements, 'dynamodb:')) expect(resource).not.toContain('index/*');
  });

  it('touches the avatar bucket only when it writes avatars, and then only the avatar prefix', () => {
    const s3Actions = actions.filter((action) => action.startsWith('s3:'));
    if (grants.avatars !== 'write') {
      expect(s3Actions).toEqual([]);
      return;
    }
    expect(s3Actions.sort()).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:PutObject']);
    const prefixes = resourcesOf(statements, 's3:').map((resource) => {
      expect(resource).toContain(bucketId);
      return /\/([a-z-]+\/)\*"/.exec(resource)?.[1];
    });
    expect(prefixes).toEqual([avatarBucket.objectPrefix]);
  });

  it('writes to its own log group and traces to X-Ray, nothing else', () => {
    const others = actions.filter((action) => !action.startsWith('dynamodb:') && !action.startsWith('s3:'));
    expect(others.sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents', 'xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
  });
});

describe('the function roles', () => {
  it('carry no managed policies', () => {
    const roles = Object.entries(resources).filter(([id, r]) => r.Type === 'AWS::IAM::Role' && !id.includes('CloudWatchRole'));
    expect(roles.length).toBeGreaterThan(table.length);
    for (const [, role] of roles) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });
});
