import { authorizerFunction, routes, type RouteDefinition } from '../../functions/routes';
import { avatarBucket } from '../../functions/shared/storage/avatar-bucket';
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

const usersTableId = logicalIdAt(stack, ['Data', 'Users']);
const bucketId = logicalIdAt(stack, ['AvatarStorage', 'Avatars']);

const functionsUnderTest: [string, RouteDefinition['grants'], string[], boolean][] = [
  ...table.map((route): [string, RouteDefinition['grants'], string[], boolean] => [route.name, route.grants, ['Routes', route.name, 'Role'], route.image === true]),
  [authorizerFunction.name, authorizerFunction.grants, ['Auth', 'AuthorizerFunction', 'Role'], false],
];

describe.each(functionsUnderTest)('the %s function role', (_name, grants, rolePath, image) => {
  const statements = statementsOf(logicalIdAt(stack, rolePath));
  const actions = actionsOf(statements);

  it('allows only, never denies or widens by wildcard actions', () => {
    expect(statements.every((s) => s.Effect === 'Allow')).toBe(true);
    expect(actions.filter((action) => action.includes('*'))).toEqual([]);
  });

  it('has DynamoDB actions exactly for its users grant', () => {
    const dynamo = actions.filter((action) => action.startsWith('dynamodb:')).sort();
    const expected = grants.users === 'write' ? [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS] : grants.users === 'read' ? [...TABLE_READ_ACTIONS] : [];
    expect(dynamo).toEqual([...expected].sort());
  });

  it('cannot write the table without a write grant, and never scans', () => {
    const changes = actions.filter((action) => /^dynamodb:(Put|Update|Delete|BatchWrite|Scan)/.test(action));
    if (grants.users === 'write') expect(changes.sort()).toEqual(['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
    else expect(changes).toEqual([]);
  });

  it('reaches only the users table and its named indexes', () => {
    for (const resource of resourcesOf(statements, 'dynamodb:')) {
      expect(resource).toContain(usersTableId);
      expect(resource).not.toContain('index/*');
    }
  });

  it('touches the avatar bucket only when it writes avatars, and then only its prefixes', () => {
    const s3Actions = actions.filter((action) => action.startsWith('s3:'));
    if (grants.avatars !== 'write') {
      expect(s3Actions).toEqual([]);
      return;
    }
    expect(image).toBe(true);
    expect(s3Actions.sort()).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:PutObject']);
    const prefixes = resourcesOf(statements, 's3:').map((resource) => {
      expect(resource).toContain(bucketId);
      return /\/([a-z-]+\/)\*"/.exec(resource)?.[1];
    });
    expect(prefixes.sort()).toEqual([avatarBucket.objectPrefix, avatarBucket.pendingPrefix].sort());
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
