import { parseCorsOrigins } from '../../functions/shared/http/cors-policy';
import { GATEWAY_RESPONSE_TYPES } from '../../functions/shared/http/gateway-problems';
import { gatewayAnswerCorsHeaders, preflightHeaders } from '../../local/gateway/cors';
import { resourcePaths, synthesizeStack, type Resources } from './stack-fixture';

/**
 * CORS in the synthesized stack: every function gets the origin list, every resource a preflight
 * answered by API Gateway, every gateway response CORS headers; and each answer is the one the
 * local gateway gives (local/gateway/cors.ts), so local runs show what AWS does.
 */

const ONE = 'https://app.example.com';
const SEVERAL = 'https://app.example.com,https://admin.example.com';

interface Preflight {
  readonly path: string;
  readonly properties: Record<string, any>;
}

function preflightsOf(resources: Resources): Preflight[] {
  const paths = resourcePaths(resources);
  return Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::ApiGateway::Method' && resource.Properties.HttpMethod === 'OPTIONS')
    .map((resource) => {
      const id = resource.Properties.ResourceId as { Ref?: string };
      // The root resource is referenced with GetAtt, every other one with Ref.
      return { path: id.Ref ? (paths.get(id.Ref) ?? '?') : '/', properties: resource.Properties };
    });
}

/** The headers a preflight gives an allowed `origin`: the static mapping, then the template's overrides. */
function preflightAnswer(preflight: Preflight, origin: string): Record<string, string> {
  const response = preflight.properties.Integration.IntegrationResponses[0];
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(response.ResponseParameters as Record<string, string>)) {
    headers[key.replace('method.response.header.', '')] = value.replace(/^'|'$/g, '');
  }
  const template: string = response.ResponseTemplates?.['application/json'] ?? '';
  if (template.includes(`$origin == "${origin}"`)) {
    for (const [, name, value] of template.matchAll(/#set\(\$context\.responseOverride\.header\.([\w-]+) = (\$origin|"[^"]*")\)/g)) {
      headers[name as string] = value === '$origin' ? origin : (value as string).slice(1, -1);
    }
  }
  return headers;
}

describe.each([
  ['one origin', ONE],
  ['several origins', SEVERAL],
  ['*', '*'],
])('the stack with %s', (_title, corsOrigins) => {
  const { template } = synthesizeStack({ corsOrigins });
  const resources = template.toJSON().Resources as Resources;
  const preflights = preflightsOf(resources);
  const policy = parseCorsOrigins(corsOrigins);

  it('gives every function the origin list', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    expect(functions.length).toBeGreaterThan(0);
    for (const fn of functions) expect(fn.Properties.Environment.Variables.CORS_ALLOWED_ORIGINS).toBe(corsOrigins);
  });

  it('has an OPTIONS method on every resource, the root included, without authorizer', () => {
    const paths = [...resourcePaths(resources).values(), '/'];
    expect(preflights.map((preflight) => preflight.path).sort()).toEqual(paths.sort());
    for (const { properties } of preflights) {
      expect(properties).toMatchObject({ AuthorizationType: 'NONE', Integration: { Type: 'MOCK' } });
      expect(properties.AuthorizerId).toBeUndefined();
    }
  });

  it('answers each configured origin as the local gateway does: that origin, the methods of the path', () => {
    const origins = corsOrigins === '*' ? ['https://anyone.example'] : corsOrigins.split(',');
    for (const preflight of preflights) {
      for (const origin of origins) {
        expect(preflightAnswer(preflight, origin)).toEqual(preflightHeaders(preflight.path, origin, policy));
      }
    }
    const user = preflights.find((preflight) => preflight.path === '/frontend/api/v1/user/current');
    expect(preflightAnswer(user as Preflight, origins[0] as string)).toMatchObject({ 'Access-Control-Allow-Methods': 'GET,PUT' });
  });

  it('gives a refused origin what the local gateway gives it', () => {
    for (const preflight of preflights) {
      expect(preflightAnswer(preflight, 'https://evil.example')).toEqual(preflightHeaders(preflight.path, 'https://evil.example', policy));
    }
  });

  it.each([...GATEWAY_RESPONSE_TYPES])('answers %s with the CORS headers the local gateway gives', (type) => {
    const response = Object.values(template.findResources('AWS::ApiGateway::GatewayResponse')).find((candidate) => candidate.Properties.ResponseType === type);
    const asked = 'https://admin.example.com';
    const rendered = Object.fromEntries(
      Object.entries(response?.Properties.ResponseParameters as Record<string, string>)
        .filter(([key]) => /Access-Control|Vary/.test(key))
        .map(([key, value]) => [key.replace('gatewayresponse.header.', ''), value === 'method.request.header.Origin' ? asked : value.replace(/^'|'$/g, '')]),
    );
    expect(rendered).toEqual(gatewayAnswerCorsHeaders(asked, policy));
  });
});

describe('the stack without origins', () => {
  const { template } = synthesizeStack();

  it('has no preflight and gives no function an origin list', () => {
    expect(preflightsOf(template.toJSON().Resources as Resources)).toEqual([]);
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function'))) {
      expect(fn.Properties.Environment.Variables.CORS_ALLOWED_ORIGINS).toBeUndefined();
    }
  });
});
