import { buildAuthorizerEvent, buildProxyEvent } from '../../local/gateway/proxy-event';
import { matchRoute } from '../../local/gateway/route-matcher';
import { localRequest } from '../harness/invoke';

function eventFor(request: ReturnType<typeof localRequest>, authorizer: Record<string, string> | null = null) {
  const match = matchRoute(request.method, request.path);
  if (!match) throw new Error('no route');
  return buildProxyEvent(request, match, authorizer);
}

describe('REST API proxy event mapping', () => {
  const request = localRequest('updateUser', {
    pathParameters: { 'user-id': 42 },
    query: 'status=active&status=pending&sort%5Bfield%5D=email&empty=',
    headers: { Cookie: 'a=1; b=2', 'X-Trace': 'one', 'User-Agent': 'jest' },
    body: { 'first-name': 'Ada' },
  });
  const event = eventFor({ ...request, headers: [...request.headers, ['X-Trace', 'two']] }, { userId: '7', role: 'user', parentId: '' });

  it('fills resource, path and path parameters like API Gateway', () => {
    expect(event.resource).toBe('/frontend/api/v1/user/{user-id}');
    expect(event.path).toBe('/frontend/api/v1/user/42');
    expect(event.httpMethod).toBe('PUT');
    expect(event.pathParameters).toEqual({ 'user-id': '42' });
  });

  it('keeps repeated query keys apart, with the last value in queryStringParameters', () => {
    expect(event.multiValueQueryStringParameters).toEqual({ status: ['active', 'pending'], 'sort[field]': ['email'], empty: [''] });
    expect(event.queryStringParameters).toEqual({ status: 'pending', 'sort[field]': 'email', empty: '' });
  });

  it('keeps headers as sent, repeated ones in multiValueHeaders, cookies in the Cookie header', () => {
    expect(event.headers['Cookie']).toBe('a=1; b=2');
    expect(event.headers['X-Trace']).toBe('two');
    expect(event.multiValueHeaders['X-Trace']).toEqual(['one', 'two']);
    expect(event.headers['Content-Type']).toBe('application/json');
  });

  it('passes a JSON body as text and a binary body base64-encoded', () => {
    expect(event.body).toBe('{"first-name":"Ada"}');
    expect(event.isBase64Encoded).toBe(false);
    const binary = eventFor({ ...request, headers: [['Content-Type', 'image/png']], body: Buffer.from([0x89, 0x50, 0x00, 0xff]) });
    expect(binary.isBase64Encoded).toBe(true);
    expect(Buffer.from(binary.body as string, 'base64')).toEqual(Buffer.from([0x89, 0x50, 0x00, 0xff]));
  });

  it('fills requestContext as AWS does, with the authorizer context', () => {
    expect(event.requestContext).toMatchObject({
      resourcePath: '/frontend/api/v1/user/{user-id}',
      httpMethod: 'PUT',
      path: '/local/frontend/api/v1/user/42',
      stage: 'local',
      identity: { sourceIp: '127.0.0.1', userAgent: 'jest' },
      authorizer: { userId: '7', role: 'user', parentId: '', principalId: '7' },
    });
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives null query maps when there is no query, as AWS does', () => {
    const plain = eventFor(localRequest('getCurrentUser'));
    expect(plain.queryStringParameters).toBeNull();
    expect(plain.multiValueQueryStringParameters).toBeNull();
    expect(plain.pathParameters).toBeNull();
    expect(plain.body).toBeNull();
  });

  it('builds the REQUEST authorizer event with a method ARN for the route', () => {
    const authorizerEvent = buildAuthorizerEvent(event);
    expect(authorizerEvent.type).toBe('REQUEST');
    expect(authorizerEvent.methodArn).toMatch(/^arn:aws:execute-api:[\w-]+:\d{12}:localapi\/local\/PUT\/frontend\/api\/v1\/user\/42$/);
    expect(authorizerEvent.headers?.['Cookie']).toBe('a=1; b=2');
  });
});

describe('route matching', () => {
  it('prefers the literal /user/current over /user/{user-id}', () => {
    expect(matchRoute('GET', '/frontend/api/v1/user/current')?.route.name).toBe('getCurrentUser');
    expect(matchRoute('GET', '/frontend/api/v1/user/12')?.route.name).toBe('getUser');
  });

  it('matches nothing for unknown paths, methods and trailing slashes', () => {
    expect(matchRoute('GET', '/frontend/api/v1/nope')).toBeNull();
    expect(matchRoute('PATCH', '/frontend/api/v1/user/current')).toBeNull();
    expect(matchRoute('GET', '/frontend/api/v1/user/current/')).toBeNull();
  });
});
