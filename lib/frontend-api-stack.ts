import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { serviceFunctions } from '../functions/deployed-functions';
import type { ServiceFunctions } from '../functions/shared/deployment/function-definitions';
import { avatarBucket } from '../functions/shared/storage/avatar-bucket';
import { SERVICE_NAME } from '../functions/shared/observability/metric-catalog';
import { LIVE_ENV } from '../functions/live/live-config';
import { tables as tableDefinitions, type TableDefinition } from '../functions/shared/tables/index';
import { Api } from './constructs/api';
import { TRACING_ENV } from './function-bundling';
import { ApiDashboard } from './constructs/api-dashboard';
import { ApiFirewall } from './constructs/api-firewall';
import { Auth } from './constructs/auth';
import { AvatarStorage } from './constructs/avatar-storage';
import { BackgroundFunctions } from './constructs/background-functions';
import { CursorSigningKey } from './constructs/cursor-signing-key';
import { DataTables } from './constructs/data-tables';
import { LiveApi } from './constructs/live-api';
import { METRICS_NAMESPACE, Observability } from './constructs/observability';
import { QueueConsumers } from './constructs/queue-consumers';
import { RouteFunctions } from './constructs/route-functions';
import type { ServiceFunction } from './constructs/service-function';
import { StreamConsumers } from './constructs/stream-consumers';
import type { StackSettings } from './stack-settings';
import { MEDIA_LOG_ENV } from '../functions/media-log/model/retention';

/** Service name in every function's structured logs and metrics. */
export { SERVICE_NAME };

/** Properties of {@link FrontendApiStack}. */
export interface FrontendApiStackProps extends StackProps {
  readonly settings: StackSettings;
  /** The functions to deploy; those of `functions/deployed-functions.ts` unless a test narrows or extends them. */
  readonly functions?: ServiceFunctions;
  /** The table definitions; the ones in `functions/shared/tables` unless a test narrows them. */
  readonly tables?: readonly TableDefinition[];
}

/**
 * Output keys of the stack. The operator CLI and the deploy docs read these; renaming one is a
 * breaking change for every operator script.
 */
export const STACK_OUTPUTS = {
  apiUrl: 'ApiUrl',
  avatarBucketName: 'AvatarBucketName',
  avatarCdnDomainName: 'AvatarCdnDomainName',
  avatarPublicBaseUrl: 'AvatarPublicBaseUrl',
  authIssuer: 'AuthIssuer',
  userPoolId: 'UserPoolId',
  userPoolClientId: 'UserPoolClientId',
  alarmTopicArn: 'AlarmTopicArn',
  liveWebSocketUrl: 'LiveWebSocketUrl',
} as const;

/** Output key of a table's name: its definition id followed by `TableName` (`UsersTableName`). */
export function tableNameOutputKey(definition: TableDefinition): string {
  return `${definition.id}TableName`;
}

/**
 * The Frontend API: data, avatar storage, auth, the cursor key, one function per route, the
 * scheduled background functions, the media pipeline feed's queue and consumer, the consumers of
 * the table streams (the media log's counter fold, the live media log's notifier and access
 * keeper), the live media log's WebSocket API, the REST API with its firewall and the alarms,
 * each concern one construct, composed here from the list of deployed functions and the
 * definitions the code itself uses.
 */
export class FrontendApiStack extends Stack {
  public constructor(scope: Construct, id: string, props: FrontendApiStackProps) {
    super(scope, id, props);
    const { settings } = props;
    const deployed = props.functions ?? serviceFunctions;
    const data = new DataTables(this, 'Data', {
      definitions: props.tables ?? tableDefinitions,
      deletionProtection: settings.deletionProtection,
    });
    const storage = new AvatarStorage(this, 'AvatarStorage', {
      definition: avatarBucket,
      accessLogRetentionDays: 90,
      corsOrigins: settings.corsOrigins,
    });
    // The live media log's WebSocket API first: every function's environment names its URLs.
    const live = new LiveApi(this, 'Live', { rateLimit: settings.apiRateLimit, burstLimit: settings.apiBurstLimit, logRetentionDays: settings.logRetentionDays });
    const environment = this.functionEnvironment(settings, data, storage, live);
    const grantable = { tables: data, avatarBucket: storage.bucket, avatarDefinition: avatarBucket, connections: live };
    const auth = new Auth(this, 'Auth', {
      externalIssuer: settings.externalIssuer,
      deletionProtection: settings.deletionProtection,
      definition: deployed.authorizer,
      cacheSeconds: settings.authorizerCacheSeconds,
      environment,
      logRetentionDays: settings.logRetentionDays,
      data: grantable,
      reservedConcurrency: settings.capacity.authorizerConcurrency,
    });
    const cursorKey = new CursorSigningKey(this, 'CursorSigningKey', { generation: settings.cursorKeyGeneration });
    const functions = new RouteFunctions(this, 'Routes', {
      routes: deployed.routes,
      environment,
      cursorEnvironment: cursorKey.environment,
      logRetentionDays: settings.logRetentionDays,
      data: grantable,
      imageRouteConcurrency: settings.capacity.imageRouteConcurrency,
    });
    const background = new BackgroundFunctions(this, 'Background', {
      definitions: deployed.scheduled,
      environment,
      logRetentionDays: settings.logRetentionDays,
      data: grantable,
    });
    const feed = new QueueConsumers(this, 'Feed', {
      definitions: deployed.queueConsumers,
      environment,
      logRetentionDays: settings.logRetentionDays,
      data: grantable,
      producerAccounts: settings.feedProducerAccounts,
    });
    const streams = new StreamConsumers(this, 'Streams', {
      definitions: deployed.streamConsumers,
      environment,
      logRetentionDays: settings.logRetentionDays,
      data: grantable,
    });
    live.addRoutes({ definitions: deployed.webSocketRoutes, environment, logRetentionDays: settings.logRetentionDays, data: grantable });
    const api = new Api(this, 'Api', {
      routes: functions.functions,
      authorizer: auth.authorizer,
      rateLimit: settings.apiRateLimit,
      tracing: settings.tracing,
      burstLimit: settings.apiBurstLimit,
      corsOrigins: settings.corsOrigins,
      logRetentionDays: settings.logRetentionDays,
    });
    new ApiFirewall(this, 'Firewall', {
      stage: api.restApi.deploymentStage,
      ipRateLimit: settings.capacity.ipRateLimit,
      tokenRateLimit: settings.capacity.tokenRateLimit,
      corsOrigins: settings.corsOrigins,
    });
    const watched = new Map<string, ServiceFunction>([
      ['authorizer', auth.authorizerFunction],
      ...functions.functions.map(({ route, handler }): [string, ServiceFunction] => [route.name, handler]),
      ...background.functions.map(({ definition, handler }): [string, ServiceFunction] => [definition.name, handler]),
      ...feed.consumers.map(({ definition, handler }): [string, ServiceFunction] => [definition.name, handler]),
      ...streams.consumers.map(({ definition, handler }): [string, ServiceFunction] => [definition.name, handler]),
      ...live.functions.map(({ definition, handler }): [string, ServiceFunction] => [definition.name, handler]),
    ]);
    const observability = new Observability(this, 'Observability', {
      restApi: api.restApi,
      accessLogs: api.accessLogs,
      functions: watched,
      deadLetterQueues: new Map([
        ['scheduledRuns', background.deadLetterQueue],
        ...feed.consumers.map(({ definition, deadLetterQueue }): [string, typeof deadLetterQueue] => [`${definition.queue}Messages`, deadLetterQueue]),
      ]),
      streamConsumers: streams.consumers,
      live,
      alarmEmail: settings.alarmEmail,
    });
    new ApiDashboard(this, 'Dashboard', { restApi: api.restApi, functions: watched, streamConsumers: streams.consumers, live, alarms: observability.alarms });
    this.addOutputs({ data, storage, auth, api, observability, live });
    feed.addOutputs(this);
    streams.addOutputs(this);
  }

