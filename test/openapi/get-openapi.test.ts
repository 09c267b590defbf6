import { openApiDocument } from '../../functions/openapi/document';
import { invoke } from '../harness/invoke';
import { assertMatchesContract } from '../harness/contract';

describe('GET /openapi.json', () => {
  it('serves the document without a token', async () => {
    const response = await invoke('getOpenApi');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.body).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    assertMatchesContract('getOpenApi', response);
  });

  it('serves it to a caller with a token just the same (the route is public, the token ignored)', async () => {
    const response = await invoke('getOpenApi', { token: 'not-a-token' });
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
  });

  it('refuses an unknown query parameter with a problem that names it', async () => {
    const response = await invoke('getOpenApi', { query: 'format=yaml' });
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.body.errors).toEqual([{ name: 'format', reason: 'Unknown parameter.' }]);
    assertMatchesContract('getOpenApi', response);
  });

  it('builds the document once per process', () => {
    expect(openApiDocument()).toBe(openApiDocument());
  });
});
