import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { API_PREFIX, type RouteDefinition } from '../functions/shared/http/route-definition';
import { preflightCorsHeaders, type CorsPolicy } from '../functions/shared/http/cors-policy';

/**
 * The CORS preflight of the REST API: an `OPTIONS` method on every resource, answered by API
 * Gateway itself through a mock integration, without the authorizer (a browser sends no token on a
 * preflight). https://docs.aws.amazon.com/apigateway/latest/developerguide/how-to-cors.html
 *
 * Not CDK's `defaultCorsPreflightOptions`: for several origins it answers a refused origin with the
 * first configured one, and it allows the same methods on every resource. Here an allowed origin
 * gets the resource's own methods, a refused one gets no CORS header at all (as from the local
 * gateway, local/gateway/cors.ts). The header values come from the same data as the local gateway's.
 */

/** The VTL variable holding the request's origin in the integration response template. */
const ORIGIN_VARIABLE = '$origin';

function literal(value: string): string {
  return `'${value}'`;
}

/**
 * The integration response template of a list of exact origins: for an allowed origin, set the
 * preflight headers through `$context.responseOverride`, which may create headers the static
 * mapping lacks (https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-override-request-response-parameters.html).
 * Each header is set once, as the overrides are final.
 */
function allowListTemplate(origins: readonly string[], methods: readonly string[]): string {
  const condition = origins.map((origin) => `${ORIGIN_VARIABLE} == "${origin}"`).join(' || ');
  const overrides = Object.entries(preflightCorsHeaders(ORIGIN_VARIABLE, methods)).map(([name, value]) =>
    `  #set($context.responseOverride.header.${name} = ${value === ORIGIN_VARIABLE ? value : `"${value}"`})`,
  );
  return [
    // API Gateway keeps request header names as sent; HTTP/2 clients send them in lower case.
    `#set(${ORIGIN_VARIABLE} = $input.params().header.get("Origin"))`,
    `#if(!${ORIGIN_VARIABLE} || ${ORIGIN_VARIABLE} == "")`,
    `  #set(${ORIGIN_VARIABLE} = $input.params().header.get("origin"))`,
    '#end',
    `#if(${condition})`,
    ...overrides,
    '#end',
  ].join('\n');
}

/** The OPTIONS method of one resource with `methods`, under `policy` (`any` or a list of exact origins). */
function addPreflight(resource: apigateway.IResource, methods: readonly string[], policy: CorsPolicy): void {
  if (policy.kind === 'none') return;
  if (policy.kind === 'list' && policy.anyPort.length > 0) {
    throw new Error('Any-port origins (scheme://host:*) are a local setting; the stack takes exact origins or *.');
  }
  const staticHeaders: Record<string, string> = { Vary: 'Origin', ...(policy.kind === 'any' ? preflightCorsHeaders('*', methods) : {}) };
  const declared = { ...preflightCorsHeaders('*', methods), Vary: 'Origin' };
  const template = policy.kind === 'list' ? { 'application/json': allowListTemplate([...policy.exact], methods) } : undefined;
  resource.addMethod(
    'OPTIONS',
    new apigateway.MockIntegration({
      requestTemplates: { 'application/json': '{ "statusCode": 200 }' },
      integrationResponses: [
        {
          statusCode: '204',
          responseParameters: Object.fromEntries(Object.entries(staticHeaders).map(([name, value]) => [`method.response.header.${name}`, literal(value)])),
          ...(template ? { responseTemplates: template } : {}),
        },
      ],
    }),
    {
      authorizationType: apigateway.AuthorizationType.NONE,
      methodResponses: [{ statusCode: '204', responseParameters: Object.fromEntries(Object.keys(declared).map((name) => [`method.response.header.${name}`, true])) }],
    },
  );
}

/** Every resource of the API below and including its root. */
function resourcesOf(api: apigateway.RestApi): apigateway.IResource[] {
  return [api.root, ...api.root.node.findAll().filter((child): child is apigateway.Resource => child instanceof apigateway.Resource)];
}

/** Adds the preflight to every resource of `api`, each allowing the methods its routes have. */
export function addCorsPreflights(api: apigateway.RestApi, routes: readonly RouteDefinition[], policy: CorsPolicy): void {
  for (const resource of resourcesOf(api)) {
    const methods = routes.filter((route) => `${API_PREFIX}${route.path}` === resource.path).map((route) => route.method);
    addPreflight(resource, methods, policy);
  }
}
