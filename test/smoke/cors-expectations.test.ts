import { corsAnswerFailures, preflightFailures } from '../../local/smoke/cors-expectations';
import type { ProbeAnswer } from '../../local/smoke/http-probe';

/**
 * The CORS rules the smoke check holds a stage to, on answers a misconfigured stage could give
 * (the local gateway always answers correctly, so these cannot be produced by calling it).
 */

const ORIGIN = 'https://app.example.com';

function answer(status: number, headers: Record<string, string>): ProbeAnswer {
  return { status, headers: new Headers(headers), text: '' };
}

const GOOD_PREFLIGHT = {
  'access-control-allow-origin': ORIGIN,
  'access-control-allow-methods': 'GET,PUT',
  'access-control-allow-headers': 'Authorization,Content-Type,If-Match,Idempotency-Key',
};

describe('preflightFailures', () => {
  it('accepts the preflight the stack configures', () => {
    expect(preflightFailures(answer(200, GOOD_PREFLIGHT), ORIGIN, ['GET', 'PUT'])).toEqual([]);
  });

  it('accepts * for methods, and for every header but Authorization, which a wildcard does not cover', () => {
    const wildcards = { ...GOOD_PREFLIGHT, 'access-control-allow-methods': '*', 'access-control-allow-headers': '*' };
    expect(preflightFailures(answer(204, wildcards), ORIGIN, ['GET', 'PUT'])).toEqual(['Access-Control-Allow-Headers lacks Authorization']);
  });

  it('names the methods and headers a preflight does not allow, and refuses credentials', () => {
    const narrow = { ...GOOD_PREFLIGHT, 'access-control-allow-methods': 'GET', 'access-control-allow-headers': 'content-type', 'access-control-allow-credentials': 'true' };
    expect(preflightFailures(answer(200, narrow), ORIGIN, ['GET', 'PUT'])).toEqual([
      'Access-Control-Allow-Methods lacks PUT',
      'Access-Control-Allow-Headers lacks Authorization, If-Match, Idempotency-Key',
      'sends Access-Control-Allow-Credentials; the API takes bearer tokens, not cookies',
    ]);
  });

  it('names another origin than the one asked for', () => {
    expect(preflightFailures(answer(200, { ...GOOD_PREFLIGHT, 'access-control-allow-origin': 'https://other.example' }), ORIGIN, ['GET'])).toEqual([
      'Access-Control-Allow-Origin is https://other.example, not https://app.example.com',
    ]);
  });
});

describe('corsAnswerFailures', () => {
  it('wants the API headers exposed and Vary: Origin on an answer naming the origin', () => {
    const headers = { 'access-control-allow-origin': ORIGIN, 'access-control-expose-headers': 'ETag' };
    expect(corsAnswerFailures(answer(200, headers), ORIGIN)).toEqual([
      'Access-Control-Expose-Headers lacks Retry-After, WWW-Authenticate',
      'names the origin without Vary: Origin',
    ]);
  });

  it('accepts an answer to any origin (*) without Vary', () => {
    const headers = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'ETag, Retry-After, WWW-Authenticate' };
    expect(corsAnswerFailures(answer(200, headers), ORIGIN)).toEqual([]);
  });
});
