import { Node } from 'constructs';
import { App } from 'aws-cdk-lib';
import { InvalidSettingError, readStackSettings, SETTINGS_DEFAULTS } from '../../lib/stack-settings';

function settingsFor(context: Record<string, unknown>) {
  return readStackSettings(Node.of(new App({ context })));
}

describe('the stack settings', () => {
  it('default to protected tables, 30-day logs, no CORS and a Cognito issuer', () => {
    expect(settingsFor({})).toEqual({
      deletionProtection: true,
      logRetentionDays: 30,
      apiRateLimit: SETTINGS_DEFAULTS.apiRateLimit,
      apiBurstLimit: SETTINGS_DEFAULTS.apiBurstLimit,
      corsOrigins: [],
      authorizerCacheSeconds: 300,
      externalIssuer: undefined,
      alarmEmail: undefined,
      logLevel: 'INFO',
      tracing: false,
      capacity: { ipRateLimit: 600, tokenRateLimit: 300, authorizerConcurrency: 10, imageRouteConcurrency: 10 },
      feedProducerAccounts: [],
      cursorKeyGeneration: 1,
      mediaLogRetentionDays: 0,
    });
  });

  it('keep the media log for ever unless told a number of days, up to ten years', () => {
    expect(settingsFor({ mediaLogRetentionDays: '90' }).mediaLogRetentionDays).toBe(90);
    expect(() => settingsFor({ mediaLogRetentionDays: '-1' })).toThrow(/mediaLogRetentionDays.*an integer from 0 to 3653/);
    expect(() => settingsFor({ mediaLogRetentionDays: '3654' })).toThrow(/an integer from 0 to 3653/);
  });

  it('give one address a fifth and one token a tenth of the stage rate by default, at least WAF\'s minimum', () => {
    expect(settingsFor({ apiRateLimit: '200' }).capacity).toMatchObject({ ipRateLimit: 2400, tokenRateLimit: 1200 });
    expect(settingsFor({ apiRateLimit: '1' }).capacity).toMatchObject({ ipRateLimit: 12, tokenRateLimit: 10 });
  });

  it('take per-client limits and concurrency caps from context', () => {
    const settings = settingsFor({ ipRateLimit: '900', tokenRateLimit: 120, authorizerConcurrency: '25', imageRouteConcurrency: '4' });
    expect(settings.capacity).toEqual({ ipRateLimit: 900, tokenRateLimit: 120, authorizerConcurrency: 25, imageRouteConcurrency: 4 });
  });

  it.each([
    ['ipRateLimit', '3000', /below the stage's 3000 requests per minute/],
    ['tokenRateLimit', '5000', /below the stage's 3000 requests per minute/],
    ['ipRateLimit', '9', /an integer from 10/],
    ['authorizerConcurrency', '0', /an integer from 1 to 1000/],
    ['imageRouteConcurrency', 'many', /an integer from 1 to 1000/],
  ])('refuse %s = %s, which would not keep one client or route from the others', (key, value, reason) => {
    expect(() => settingsFor({ [key]: value })).toThrow(reason);
  });

  it('read -c strings the way cdk.json values read', () => {
    const settings = settingsFor({ deletionProtection: 'false', apiRateLimit: '20', corsOrigins: 'https://a.example.com, https://b.example.com' });
    expect(settings).toMatchObject({ deletionProtection: false, apiRateLimit: 20, corsOrigins: ['https://a.example.com', 'https://b.example.com'] });
  });

  it.each([
    ['deletionProtection', 'maybe'],
    ['logRetentionDays', '31'],
    ['apiRateLimit', '0'],
    ['authorizerCacheSeconds', '7200'],
    ['corsOrigins', 'https://app.example.com/'],
    ['corsOrigins', '*,https://app.example.com'],
    ['logLevel', 'LOUD'],
    ['alarmEmail', 'not-an-address'],
  ])('refuse a malformed %s (%s)', (key, value) => {
    expect(() => settingsFor({ [key]: value })).toThrow(InvalidSettingError);
  });

  it('refuse an external issuer given in part', () => {
    expect(() => settingsFor({ authIssuer: 'https://id.example.com/' })).toThrow(/all given or all absent/);
  });

  it('refuse a JWKS URL that is not https', () => {
    expect(() => settingsFor({ authIssuer: 'https://id.example.com/', authAudience: 'a', authJwksUrl: 'http://id.example.com/jwks' })).toThrow(InvalidSettingError);
  });
});
