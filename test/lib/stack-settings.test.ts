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
    });
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
