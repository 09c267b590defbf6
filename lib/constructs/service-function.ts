import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  BUNDLE_SETTINGS,
  IMAGE_NODE_MODULES,
  NATIVE_MODULE_PLATFORM,
  LOCK_FILE,
  PROJECT_ROOT,
  entryPath,
  sdkExternalModules,
  bundleConditions,
  bundleDefines,
  tracesWith,
  type BundledFunction,
} from '../function-bundling';
import { bundledFiles } from '../bundled-files';
import { acknowledgeFindings } from '../nag-acknowledgements';
import { serviceLogGroup } from '../service-log-group';

/**
 * The newest Node.js runtime this aws-cdk-lib offers, set explicitly: without it a NodejsFunction
 * falls back to an old default. Its major version must equal `NODE_MAJOR_VERSION` of the bundling.
 */
export const FUNCTION_RUNTIME = lambda.Runtime.NODEJS_24_X;

/** Memory and timeout of a function; image routes decode up to 40 MP and need more of both. */
export const FUNCTION_SIZES = {
  standard: { memorySize: 512, timeout: Duration.seconds(10) },
  // 28 s: API Gateway gives up at 29 s, the function should answer before that.
  image: { memorySize: 1536, timeout: Duration.seconds(28) },
  // Nobody waits on a scheduled sweep; Lambda's maximum lets one walk millions of objects per run.
  background: { memorySize: 512, timeout: Duration.minutes(15) },
} as const;

/**
 * What invokes a function: API Gateway (a route, the authorizer), an EventBridge schedule, an SQS
 * event source mapping (a queue consumer) or a DynamoDB stream event source mapping (a stream consumer).
 */
export type FunctionInvoker = 'api' | 'schedule' | 'queue' | 'stream';

/** Why a function invoked synchronously has no dead-letter queue of its own. */
const NO_DEAD_LETTER_QUEUE: Record<Exclude<FunctionInvoker, 'schedule'>, string> = {
  api: 'API Gateway invokes the function synchronously and receives its errors; there is no asynchronous event to park in a dead-letter queue.',
  queue:
    'An SQS event source mapping invokes the function synchronously; a function dead-letter queue serves asynchronous invocations only. The consumed queue has a redrive policy to its own dead-letter queue, with an alarm on its depth.',
  stream:
    "A DynamoDB stream event source mapping invokes the function synchronously; a function dead-letter queue serves asynchronous invocations only. The mapping's on-failure destination receives every batch it gives up on, with an alarm on its depth.",
};

/** Properties of {@link ServiceFunction}. */
export interface ServiceFunctionProps {
  /** Module (from the project root) whose named export `handler` is the function. */
  readonly handlerModule: string;
  /** One line for the console: the route or the function's role. */
  readonly description: string;
  /** Decodes images: ships sharp for linux-arm64 and gets the larger size. */
  readonly image: boolean;
  /** Serves a route that takes an `Idempotency-Key`: only such a bundle carries Powertools Idempotency. */
  readonly idempotencyKey?: boolean;
  /** What invokes it: a schedule gets the background size. */
  readonly invokedBy: FunctionInvoker;
  readonly environment: Readonly<Record<string, string>>;
  readonly logRetentionDays: number;
  /**
   * Concurrent executions reserved for the function, which are also its most: the account's other
   * functions cannot take them, and it cannot take theirs. Unset: it shares the unreserved pool.
   */
  readonly reservedConcurrency?: number;
  /** Where Lambda puts an asynchronous event that failed every attempt; required for scheduled functions. */
  readonly deadLetterQueue?: sqs.IQueue;
  /** The timeout, where the invoker sets it (a queue or stream consumer's definition); unset: by size. */
  readonly timeout?: Duration;
}

/** Single-quoted for the shell that runs the bundling commands. */
function shellQuoted(path: string): string {
  return `'${path.replace(/'/g, "'\\''")}'`;
}

/**
 * The commands that put a function's bundled files (lib/bundled-files.ts) beside its bundle: when
 * the function is bundled (never in a synth that skips bundling), each is written to a folder of
 * its own and copied into the asset after esbuild has run.
 */
function copyBundledFiles(handlerModule: string): nodejs.ICommandHooks {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (_inputDir, outputDir) => {
      const files = Object.entries(bundledFiles(handlerModule));
      if (files.length === 0) return [];
      const folder = mkdtempSync(join(tmpdir(), 'frontend-api-bundled-'));
      for (const [name, content] of files) writeFileSync(join(folder, name), content);
      return files.map(([name]) => `cp ${shellQuoted(join(folder, name))} ${shellQuoted(join(outputDir, name))}`);
    },
  };
}

