import { Duration, Stack, Token } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct, type IConstruct } from 'constructs';
import type { ConnectionAction } from '../../functions/shared/deployment/data-grants';
import type { WebSocketRouteDefinition } from '../../functions/shared/deployment/function-definitions';
import { LIVE_ACCESS_LOG_FIELDS } from '../../functions/live/model/live-access-log';
import { LIVE_STAGE } from '../../functions/live/model/live-limits';
import { grantFunctionData, type ConnectionsGrantTarget } from '../data-grants';
import { acknowledgeFindings } from '../nag-acknowledgements';
import { serviceLogGroup } from '../service-log-group';
import type { FunctionGroupProps } from './function-group';
import { ServiceFunction } from './service-function';

/** Properties of {@link LiveApi}. */
export interface LiveApiProps {
  /** Steady messages a second the stage takes from all clients, and the burst above it. */
  readonly rateLimit: number;
  readonly burstLimit: number;
  readonly logRetentionDays: number;
}

/** A route of the WebSocket API and its function. */
export interface LiveRouteFunction {
  readonly definition: WebSocketRouteDefinition;
  readonly handler: ServiceFunction;
}

/** The access log line of the stage, member by member as LIVE_ACCESS_LOG_FIELDS defines it. */
function accessLogFormat(): apigateway.AccessLogFormat {
  const members = Object.fromEntries(Object.entries(LIVE_ACCESS_LOG_FIELDS).map(([name, variable]) => [name, `$${variable}`]));
  return apigateway.AccessLogFormat.custom(JSON.stringify(members));
}

/**
 * The live media log's WebSocket API (DESIGN.md 7c): routes selected by the message's `action`,
 * one Lambda proxy integration per route of the deployed list, those that answer with a route
 * response; one stage with throttling and JSON access logs. Made in two steps: the API and its
 * stage first (every function's environment names its URL and `@connections` endpoint), the
 * routes once the functions' environment exists.
 */
export class LiveApi extends Construct implements ConnectionsGrantTarget {
  public readonly webSocketApi: apigwv2.WebSocketApi;
  public readonly stage: apigwv2.WebSocketStage;
  public readonly accessLogs: logs.LogGroup;
  private routeFunctions: LiveRouteFunction[] = [];

  public constructor(scope: Construct, id: string, props: LiveApiProps) {
    super(scope, id);
    this.webSocketApi = new apigwv2.WebSocketApi(this, 'WebSocketApi', {
      apiName: `${Stack.of(this).stackName}-live`,
      description: 'Frontend API: the live media log, pushed to browsers',
      routeSelectionExpression: '$request.body.action',
    });
    this.accessLogs = serviceLogGroup(this, 'AccessLogs', props.logRetentionDays);
    this.stage = new apigwv2.WebSocketStage(this, 'Stage', {
      webSocketApi: this.webSocketApi,
      stageName: LIVE_STAGE,
      autoDeploy: true,
      throttle: { rateLimit: props.rateLimit, burstLimit: props.burstLimit },
      accessLogSettings: { destination: new apigwv2.LogGroupLogDestination(this.accessLogs), format: accessLogFormat() },
    });
  }

  /** `wss://…/live`: where clients connect (tickets point there). */
  public get url(): string {
    return this.stage.url;
  }

  /** `https://…/live`: the `@connections` endpoint of the functions. */
  public get connectionsEndpoint(): string {
    return this.stage.callbackUrl;
  }

  /**
   * A metric API Gateway publishes for the stage
   * (https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-websocket-api-logging.html#apigateway-websocket-api-metrics):
   * `ConnectCount`, `MessageCount` (messages in and out, `@connections` posts included),
   * `IntegrationError`, `ClientError`, `ExecutionError`, `IntegrationLatency`.
   */
  public metric(metricName: string, statistic = 'Sum', period = Duration.minutes(5)): cloudwatch.Metric {
    return new cloudwatch.Metric({ namespace: 'AWS/ApiGateway', metricName, dimensionsMap: { ApiId: this.webSocketApi.apiId, Stage: this.stage.stageName }, statistic, period });
  }

  /** The routes and their functions, once {@link addRoutes} made them. */
  public get functions(): readonly LiveRouteFunction[] {
    return this.routeFunctions;
  }

  /** One function per route of the WebSocket API, built like every function and granted exactly its definition's grants. */
  public addRoutes(props: FunctionGroupProps<WebSocketRouteDefinition>): void {
    this.routeFunctions = props.definitions.map((definition) => {
      const handler = new ServiceFunction(this, definition.name, {
        handlerModule: definition.handler,
        description: definition.description,
        image: false,
        invokedBy: 'api',
        environment: props.environment,
        logRetentionDays: props.logRetentionDays,
      });
      grantFunctionData(handler.role, definition.grants, { ...props.data, connections: this });
      this.webSocketApi.addRoute(definition.routeKey, {
        integration: new WebSocketLambdaIntegration(`${definition.name}Integration`, handler.function),
        returnResponse: definition.answersClient,
      });
      return { definition, handler };
    });
    this.acknowledgeFindings();
  }

  /**
   * `execute-api:ManageConnections` on this stage's connections, for the methods a function's
   * grants name, and nothing else
   * (https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-websocket-control-access-iam.html).
   */
  public grantConnections(grantee: iam.IGrantable & IConstruct, actions: readonly ConnectionAction[]): void {
    const api = Stack.of(this).formatArn({ service: 'execute-api', resource: this.webSocketApi.apiId });
    const resourceArns = actions.map((method) => `${api}/${this.stage.stageName}/${method}/@connections/*`);
    iam.Grant.addToPrincipal({ grantee, actions: ['execute-api:ManageConnections'], resourceArns });
    const why = 'Connection ids are made by API Gateway as clients connect: the grant names this stage, each method the function uses, and any connection.';
    acknowledgeFindings(
      grantee,
      Object.fromEntries(actions.map((method) => [`AwsSolutions-IAM5[Resource::${this.arnPrefixAsNagShowsIt()}:<${this.apiLogicalId()}>/${LIVE_STAGE}/${method}/@connections/*]`, why])),
    );
  }

  /**
   * `arn:<partition>:execute-api:<region>:<account>` as cdk-nag writes it in a finding: a pseudo
   * parameter as `<AWS::…>` in a stack without that part of its environment, its value in one with
   * it (`cdk synth` with the region of cdk.json, for instance), so that one acknowledgement fits both.
   */
  private arnPrefixAsNagShowsIt(): string {
    const stack = Stack.of(this);
    const shown = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
    return `arn:${shown(stack.partition, 'AWS::Partition')}:execute-api:${shown(stack.region, 'AWS::Region')}:${shown(stack.account, 'AWS::AccountId')}`;
  }

  private apiLogicalId(): string {
    return Stack.of(this).resolve((this.webSocketApi.node.defaultChild as apigwv2.CfnApi).logicalId) as string;
  }

  private acknowledgeFindings(): void {
    acknowledgeFindings(this.webSocketApi, {
      'AwsSolutions-APIG4':
        'The WebSocket routes take no IAM or authorizer: $connect takes a one-time ticket (from POST /media/log/live, a bearer route) and checks the page origin itself; every other route acts on the connection $connect registered.',
    });
  }
}
