import { GATEWAY_RESPONSE_TYPES, gatewayProblem } from '../../functions/shared/http/gateway-problems';
import { PROBLEM_MEDIA_TYPE as PROBLEM_CONTENT_TYPE } from '../../functions/shared/http/problem-catalog';
import { synthesizeStack } from './stack-fixture';

type GatewayResponse = { Properties: { ResponseType: string; StatusCode: string; ResponseParameters: Record<string, string>; ResponseTemplates: Record<string, string> } };

function responsesByType(template: ReturnType<typeof synthesizeStack>['template']): Map<string, GatewayResponse> {
  const found = template.findResources('AWS::ApiGateway::GatewayResponse') as Record<string, GatewayResponse>;
  return new Map(Object.values(found).map((response) => [response.Properties.ResponseType, response]));
}

describe('the gateway responses', () => {
  const responses = responsesByType(synthesizeStack().template);

  it('customise every response type API Gateway has', () => {
    expect([...responses.keys()].sort()).toEqual([...GATEWAY_RESPONSE_TYPES].sort());
  });

  it.each([...GATEWAY_RESPONSE_TYPES])('%s answers its problem as application/problem+json', (type) => {
    const response = responses.get(type);
    const body = JSON.parse(response?.Properties.ResponseTemplates[PROBLEM_CONTENT_TYPE] ?? 'null');
    expect(body).toEqual(gatewayProblem(type).body);
    expect(Object.keys(body)).toEqual(['type', 'title', 'status', 'detail', 'code']);
    expect(response?.Properties.StatusCode).toBe(String(body.status));
    expect(response?.Properties.ResponseParameters['gatewayresponse.header.Content-Type']).toBe(`'${PROBLEM_CONTENT_TYPE}'`);
  });

  it('answers 401 with WWW-Authenticate: Bearer error="invalid_token"', () => {
    const unauthorized = responses.get('UNAUTHORIZED');
    expect(unauthorized?.Properties.StatusCode).toBe('401');
    expect(unauthorized?.Properties.ResponseParameters['gatewayresponse.header.WWW-Authenticate']).toBe(`'Bearer error="invalid_token"'`);
  });

  it('answers an unknown route 404 not_found instead of 403 Missing Authentication Token', () => {
    const missing = responses.get('MISSING_AUTHENTICATION_TOKEN');
    expect(missing?.Properties.StatusCode).toBe('404');
    expect(JSON.parse(missing?.Properties.ResponseTemplates[PROBLEM_CONTENT_TYPE] ?? '{}').code).toBe('not_found');
  });

  it.each([
    ['ACCESS_DENIED', '403'],
    ['RESOURCE_NOT_FOUND', '404'],
    ['REQUEST_TOO_LARGE', '413'],
    ['THROTTLED', '429'],
    ['INTEGRATION_TIMEOUT', '504'],
    ['DEFAULT_4XX', '400'],
    ['DEFAULT_5XX', '500'],
  ])('answers %s with status %s', (type, status) => {
    expect(responses.get(type)?.Properties.StatusCode).toBe(status);
  });

  it('add no CORS headers when no origin is configured', () => {
    const headers = Object.keys(responses.get('UNAUTHORIZED')?.Properties.ResponseParameters ?? {});
    expect(headers.filter((header) => header.includes('Access-Control'))).toEqual([]);
  });
});

describe('the gateway responses with CORS origins', () => {
  it('allow the one configured origin and expose WWW-Authenticate', () => {
    const responses = responsesByType(synthesizeStack({ corsOrigins: 'https://app.example.com' }).template);
    expect(responses.get('UNAUTHORIZED')?.Properties.ResponseParameters).toMatchObject({
      'gatewayresponse.header.Access-Control-Allow-Origin': "'https://app.example.com'",
      'gatewayresponse.header.Access-Control-Expose-Headers': "'ETag, Retry-After, WWW-Authenticate'",
    });
  });

  it('echo the request\'s origin when several are configured', () => {
    const responses = responsesByType(synthesizeStack({ corsOrigins: 'https://app.example.com,https://admin.example.com' }).template);
    expect(responses.get('THROTTLED')?.Properties.ResponseParameters).toMatchObject({
      'gatewayresponse.header.Access-Control-Allow-Origin': 'method.request.header.Origin',
      'gatewayresponse.header.Vary': "'Origin'",
    });
  });
});

describe('the gateway problem table', () => {
  it.each([...GATEWAY_RESPONSE_TYPES])('%s renders as a literal mapping template (no VTL $ or #)', (type) => {
    expect(JSON.stringify(gatewayProblem(type).body)).not.toMatch(/[$#]/);
  });

  it('uses the functions\' problem type URIs', () => {
    expect(gatewayProblem('UNAUTHORIZED').body.type).toBe('urn:frontend-api:problem:unauthorized');
  });
});