function bundling(fn: BundledFunction, tracing: boolean): nodejs.BundlingOptions {
  const { handler: handlerModule, image } = fn;
  return {
    target: BUNDLE_SETTINGS.target,
    format: nodejs.OutputFormat.ESM,
    minify: BUNDLE_SETTINGS.minify,
    sourceMap: BUNDLE_SETTINGS.sourcemap,
    sourcesContent: BUNDLE_SETTINGS.sourcesContent,
    mainFields: [...BUNDLE_SETTINGS.mainFields],
    banner: BUNDLE_SETTINGS.banner,
    define: bundleDefines(tracing),
    esbuildArgs: { '--conditions': bundleConditions(fn).join(',') },
    // Explicit even when empty: NodejsFunction leaves `@aws-sdk/*` out by default.
    externalModules: sdkExternalModules(),
    commandHooks: copyBundledFiles(handlerModule),
    ...(image
      ? {
          // Installed with `npm ci` from the lock file next to the bundle; these npm settings make it
          // fetch the linux-arm64 binaries whatever machine synthesizes, and reuse the npm cache.
          nodeModules: [...IMAGE_NODE_MODULES],
          environment: {
            npm_config_os: NATIVE_MODULE_PLATFORM.os,
            npm_config_cpu: NATIVE_MODULE_PLATFORM.cpu,
            npm_config_libc: NATIVE_MODULE_PLATFORM.libc,
            npm_config_prefer_offline: 'true',
          },
        }
      : {}),
  };
}

/**
 * One Lambda function of the service: bundled by the local esbuild exactly as the bundle-size
 * benchmark bundles it, arm64, X-Ray active where the stack traces, its own log group with retention, and a role that can
 * write to that log group and nothing else until a grant adds exactly what the function needs.
 */
export class ServiceFunction extends Construct {
  public readonly function: nodejs.NodejsFunction;
  public readonly role: iam.Role;
  public readonly logGroup: logs.LogGroup;

  public constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.logGroup = serviceLogGroup(this, 'Logs', props.logRetentionDays);
    // An own role instead of the default one: the default attaches AWSLambdaBasicExecutionRole,
    // which may write to every log group of the account.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs ${props.description}`,
    });
    this.logGroup.grantWrite(this.role);
    const size = props.image ? FUNCTION_SIZES.image : props.invokedBy === 'schedule' ? FUNCTION_SIZES.background : FUNCTION_SIZES.standard;
    this.function = new nodejs.NodejsFunction(this, 'Function', {
      entry: entryPath(props.handlerModule),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: LOCK_FILE,
      runtime: FUNCTION_RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      description: props.description,
      memorySize: size.memorySize,
      timeout: props.timeout ?? size.timeout,
      role: this.role,
      logGroup: this.logGroup,
      tracing: tracesWith(props.environment) ? lambda.Tracing.ACTIVE : lambda.Tracing.DISABLED,
      environment: { ...props.environment },
      bundling: bundling({ handler: props.handlerModule, image: props.image, idempotencyKey: props.idempotencyKey }, tracesWith(props.environment)),
      reservedConcurrentExecutions: props.reservedConcurrency,
      deadLetterQueue: props.deadLetterQueue,
    });
    this.acknowledgeFindings(props);
  }

  private acknowledgeFindings(props: ServiceFunctionProps): void {
    if (tracesWith(props.environment)) {
      acknowledgeFindings(this.role, {
        'AwsSolutions-IAM5[Resource::*]':
          'X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions; active tracing needs them on "*". Every data permission of the role names its resources.',
      });
    } else {
      acknowledgeFindings(this.function, {
        'Serverless-LambdaTracing':
          'Tracing is the stack\'s `tracing` setting (-c tracing=true turns it on for every function and the stage). Off by default: the X-Ray SDK would be loaded at every cold start; logs and metrics carry the request ids.',
      });
    }
    if (props.deadLetterQueue) return;
    if (props.invokedBy === 'schedule') throw new Error(`${props.description}: a function invoked asynchronously needs a dead-letter queue.`);
    acknowledgeFindings(this.function, { 'Serverless-LambdaDLQ': NO_DEAD_LETTER_QUEUE[props.invokedBy] });
  }
}
