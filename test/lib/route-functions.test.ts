import * as lambda from 'aws-cdk-lib/aws-lambda';
import { routes } from '../../functions/routes';
import { deployedFunctions, deployedFunctionsOf, serviceFunctions } from '../../functions/deployed-functions';
import type { DeployedFunction } from '../../functions/shared/deployment/function-definitions';
import { tables } from '../../functions/shared/tables/index';
import { avatarBucket } from '../../functions/shared/storage/avatar-bucket';
import { NODE_MAJOR_VERSION } from '../../lib/function-bundling';
import { FUNCTION_RUNTIME } from '../../lib/constructs/service-function';
import { functionPath, logicalIdAt, sampleRoutes, synthesizeStack, tableLogicalId } from './stack-fixture';

const table = [...routes, ...sampleRoutes()];
const { stack, template } = synthesizeStack({}, { routes: table });
const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;
const functionOf = (path: string[]) => resources[logicalIdAt(stack, path)]?.Properties ?? {};

/** Memory (MB) and timeout (s): image routes decode large images, background sweeps run long. */
const SIZES = {
  standard: { memory: 512, timeout: 10 },
  image: { memory: 1536, timeout: 28 },
  background: { memory: 512, timeout: 900 },
} as const;
type FunctionSize = keyof typeof SIZES;

/** What a function gets, and why. */
type Expected = { readonly label: string; readonly memory: number; readonly timeout: number };
const sized = (size: FunctionSize): Expected => ({ label: size, ...SIZES[size] });

/** A queue or stream consumer is standard-sized, with the timeout its definition gives. */
function expectedOf(fn: DeployedFunction): Expected {
  const definitionTimeout = (timeout: number): Expected => ({ label: 'standard, its definition\'s timeout', memory: SIZES.standard.memory, timeout });
  switch (fn.kind) {
    case 'route':
      return sized(fn.image ? 'image' : 'standard');
    case 'schedule':
      return sized('background');
    case 'queue':
      return definitionTimeout(fn.consumer.timeoutSeconds);
    case 'stream':
      return definitionTimeout(fn.stream.timeoutSeconds);
    case 'authorizer':
    case 'websocket':
      return sized('standard');
  }
}

const allFunctions = deployedFunctionsOf({ ...serviceFunctions, routes: table }).map((fn): [string, string[], Expected] => [
  fn.name,
  [...functionPath(fn), 'Function'],
  expectedOf(fn),
]);

describe('the runtime', () => {
  it('is the newest Node.js runtime aws-cdk-lib offers', () => {
    const nodeVersions = lambda.Runtime.ALL.map((runtime) => /^nodejs(\d+)\.x$/.exec(runtime.name)?.[1])
      .filter((major): major is string => major !== undefined)
      .map(Number);
    expect(FUNCTION_RUNTIME.name).toBe(`nodejs${Math.max(...nodeVersions)}.x`);
  });

  it('is the version the bundles target', () => {
    expect(FUNCTION_RUNTIME.name).toBe(`nodejs${NODE_MAJOR_VERSION}.x`);
  });
});

describe('with -c tracing=true', () => {
  const traced = synthesizeStack({ tracing: 'true' });
  const tracedResources = traced.template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, any> }>;

  it.each(deployedFunctions.map((fn) => [fn.name, functionPath(fn)] as const))('%s traces actively, and its environment says so', (_name, path) => {
    const fn = tracedResources[logicalIdAt(traced.stack, [...path, 'Function'])]?.Properties ?? {};
    expect(fn.TracingConfig).toEqual({ Mode: 'Active' });
    expect(fn.Environment?.Variables?.POWERTOOLS_TRACE_ENABLED).toBe('true');
  });

  it('lets every function send its segments to X-Ray', () => {
    const policies = Object.values(tracedResources).filter((resource) => resource.Type === 'AWS::IAM::Policy');
    const xray = policies.filter((policy) => JSON.stringify(policy.Properties.PolicyDocument).includes('xray:PutTraceSegments'));
    expect(xray.length).toBeGreaterThanOrEqual(deployedFunctions.length);
  });

  it('traces the stage too', () => {
    traced.template.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: true });
  });
});

describe.each(allFunctions)('the %s function', (_name, path, expected) => {
  const fn = functionOf(path);

  it('runs the newest Node.js on arm64, untraced by default', () => {
    expect(fn).toMatchObject({
      Runtime: FUNCTION_RUNTIME.name,
      Architectures: ['arm64'],
      Handler: 'index.handler',
    });
    expect(fn.TracingConfig).toBeUndefined();
    expect(fn.Environment?.Variables?.POWERTOOLS_TRACE_ENABLED).toBe('false');
  });

  it(`gets ${expected.memory} MB and ${expected.timeout} s (${expected.label})`, () => {
    expect({ memory: fn.MemorySize, timeout: fn.Timeout }).toEqual({ memory: expected.memory, timeout: expected.timeout });
  });

  it('knows every table and the bucket by name, and logs and measures as the service', () => {
    const variables = fn.Environment?.Variables ?? {};
    for (const definition of tables) expect(variables[definition.nameEnv]).toEqual({ Ref: tableLogicalId(stack, definition) });
    expect(variables[avatarBucket.nameEnv]).toBeDefined();
    expect(variables).toMatchObject({
      POWERTOOLS_SERVICE_NAME: 'frontend-api',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      POWERTOOLS_METRICS_NAMESPACE: 'FrontendApi',
      NODE_OPTIONS: '--enable-source-maps',
    });
    expect(JSON.stringify(variables.AVATAR_PUBLIC_BASE_URL)).toContain('https://');
  });

  it('logs to its own log group, kept 30 days', () => {
    const logGroupId = logicalIdAt(stack, [...path.slice(0, -1), 'Logs']);
    expect(fn.LoggingConfig).toEqual({ LogGroup: { Ref: logGroupId } });
    expect(resources[logGroupId]?.Properties.RetentionInDays).toBe(30);
  });
});

describe('the authorizer function', () => {
  it('verifies against the stack\'s Cognito pool by default', () => {
    const variables = functionOf(['Auth', 'AuthorizerFunction', 'Function']).Environment.Variables;
    expect(variables.AUTH_COGNITO_CLIENT_ID).toEqual({ Ref: logicalIdAt(stack, ['Auth', 'UserPool', 'FrontendClient']) });
    expect(JSON.stringify(variables.AUTH_JWKS_URL)).toContain('/.well-known/jwks.json');
    expect(variables.AUTH_AUDIENCE).toBeUndefined();
  });

  it('verifies against an external issuer given as context, and then creates no user pool', () => {
    const external = synthesizeStack({
      authIssuer: 'https://id.example.com/',
      authAudience: 'frontend-api',
      authJwksUrl: 'https://id.example.com/.well-known/jwks.json',
      logRetentionDays: 90,
    });
    external.template.resourceCountIs('AWS::Cognito::UserPool', 0);
    external.template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: {
          AUTH_ISSUER: 'https://id.example.com/',
          AUTH_AUDIENCE: 'frontend-api',
          AUTH_JWKS_URL: 'https://id.example.com/.well-known/jwks.json',
        },
      },
    });
    const retentions = Object.values(external.template.findResources('AWS::Logs::LogGroup')).map((group) => group.Properties.RetentionInDays);
    expect(new Set(retentions)).toEqual(new Set([90]));
  });
});
