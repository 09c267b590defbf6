import { avatarBucketName, tableName } from '../../functions/shared/config/data-config';
import { deployedFunctions } from '../../functions/deployed-functions';
import type { DeployedFunction } from '../../functions/shared/deployment/function-definitions';
import { tables } from '../../functions/shared/tables/index';
import { STREAM_READ_ACTIONS } from '../../lib/constructs/stream-consumers';
import { quadrantImage } from '../fixtures/images/generate';
import { useAvatarTestBed } from '../avatars/routes/test-bed';
import { authorizationRequests, type AuthorizationRequest, type DataNames } from './grant-coverage/authorization-requests';
import { actionsOf, allows, resourcesOf, statementsOfRole, type RoleStatement } from './grant-coverage/policy-simulator';
import { runScenarios } from './grant-coverage/scenarios';
import { recordCalls, type RecordedCall } from './grant-coverage/sdk-recorder';
import { functionPath, logicalIdAt, synthesizeStack, tableLogicalId, type Resources } from './stack-fixture';

/**
 * The IAM policies the stack gives each function are enough and no more (issue 16, item 8): every
 * DynamoDB and S3 request a function's code sends, on every path of the scenarios, is allowed by
 * that function's synthesized policy as IAM would evaluate it (actions, table and index ARNs,
 * LeadingKeys, Attributes, ReturnValues, transactions), and every action on every resource the
 * policy grants is used by some request.
 */

const { stack, template } = synthesizeStack();
const resources = template.toJSON().Resources as Resources;
const bed = useAvatarTestBed();

/** What an event source mapping does with the function's role: its code never sends these. */
const eventSourceActions = new Set<string>(STREAM_READ_ACTIONS);

/**
 * The statements through which code reaches data (the role's logs, traces and dead-letter queue are
 * the runtime's, the stream reads its event source mapping's).
 */
function dataStatements(fn: DeployedFunction): RoleStatement[] {
  return statementsOfRole(resources, logicalIdAt(stack, [...functionPath(fn), 'Role'])).filter((statement) =>
    actionsOf(statement).some((action) => /^(dynamodb|s3):/.test(action) && !eventSourceActions.has(action)),
  );
}

let calls: RecordedCall[] = [];
let names: DataNames;

beforeAll(async () => {
  names = {
    tables: new Map(tables.map((definition) => [tableName(definition), { logicalId: tableLogicalId(stack, definition), partitionKey: definition.partitionKey.name }])),
    bucket: { name: avatarBucketName(), logicalId: logicalIdAt(stack, ['AvatarStorage', 'Avatars']) },
  };
  calls = recordCalls();
  const photoUrl = bed.source.serve('/grants.png', await quadrantImage(32, 32, 'png'), 'image/png');
  await runScenarios(photoUrl);
}, 120_000);

const requestsOf = (fn: DeployedFunction): AuthorizationRequest[] =>
  calls.filter((call) => call.functionName === fn.name).flatMap((call) => authorizationRequests(call, names));

describe.each(deployedFunctions.map((fn) => [fn.name, fn] as const))('the policy of %s', (_name, fn) => {
  it('allows every request its code sent', () => {
    const statements = dataStatements(fn);
    const denied = requestsOf(fn).filter((request) => !statements.some((statement) => allows(statement, request)));
    expect(denied).toEqual([]);
  });

  it('grants no action on a resource that no request used', () => {
    const requests = requestsOf(fn);
    const unused = dataStatements(fn).flatMap((statement) =>
      actionsOf(statement).flatMap((action) =>
        resourcesOf(statement)
          .filter((resource) => !requests.some((request) => allows({ ...statement, Action: action, Resource: resource }, request)))
          .map((resource) => `${action} on ${resource}`),
      ),
    );
    expect(unused).toEqual([]);
  });
});

describe('the scenarios', () => {
  it('run the code of every deployed function that touches data', () => {
    const silent = deployedFunctions.filter((fn) => dataStatements(fn).length > 0 && requestsOf(fn).length === 0).map((fn) => fn.name);
    expect(silent).toEqual([]);
    expect(calls.length).toBeGreaterThan(100);
  });
});
