import { versionFromIfMatch } from '../../functions/shared/http/if-match';
import { invoke } from '../harness/invoke';
import { createTestUser } from '../harness/users';

/**
 * `If-Match` by RFC 9110 section 13.1.1: `*` or a list of entity tags, compared strongly. A
 * well-formed tag that is not the current version fails the condition (412); only a header that is
 * not that syntax is a 400.
 */

describe('If-Match on a profile update', () => {
  it.each([
    ['the current strong tag', 200, (etag: string) => etag],
    ['a list naming the current tag', 200, (etag: string) => `"0", ${etag}, "zz"`],
    ['*', 200, () => '*'],
    ['another quoted tag', 412, () => '"some-other-version"'],
    ['an empty quoted tag', 412, () => '""'],
    ['the current tag made weak (strong comparison never matches it)', 412, (etag: string) => `W/${etag}`],
    ['a list of other tags', 412, () => '"7", W/"8", "9"'],
    ['an unquoted value', 400, () => 'abc'],
    ['an unterminated tag', 400, () => '"abc'],
    ['a list with a broken element', 400, (etag: string) => `${etag}, nope`],
    ['a list with empty elements (RFC 9110 section 5.6.1.2)', 200, (etag: string) => `, ${etag} ,,`],
    ['an empty value', 400, () => ''],
    ['nothing but spaces', 400, () => '   '],
    ['a list of nothing but commas', 400, () => ', ,'],
  ])('with %s answers %i', async (_name, status, header) => {
    const user = await createTestUser();
    const read = await invoke('getCurrentUser', { token: user.token });
    const response = await invoke('updateCurrentUser', {
      token: user.token,
      headers: { 'If-Match': header(read.headers.etag as string) },
      body: { 'first-name': 'Conditional' },
    });
    expect(response.status).toBe(status);
    if (status === 412) expect(response.body.code).toBe('precondition_failed');
    if (status === 400) expect(response.body.errors).toEqual([expect.objectContaining({ name: 'If-Match' })]);
  });

  it('makes the write conditional on the current version, and imposes no condition for * or no header', () => {
    expect(versionFromIfMatch('"7"', 7)).toBe(7);
    expect(versionFromIfMatch(undefined, 7)).toBeUndefined();
    expect(versionFromIfMatch(' * ', 7)).toBeUndefined();
  });
});
