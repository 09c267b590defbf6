import { checkSettings, GATEWAY_SETTINGS, SettingsError, wholeNumberSetting } from '../../local/local-settings';

describe('whole-number settings', () => {
  it('reads a set value and falls back when unset or empty', () => {
    expect(wholeNumberSetting('PORT', 3000, { PORT: '8080' })).toBe(8080);
    expect(wholeNumberSetting('PORT', 3000, {})).toBe(3000);
    expect(wholeNumberSetting('PORT', 3000, { PORT: '' })).toBe(3000);
  });

  it('takes 0 where it means something: any free port, no authorizer cache', () => {
    expect(wholeNumberSetting('PORT', 3000, { PORT: '0' })).toBe(0);
    expect(wholeNumberSetting('AUTHORIZER_CACHE_TTL', 300, { AUTHORIZER_CACHE_TTL: '0' })).toBe(0);
  });

  it.each([
    ['PORT', '65536'],
    ['PORT', '1e3'],
    ['PORT', ' 80'],
    ['PORT', '0x50'],
    ['DYNAMODB_LOCAL_PORT', '0'],
    ['AUTHORIZER_CACHE_TTL', '3601'],
    ['AVATAR_MAX_PIXELS', '0'],
    ['AVATAR_FETCH_TIMEOUT_MS', '2.5'],
  ] as const)('refuses %s=%j in one line naming the setting and its range', (name, raw) => {
    expect(() => wholeNumberSetting(name, 1, { [name]: raw })).toThrow(SettingsError);
    expect(() => wholeNumberSetting(name, 1, { [name]: raw })).toThrow(new RegExp(`^${name}=${JSON.stringify(raw).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be used: set a whole number [^\\n]+, or unset it for [^\\n]+\\.$`));
  });

  it('names every bad setting, one line each', () => {
    const check = () => checkSettings(GATEWAY_SETTINGS, { PORT: 'abc', AUTHORIZER_CACHE_TTL: '-5' });

    expect(check).toThrow(/^PORT="abc" cannot be used[^\n]*\nAUTHORIZER_CACHE_TTL="-5" cannot be used[^\n]*$/);
  });
});
