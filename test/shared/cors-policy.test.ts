import { allowedOrigin, gatewayAnswerOrigin, InvalidCorsOriginsError, parseCorsOrigins } from '../../functions/shared/http/cors-policy';
import { LOCAL_CORS_ORIGINS, useLocalCorsOrigins } from '../../local/gateway/cors-local-origins';

describe('the CORS origin list', () => {
  it.each([undefined, '', ' , '])('%j means no CORS at all', (text) => {
    expect(parseCorsOrigins(text)).toEqual({ kind: 'none' });
  });

  it.each([
    ['*'],
    ['https://app.example.com'],
    ['https://app.example.com, https://admin.example.com:8443'],
    ['http://localhost:*,http://127.0.0.1:*'],
  ])('accepts %s', (text) => {
    expect(parseCorsOrigins(text).kind).not.toBe('none');
  });

  it.each([
    ['*,https://app.example.com', 'mixes * with origins'],
    ['https://app.example.com/', 'has a path'],
    ['app.example.com', 'has no scheme'],
    ['https://*.example.com', 'has a wildcard outside the port'],
    ['http://LOCALHOST:*', 'writes the host as no browser does'],
    ['ftp://files.example.com', 'is no web origin'],
    ['https://user@app.example.com', 'carries credentials'],
  ])('refuses %s: it %s', (text) => {
    expect(() => parseCorsOrigins(text)).toThrow(InvalidCorsOriginsError);
  });
});

describe('the allowed origin of a request', () => {
  const list = parseCorsOrigins('https://app.example.com,http://localhost:*');

  it.each([
    ['https://app.example.com', 'https://app.example.com'],
    ['http://localhost:5173', 'http://localhost:5173'],
    ['http://localhost', 'http://localhost'],
  ])('allows %s, naming it', (origin, expected) => {
    expect(allowedOrigin(list, origin)).toBe(expected);
  });

  it.each([
    'https://evil.example',
    'https://app.example.com.evil.example',
    'http://app.example.com',
    'https://app.example.com:444',
    'https://localhost:5173',
    'http://localhost.evil.example:5173',
    'http://localhost:5173/path',
    'null',
    '',
  ])('refuses %j: no origin named, never an echo', (origin) => {
    expect(allowedOrigin(list, origin)).toBeUndefined();
  });

  it('refuses a request without Origin', () => {
    expect(allowedOrigin(list, undefined)).toBeUndefined();
  });

  it('answers * to every origin, and to none, when * is configured', () => {
    const any = parseCorsOrigins('*');
    expect(allowedOrigin(any, 'https://anyone.example')).toBe('*');
    expect(allowedOrigin(any, undefined)).toBe('*');
  });

  it('allows nothing without a list', () => {
    expect(allowedOrigin(parseCorsOrigins(undefined), 'http://localhost:5173')).toBeUndefined();
  });
});

describe("the gateway's own answers", () => {
  it.each([
    ['https://app.example.com', { kind: 'fixed', value: 'https://app.example.com' }],
    ['*', { kind: 'fixed', value: '*' }],
    ['https://app.example.com,https://admin.example.com', { kind: 'echo' }],
    [LOCAL_CORS_ORIGINS, { kind: 'echo' }],
    ['http://localhost:*', { kind: 'echo' }],
  ])('with %s name the origin as %j', (text, expected) => {
    expect(gatewayAnswerOrigin(parseCorsOrigins(text))).toEqual(expected);
  });

  it('carry no origin without a list', () => {
    expect(gatewayAnswerOrigin(parseCorsOrigins(''))).toBeUndefined();
  });
});

describe('the local default', () => {
  it('allows dev servers on loopback, any port, when the variable is unset or blank', () => {
    for (const value of [undefined, ' ']) {
      const env: NodeJS.ProcessEnv = value === undefined ? {} : { CORS_ALLOWED_ORIGINS: value };
      useLocalCorsOrigins(env);
      const policy = parseCorsOrigins(env.CORS_ALLOWED_ORIGINS);
      expect(allowedOrigin(policy, 'http://localhost:5173')).toBe('http://localhost:5173');
      expect(allowedOrigin(policy, 'http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
      expect(allowedOrigin(policy, 'https://app.example.com')).toBeUndefined();
    }
  });

  it('keeps a list the developer set', () => {
    const env: NodeJS.ProcessEnv = { CORS_ALLOWED_ORIGINS: 'https://app.example.com' };
    useLocalCorsOrigins(env);
    expect(env.CORS_ALLOWED_ORIGINS).toBe('https://app.example.com');
  });
});
