import { RemovalPolicy, Size } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { API_PREFIX, type HttpMethod } from '../../functions/shared/http/route-definition';
import { parseCorsOrigins } from '../../functions/shared/http/cors-policy';
import { ACCESS_LOG_FIELDS } from '../../functions/shared/observability/access-log-fields';
import { addProblemGatewayResponses } from '../api-gateway-responses';
import { addCorsPreflights } from '../cors-preflight';
import { acknowledgeFindings } from '../nag-acknowledgements';
import { serviceLogGroup } from '../service-log-group';
import type { RouteFunction } from './route-functions';

/** Name of the one deployment stage. */
export const STAGE_NAME = 'prod';

/** Properties of {@link Api}. */
export interface ApiProps {
  readonly routes: readonly RouteFunction[];
  readonly authorizer: apigateway.IAuthorizer;
  readonly rateLimit: number;
  readonly burstLimit: number;
  readonly corsOrigins: readonly string[];
  readonly logRetentionDays: number;
  /** X-Ray tracing of the stage, as of the functions (the stack's `tracing` setting). */
  readonly tracing: boolean;
}

/**
 * The access log line, one JSON object per request: who called what, how it ended, and where time
 * went, member by member as ACCESS_LOG_FIELDS defines it (the local gateway writes the same line).
 */
function accessLogFormat(): apigateway.AccessLogFormat {
  const members = Object.fromEntries(Object.entries(ACCESS_LOG_FIELDS).map(([name, variable]) => [name, `$${variable}`]));
  return apigateway.AccessLogFormat.custom(JSON.stringify(members));
}

/**
 * The REST API: one resource per path of the route table under the API prefix, a Lambda proxy
 * integration to each route's own function, the REQUEST authorizer on every bearer route, the CORS
 * preflight on every resource, gateway answers as RFC 9457 problems, stage throttling, JSON access
 * logs and, where the stack traces, X-Ray tracing.
 */
export class Api extends Construct {
  public readonly restApi: apigateway.RestApi;
  public readonly accessLogs: logs.LogGroup;
  /** `https://…/prod/frontend/api/v1`: the base URL clients use. */
  public readonly baseUrl: string;

  public constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    this.accessLogs = serviceLogGroup(this, 'AccessLogs', props.logRetentionDays);
    this.restApi = new apigateway.RestApi(this, 'RestApi', {
      description: 'Frontend API: user profiles, avatars and the media request log',
      endpointConfiguration: { types: [apigateway.EndpointType.REGIONAL] },
      // Access logs need the account-level CloudWatch role of API Gateway. It is an account setting
      // other APIs may rely on, so it stays when the stack goes.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      minCompressionSize: Size.kibibytes(1),
      deployOptions: {
        stageName: STAGE_NAME,
        throttlingRateLimit: props.rateLimit,
        throttlingBurstLimit: props.burstLimit,
        tracingEnabled: props.tracing,
        accessLogDestination: new apigateway.LogGroupLogDestination(this.accessLogs),
        accessLogFormat: accessLogFormat(),
        // Execution logs for errors only; request and response bodies (tokens, profiles) are never logged.
        loggingLevel: apigateway.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
      },
    });
    addProblemGatewayResponses(this.restApi, props.corsOrigins);
    for (const entry of props.routes) this.addRoute(entry, props.authorizer);
    // After the routes, so that every resource they created gets its preflight.
    addCorsPreflights(this.restApi, props.routes.map(({ route }) => route), parseCorsOrigins(props.corsOrigins.join(',')));
    this.baseUrl = this.restApi.urlForPath(API_PREFIX);
    this.acknowledgeFindings(props.tracing);
  }

  private addRoute({ route, handler }: RouteFunction, authorizer: apigateway.IAuthorizer): void {
    const resource = this.restApi.root.resourceForPath(`${API_PREFIX}${route.path}`);
    const integration = new apigateway.LambdaIntegration(handler.function, { proxy: true, allowTestInvoke: false });
    const method = resource.addMethod(
      route.method,
      integration,
      route.auth === 'bearer'
        ? { authorizer, authorizationType: apigateway.AuthorizationType.CUSTOM }
        : { authorizationType: apigateway.AuthorizationType.NONE },
    );
    if (route.auth === 'none') {
      acknowledgeFindings(method, {
        'AwsSolutions-APIG4': `${route.method} ${route.path} is public by design (the route table marks it auth "none").`,
      });
    }
  }

  private acknowledgeFindings(tracing: boolean): void {
    if (!tracing) {
      acknowledgeFindings(this.restApi.deploymentStage, {
        'Serverless-APIGWXrayEnabled':
          "Tracing is the stack's `tracing` setting (-c tracing=true traces the stage and every function); off by default, as the functions' X-Ray SDK costs every cold start. Access logs carry each request id.",
      });
    }
    acknowledgeFindings(this.restApi, {
      'AwsSolutions-COG4':
        "Bearer routes use a Lambda REQUEST authorizer: it verifies tokens of any OIDC issuer (the stack's Cognito pool by default) and maps the token subject to the one user record that claims it, passing the user id to the routes, which a Cognito authorizer cannot. The routes read the caller's stored status and role on every request.",
      'AwsSolutions-APIG2':
        'Every handler validates its parameters and body with strict zod schemas, which also generate the OpenAPI document and answer 400 problems naming each field; a gateway model would duplicate them and answer in another shape.',
    });
    const cloudWatchRole = this.restApi.node.tryFindChild('CloudWatchRole');
    if (cloudWatchRole) {
      acknowledgeFindings(cloudWatchRole, {
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]':
          'The account-level API Gateway logging role needs exactly this AWS-maintained policy to deliver access and execution logs.',
      });
    }
  }

}
