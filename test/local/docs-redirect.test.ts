import { DOCS_PATH, serveDocs } from '../../local/gateway/docs-page';

describe('the way to the docs page', () => {
  it.each(['/', '/frontend/api/v1', '/frontend/api/v1/'])('redirects GET %s to the docs page (302)', (path) => {
    const answer = serveDocs('GET', path);

    expect(answer).toMatchObject({ statusCode: 302, headers: { location: DOCS_PATH } });
  });

  it.each([
    ['another method on the base URL', 'POST', '/frontend/api/v1'],
    ['a path that only starts like the base URL', 'GET', '/frontend/api/v10'],
    ['an API route', 'GET', '/frontend/api/v1/user/current'],
  ])('leaves %s to the gateway', (_case, method, path) => {
    expect(serveDocs(method, path)).toBeNull();
  });
});
