import httpSecurityHeaders from '@middy/http-security-headers';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { SECURITY_HEADERS } from '../../functions/shared/http/security-headers';
import { invoke } from '../harness/invoke';

/**
 * The fixed security headers of every answer: the set `@middy/http-security-headers` gives a JSON
 * answer (and an answer without a body), so writing them out changed no header a client sees.
 */

async function middyHeaders(response: APIGatewayProxyResult): Promise<Record<string, unknown>> {
  const middleware = httpSecurityHeaders({ reportingEndpoints: false } as Parameters<typeof httpSecurityHeaders>[0]);
  const request = { event: {}, response: { ...response, headers: { ...response.headers } } };
  await middleware.after?.(request as never);
  const { 'content-type': _contentType, ...added } = request.response.headers as Record<string, unknown>;
  return added;
}

describe('the security headers', () => {
  it('are those middy gives a JSON answer', async () => {
    expect(await middyHeaders({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{}' })).toEqual(SECURITY_HEADERS);
  });

  it('are those middy gives a problem and an answer without a body', async () => {
    expect(await middyHeaders({ statusCode: 400, headers: { 'content-type': 'application/problem+json' }, body: '{}' })).toEqual(SECURITY_HEADERS);
    expect(await middyHeaders({ statusCode: 204, headers: {}, body: '' })).toEqual(SECURITY_HEADERS);
  });

  it('come on a success and on a problem of a route', async () => {
    const success = await invoke('getOpenApi', {});
    const problem = await invoke('getOpenApi', { query: 'unknown=1' });

    expect(success.status).toBe(200);
    expect(problem.status).toBe(400);
    for (const response of [success, problem]) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect([name, response.headers[name.toLowerCase()]]).toEqual([name, value]);
    }
  });
});