  private functionEnvironment(settings: StackSettings, data: DataTables, storage: AvatarStorage, live: LiveApi): Record<string, string> {
    // Every function gets every name: shared modules may read them at load time; IAM, not the
    // environment, decides what a function can touch.
    return {
      ...Object.fromEntries(data.tables.map(({ definition, table }) => [definition.nameEnv, table.tableName])),
      // Each table's layout beside its name: code of another layout refuses to start (table-names.ts).
      ...Object.fromEntries(data.tables.flatMap(({ definition }) => (definition.layoutEnv === undefined ? [] : [[definition.layoutEnv, String(definition.layout)]]))),
      [avatarBucket.nameEnv]: storage.bucket.bucketName,
      AVATAR_PUBLIC_BASE_URL: storage.publicBaseUrl,
      [LIVE_ENV.websocketUrl]: live.url,
      [LIVE_ENV.connectionsEndpoint]: live.connectionsEndpoint,
      POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      POWERTOOLS_LOG_LEVEL: settings.logLevel,
      POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      // Read by ServiceFunction too: the same value decides the function's X-Ray mode and its bundle.
      [TRACING_ENV]: String(settings.tracing),
      [MEDIA_LOG_ENV.retentionDays]: String(settings.mediaLogRetentionDays),
      NODE_OPTIONS: '--enable-source-maps',
      ...(settings.corsOrigins.length > 0 ? { CORS_ALLOWED_ORIGINS: settings.corsOrigins.join(',') } : {}),
    };
  }

  private addOutputs(parts: { data: DataTables; storage: AvatarStorage; auth: Auth; api: Api; observability: Observability; live: LiveApi }): void {
    const { data, storage, auth, api, observability, live } = parts;
    const output = (key: string, value: string, description: string) => new CfnOutput(this, key, { value, description });
    output(STACK_OUTPUTS.apiUrl, api.baseUrl, 'Base URL of the API, with the /frontend/api/v1 prefix.');
    output(STACK_OUTPUTS.liveWebSocketUrl, live.url, 'The live media log\'s WebSocket URL (POST /media/log/live hands out tickets to it).');
    for (const { definition, table } of data.tables) {
      output(tableNameOutputKey(definition), table.tableName, `Value for ${definition.nameEnv}.`);
    }
    output(STACK_OUTPUTS.avatarBucketName, storage.bucket.bucketName, `Value for ${avatarBucket.nameEnv}.`);
    output(STACK_OUTPUTS.avatarCdnDomainName, storage.distribution.distributionDomainName, 'CloudFront domain serving the avatars.');
    output(STACK_OUTPUTS.avatarPublicBaseUrl, storage.publicBaseUrl, 'Value for AVATAR_PUBLIC_BASE_URL.');
    output(STACK_OUTPUTS.authIssuer, auth.issuer.AUTH_ISSUER, 'Value for AUTH_ISSUER: the token issuer the authorizer trusts.');
    if (auth.userPool && auth.userPoolClient) {
      output(STACK_OUTPUTS.userPoolId, auth.userPool.userPoolId, 'Cognito user pool that issues the tokens.');
      output(STACK_OUTPUTS.userPoolClientId, auth.userPoolClient.userPoolClientId, 'Value for AUTH_COGNITO_CLIENT_ID: the frontend app client.');
    }
    if (observability.topic) {
      output(STACK_OUTPUTS.alarmTopicArn, observability.topic.topicArn, 'SNS topic the alarms notify.');
    }
  }
}
