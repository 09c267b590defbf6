import { LIVE_ACCESS_LOG_FIELDS } from '../../functions/live/model/live-access-log';
import { webSocketRoutes } from '../../functions/live/connections/websocket-routes';
import { notifyMediaLogWatchersFunction } from '../../functions/live/notify/stream-functions';
import { reviseLiveAccessFunction } from '../../functions/live/access/access-functions';
import { LIVE_ENV } from '../../functions/live/live-config';
import { ENTRY_KEY_PREFIX } from '../../functions/media-log/model/keys';
import { deployedFunctions } from '../../functions/deployed-functions';
import { liveConnectionsTable } from '../../functions/shared/tables/live-connections-table';
import { mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { usersTable } from '../../functions/shared/tables/users-table';
import { actionsOf, statementsOfRole } from './grant-coverage/policy-simulator';
import { functionPath, logicalIdAt, synthesizeStack, tableLogicalId, type Resources } from './stack-fixture';

/**
 * The live media log in the stack (DESIGN.md 7c): the WebSocket API with one Lambda per route of
 * the deployed list, route selection by `action`, route responses where a route answers, a stage
 * with throttling and JSON access logs that never hold the ticket, `@connections` granted per
 * method on this stage's connections only, the notifier as the media log stream's second consumer,
 * the access keeper on the users table's stream, the connections table with TTL, the URL an output.
 */

const { stack, template } = synthesizeStack();
const resources = template.toJSON().Resources as Resources;
const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const apiId = logicalIdAt(stack, ['Live', 'WebSocketApi']);
const functionId = (name: string) => logicalIdAt(stack, [...functionPath(deployedFunctions.find((fn) => fn.name === name) as never), 'Function']);
const roleId = (name: string) => logicalIdAt(stack, [...functionPath(deployedFunctions.find((fn) => fn.name === name) as never), 'Role']);

describe('the WebSocket API', () => {
  it('routes messages by their action', () => {
    expect(resources[apiId]?.Properties).toMatchObject({ ProtocolType: 'WEBSOCKET', RouteSelectionExpression: '$request.body.action' });
  });

  it('has one route per WebSocket route of the deployed list, each integrated with its own function', () => {
    const routes = ofType('AWS::ApiGatewayV2::Route').map(([, route]) => route.Properties);
    expect(routes.map((route) => route.RouteKey).sort()).toEqual(webSocketRoutes.map((route) => route.routeKey).sort());
    const integrations = ofType('AWS::ApiGatewayV2::Integration').map(([, integration]) => integration.Properties);
    for (const route of webSocketRoutes) {
      expect(integrations.filter((integration) => JSON.stringify(integration.IntegrationUri).includes(functionId(route.name)))).toEqual([
        expect.objectContaining({ ApiId: { Ref: apiId }, IntegrationType: 'AWS_PROXY' }),
      ]);
    }
  });

  it('answers clients through a route response exactly on the routes that answer', () => {
    const answering = ofType('AWS::ApiGatewayV2::Route').filter(([, route]) => route.Properties.RouteResponseSelectionExpression === '$default').map(([, route]) => route.Properties.RouteKey);
    expect(answering.sort()).toEqual(webSocketRoutes.filter((route) => route.answersClient).map((route) => route.routeKey).sort());
    expect(ofType('AWS::ApiGatewayV2::RouteResponse')).toHaveLength(answering.length);
  });

  it('has a throttled stage "live" whose JSON access log lines hold the members the local server writes, and no query', () => {
    const [[, stage] = []] = ofType('AWS::ApiGatewayV2::Stage');
    expect(stage?.Properties).toMatchObject({ StageName: 'live', AutoDeploy: true, DefaultRouteSettings: { ThrottlingRateLimit: expect.any(Number), ThrottlingBurstLimit: expect.any(Number) } });
    const format = JSON.parse(stage?.Properties.AccessLogSettings.Format as string);
    expect(Object.keys(format)).toEqual(Object.keys(LIVE_ACCESS_LOG_FIELDS));
    expect(JSON.stringify(format)).not.toMatch(/query|querystring/i);
  });

  it('names its URL in the outputs and in every function\'s environment, with its @connections endpoint', () => {
    expect(JSON.stringify(outputs.LiveWebSocketUrl?.Value)).toContain('wss://');
    for (const [, fn] of ofType('AWS::Lambda::Function').filter(([, resource]) => resource.Properties.Environment)) {
      expect(Object.keys(fn.Properties.Environment.Variables)).toEqual(expect.arrayContaining([LIVE_ENV.websocketUrl, LIVE_ENV.connectionsEndpoint]));
    }
  });
});

describe('@connections', () => {
  const manageConnections = (name: string) =>
    statementsOfRole(resources, roleId(name))
      .filter((statement) => actionsOf(statement).includes('execute-api:ManageConnections'))
      .flatMap((statement) => [statement.Resource].flat().map((resource) => JSON.stringify(resource)));

  it.each(deployedFunctions.map((fn) => [fn.name, fn] as const))('is granted to %s for exactly the methods its grants name, on this stage only', (name, fn) => {
    const grants = fn.kind === 'route' ? fn.route.grants : fn.kind === 'authorizer' ? fn.authorizer.grants : fn.kind === 'schedule' ? fn.scheduled.grants : fn.kind === 'queue' ? fn.consumer.grants : fn.kind === 'stream' ? fn.stream.grants : fn.webSocket.grants;
    const granted = manageConnections(name);
    expect(granted).toHaveLength(grants.connections?.length ?? 0);
    for (const method of grants.connections ?? []) expect(granted.some((resource) => resource.includes(apiId) && resource.includes(`/live/${method}/@connections/*`))).toBe(true);
  });
});

describe('the notifier', () => {
  const mapping = ofType('AWS::Lambda::EventSourceMapping').find(([, candidate]) => JSON.stringify(candidate.Properties.FunctionName).includes(functionId(notifyMediaLogWatchersFunction.name)))?.[1].Properties ?? {};

  it("is the media log stream's second consumer, with its own mapping: entry records, batches as its definition says, one per shard at a time", () => {
    const onStream = ofType('AWS::Lambda::EventSourceMapping').filter(([, candidate]) => JSON.stringify(candidate.Properties.EventSourceArn).includes(tableLogicalId(stack, mediaLogTable)));
    expect(onStream).toHaveLength(2);
    expect(mapping).toMatchObject({
      BatchSize: notifyMediaLogWatchersFunction.batchSize,
      MaximumBatchingWindowInSeconds: notifyMediaLogWatchersFunction.maxBatchingWindowSeconds,
      ParallelizationFactor: 1,
      StartingPosition: 'TRIM_HORIZON',
    });
    expect((mapping.FilterCriteria.Filters as { Pattern: string }[]).map((filter) => JSON.parse(filter.Pattern))).toEqual([{ dynamodb: { Keys: { pk: { S: [{ prefix: ENTRY_KEY_PREFIX }] } } } }]);
  });

  it('bisects a failing batch, gives up on records a minute old and reports them to its failure queue', () => {
    const failures = logicalIdAt(stack, ['Streams', notifyMediaLogWatchersFunction.failureQueue]);
    expect(mapping).toMatchObject({ BisectBatchOnFunctionError: true, MaximumRecordAgeInSeconds: 60, DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failures, 'Arn'] } } } });
  });

  it('has an alarm on its iterator age', () => {
    const lag = ofType('AWS::CloudWatch::Alarm').filter(([, alarm]) => alarm.Properties.MetricName === 'IteratorAge' && JSON.stringify(alarm.Properties.Dimensions).includes(functionId(notifyMediaLogWatchersFunction.name)));
    expect(lag).toHaveLength(1);
  });
});

