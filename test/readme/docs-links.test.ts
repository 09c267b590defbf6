import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { citations, DOCS_PAGES, headingAnchors, relativeLinks, slugOf } from './docs-pages';

const ROOT = process.cwd();
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
const trackedPaths = new Set(tracked.flatMap((path) => path.split('/').map((_, at, parts) => parts.slice(0, at + 1).join('/'))));
const pages = new Map(DOCS_PAGES.map((page) => [page as string, readFileSync(join(ROOT, page), 'utf8')]));
const anchorsOf = new Map([...pages].map(([page, text]) => [page, headingAnchors(text)]));

/** Why `anchor` of `page` cannot be followed, or undefined when it can. */
function anchorProblem(page: string, anchor: string): string | undefined {
  const anchors = anchorsOf.get(page);
  if (anchors === undefined) return `${page} is not a docs page`;
  return anchors.has(anchor) ? undefined : `${page} has no heading #${anchor}`;
}

describe('slugOf', () => {
  it.each([
    ['Safe retries (`Idempotency-Key`)', 'safe-retries-idempotency-key'],
    ["An avatar from the user's own file", 'an-avatar-from-the-users-own-file'],
    ['Watching, replaying and repairing the fold', 'watching-replaying-and-repairing-the-fold'],
    ['The [typed client](x.md) and its_package', 'the-typed-client-and-its_package'],
  ])('gives %s the anchor GitHub gives it', (heading, anchor) => {
    expect(slugOf(heading)).toBe(anchor);
  });

  it('numbers a repeated heading as GitHub does', () => {
    expect([...headingAnchors('# Locally\n\n```sh\n# not a heading\n```\n## Locally\n')]).toEqual(['locally', 'locally-1']);
  });
});

describe('citations', () => {
  it('finds a heading cited by name, over comment lines, and by anchor', () => {
    const source = ['// repairs what it missed (docs/operations.md,', '// "Watching the fold"); see README.md#a-five-minute-tour', " * CONTRIBUTING's \"Tests\""].join('\n');

    expect(citations(source).map(({ page, anchor }) => [page, anchor])).toEqual([
      ['docs/operations.md', 'watching-the-fold'],
      ['CONTRIBUTING.md', 'tests'],
      ['README.md', 'a-five-minute-tour'],
    ]);
  });
});

describe('the documentation pages', () => {
  it('lists every Markdown page of the project, in reading order, README first', () => {
    const markdown = tracked.filter((path) => path.endsWith('.md')).sort();

    expect([...DOCS_PAGES].sort()).toEqual(markdown);
    expect(DOCS_PAGES[0]).toBe('README.md');
  });

  it('keeps the README a tour: at most 150 lines, the rest in the guides', () => {
    expect((pages.get('README.md') as string).trimEnd().split('\n').length).toBeLessThanOrEqual(150);
  });

  it.each([...DOCS_PAGES])('%s links only to files and headings that exist', (page) => {
    const broken = relativeLinks(pages.get(page) as string).flatMap(({ target, line }) => {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path === '' ? page : normalize(join(dirname(page), decodeURI(path))).replace(/\/$/, '');
      if (!trackedPaths.has(file)) return [`line ${line}: ${target}: no file ${file}`];
      const problem = anchor === undefined ? undefined : anchorProblem(file, anchor);
      return problem === undefined ? [] : [`line ${line}: ${target}: ${problem}`];
    });

    expect(broken).toEqual([]);
  });

  it('has every heading that a source file cites', () => {
    const sources = tracked.filter((path) => !path.endsWith('.md') && !path.startsWith('test/readme/') && path !== 'package-lock.json');
    const cited = sources.flatMap((path) => citations(readFileSync(join(ROOT, path), 'utf8')).map((citation) => ({ path, ...citation })));
    const broken = cited.flatMap(({ path, page, anchor, quoted }) => {
      const problem = anchorProblem(page, anchor);
      return problem === undefined ? [] : [`${path}: ${quoted}: ${problem}`];
    });

    expect(cited.length).toBeGreaterThan(0);
    expect(broken).toEqual([]);
  });
});
