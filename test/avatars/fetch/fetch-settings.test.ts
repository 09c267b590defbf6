import { resetConfiguration } from '../../../functions/shared/config/define-config';
import { avatarConfig } from '../../../functions/avatars/avatar-config';
import { MAX_REDIRECTS } from '../../../functions/avatars/fetch';
import { addressKey, hostKey, parseAllowHosts } from '../../../functions/avatars/fetch/fetch-settings';

describe('parseAllowHosts', () => {
  it('normalises host:port entries the way the URL parser writes hosts', () => {
    expect([...parseAllowHosts([' 127.0.0.1:4567', 'LocalHost:80 ', '[0:0::1]:8080', '', '2130706433:9000'])]).toEqual([
      '127.0.0.1:4567',
      'localhost:80',
      '[::1]:8080',
      '127.0.0.1:9000',
    ]);
  });

  it.each(['127.0.0.1', 'localhost:', ':80', 'host:0', 'host:65536', 'http://host:80', 'bad host:80'])(
    'refuses the malformed entry %p',
    (entry) => {
      expect(() => parseAllowHosts([entry])).toThrow('AVATAR_FETCH_ALLOW_HOSTS');
    },
  );

  it('keys addresses and hosts alike', () => {
    expect(addressKey('::ffff:127.0.0.1', 80)).toBe('[::ffff:7f00:1]:80');
    expect(addressKey('127.0.0.1', 80)).toBe(hostKey('127.0.0.1', 80));
    expect(addressKey('fe80::1%eth0', 80)).toBe('fe80::1%eth0:80');
  });
});

describe('the fetch limits of the avatar configuration', () => {
  const variables = ['AVATAR_FETCH_ALLOW_HOSTS', 'AVATAR_MAX_BYTES', 'AVATAR_FETCH_CONNECT_TIMEOUT_MS', 'AVATAR_FETCH_TIMEOUT_MS'];
  afterEach(() => {
    variables.forEach((variable) => delete process.env[variable]);
    resetConfiguration();
  });

  it('default to a 10 MiB cap, 3 s to connect, 10 s in all and an empty allow list, with 3 redirects at most', () => {
    expect(avatarConfig().fetch).toEqual({
      maxBytes: 10 * 1024 * 1024,
      connectTimeoutMs: 3000,
      totalTimeoutMs: 10_000,
      allowHosts: new Set(),
    });
    expect(MAX_REDIRECTS).toBe(3);
  });

  it('are read from the environment, the allow list normalised', () => {
    process.env.AVATAR_FETCH_ALLOW_HOSTS = '127.0.0.1:4567,LocalHost:3000';
    process.env.AVATAR_MAX_BYTES = '2000';
    process.env.AVATAR_FETCH_CONNECT_TIMEOUT_MS = '100';
    process.env.AVATAR_FETCH_TIMEOUT_MS = '200';
    resetConfiguration();
    expect(avatarConfig().fetch).toEqual({
      allowHosts: new Set(['127.0.0.1:4567', 'localhost:3000']),
      maxBytes: 2000,
      connectTimeoutMs: 100,
      totalTimeoutMs: 200,
    });
  });

  it('refuse a malformed allow-list entry, naming the variable', () => {
    process.env.AVATAR_FETCH_ALLOW_HOSTS = 'localhost';
    resetConfiguration();
    expect(() => avatarConfig()).toThrow('AVATAR_FETCH_ALLOW_HOSTS');
  });
});