describe('the tables', () => {
  it('streams the users table for the access keeper, whose mapping reads its profiles', () => {
    expect(resources[tableLogicalId(stack, usersTable)]?.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
    const keeper = ofType('AWS::Lambda::EventSourceMapping').find(([, candidate]) => JSON.stringify(candidate.Properties.FunctionName).includes(functionId(reviseLiveAccessFunction.name)))?.[1].Properties;
    expect(JSON.stringify(keeper?.EventSourceArn)).toContain(tableLogicalId(stack, usersTable));
  });

  it('keeps live connections in a table whose items expire by TTL', () => {
    expect(resources[tableLogicalId(stack, liveConnectionsTable)]?.Properties).toMatchObject({ TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true } });
  });

  it('runs the expiry sweep every minute', () => {
    const rules = ofType('AWS::Events::Rule').filter(([, rule]) => rule.Properties.ScheduleExpression === 'rate(1 minute)');
    expect(rules).toHaveLength(1);
    expect(JSON.stringify(rules[0]?.[1].Properties.Targets)).toContain(functionId('closeExpiredLiveConnections'));
  });
});

describe('the live route errors', () => {
  it('have an alarm', () => {
    const alarm = ofType('AWS::CloudWatch::Alarm').find(([, candidate]) => JSON.stringify(candidate.Properties.Metrics ?? []).includes('IntegrationError'));
    expect(alarm).toBeDefined();
  });
});
