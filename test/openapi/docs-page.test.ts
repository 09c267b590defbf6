import { DOCS_PATH, GUIDE_PATH, serveDocs } from '../../local/gateway/docs-page';

function text(path: string): string {
  const answer = serveDocs('GET', path);
  if (!answer) throw new Error(`Nothing served at ${path}`);
  return answer.body.toString('utf8');
}

describe('serveDocs', () => {
  it('serves the page at /frontend/api/v1/docs, loading the renderer from this origin only', () => {
    const answer = serveDocs('GET', '/frontend/api/v1/docs');
    expect(answer).toMatchObject({ statusCode: 200, headers: { 'content-type': 'text/html; charset=utf-8' } });
    const scripts = [...text(DOCS_PATH).matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const source of scripts) expect(source).toMatch(new RegExp(`^${DOCS_PATH}/`));
    expect(answer?.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('serves every file the page loads, from the installed renderer, with its media type', () => {
    for (const source of [...text(DOCS_PATH).matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string)) {
      const answer = serveDocs('GET', source);
      expect([source, answer?.statusCode]).toEqual([source, 200]);
      expect(answer?.body.byteLength).toBeGreaterThan(0);
    }
    expect(serveDocs('GET', `${DOCS_PATH}/swagger-ui-bundle.js`)?.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(serveDocs('GET', `${DOCS_PATH}/swagger-ui.css`)?.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('points the renderer at the OpenAPI route and at the gateway that served the page', () => {
    const init = text(`${DOCS_PATH}/docs-init.js`);
    expect(init).toContain('"/frontend/api/v1/openapi.json"');
    expect(init).toContain('window.location.origin');
  });

  it("links the frontend developer's guide, which links the page back", () => {
    expect(text(DOCS_PATH)).toContain(`<a href="${GUIDE_PATH}">frontend developer's guide</a>`);
    expect(serveDocs('GET', GUIDE_PATH)?.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text(GUIDE_PATH)).toMatch(/^# The frontend developer's guide$/m);
    expect(text(GUIDE_PATH)).toContain(`(http://127.0.0.1:3000${DOCS_PATH})`);
  });

  it.each([
    ['another path', 'GET', '/frontend/api/v1/user/current'],
    ['a file the page does not load', 'GET', `${DOCS_PATH}/package.json`],
    ['a path outside the renderer', 'GET', `${DOCS_PATH}/../../../../etc/passwd`],
    ['an encoded traversal', 'GET', `${DOCS_PATH}/..%2F..%2Fpackage.json`],
    ['another method', 'POST', DOCS_PATH],
  ])('leaves %s to the gateway', (_, method, path) => {
    expect(serveDocs(method, path)).toBeNull();
  });
});
