import { avatarConfig } from '../../functions/avatars/avatar-config';
import { backendPorts } from '../../local/backends/backend-env';
import { gatewaySettings } from '../../local/gateway/gateway-settings';
import { checkSettings, FUNCTION_SECTIONS, GATEWAY_SECTIONS, readSettings, SettingsError } from '../../local/local-settings';

describe('whole-number settings', () => {
  it('reads a set value and falls back when unset or empty', () => {
    expect(readSettings(gatewaySettings, { PORT: '8080' }).port).toBe(8080);
    expect(readSettings(gatewaySettings, {}).port).toBe(3000);
    expect(readSettings(gatewaySettings, { PORT: '' }).port).toBe(3000);
  });

  it('takes 0 where it means something: any free port, no authorizer cache', () => {
    expect(readSettings(gatewaySettings, { PORT: '0' }).port).toBe(0);
    expect(readSettings(gatewaySettings, { AUTHORIZER_CACHE_TTL: '0' }).authorizerCacheSeconds).toBe(0);
  });

  it.each([
    ['PORT', '65536', gatewaySettings],
    ['PORT', '1e3', gatewaySettings],
    ['PORT', ' 80', gatewaySettings],
    ['PORT', '0x50', gatewaySettings],
    ['DYNAMODB_LOCAL_PORT', '0', backendPorts],
    ['AUTHORIZER_CACHE_TTL', '3601', gatewaySettings],
    ['AVATAR_MAX_PIXELS', '0', avatarConfig],
    ['AVATAR_FETCH_TIMEOUT_MS', '2.5', avatarConfig],
  ] as const)('refuses %s=%j in one line naming the setting and its range', (name, raw, section) => {
    const check = () => checkSettings([section], { [name]: raw });

    expect(check).toThrow(SettingsError);
    expect(check).toThrow(new RegExp(`^${name}=${JSON.stringify(raw).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be used: set a whole number [^\\n]+, or unset it for [^\\n]+\\.$`));
  });

  it('names every bad setting, one line each', () => {
    const check = () => checkSettings(GATEWAY_SECTIONS, { PORT: 'abc', AUTHORIZER_CACHE_TTL: '-5' });

    expect(check).toThrow(/^PORT="abc" cannot be used[^\n]*\nAUTHORIZER_CACHE_TTL="-5" cannot be used[^\n]*$/);
  });
});

describe('the functions\' settings, checked before a local run starts', () => {
  it('refuses a value the function itself would refuse, with the function\'s bounds', () => {
    const check = () => checkSettings(FUNCTION_SECTIONS, { AVATAR_FETCH_CONNECT_TIMEOUT_MS: '50' });

    expect(check).toThrow(/^AVATAR_FETCH_CONNECT_TIMEOUT_MS="50" cannot be used: set a whole number from 100 to 20000 \(milliseconds to connect to an avatar URL\), or unset it for 3000\.$/);
  });

  it('leaves unset what the local environment supplies later (table names, the avatar base URL, the key file)', () => {
    expect(() => checkSettings(FUNCTION_SECTIONS, {})).not.toThrow();
  });

  it('reports a malformed value of any kind in its own words', () => {
    const check = () => checkSettings(FUNCTION_SECTIONS, { CORS_ALLOWED_ORIGINS: 'not an origin', CURSOR_SECRET: 'short' });

    expect(check).toThrow(/^CURSOR_SECRET must be at least 32 characters\.\nCORS_ALLOWED_ORIGINS must be \*, or a comma-separated list [^\n]+$/);
  });
});
