/**
 * The documentation pages, in the order a newcomer reads them: the README, then each reader's
 * guide, then the web client's page. The docs test runs their shell examples in this order as one
 * terminal session, and checks the links between them.
 */

/** Every page of documentation, in reading order; a Markdown file of the project missing here fails the docs test. */
export const DOCS_PAGES = [
  'README.md',
  'docs/frontend.md',
  'docs/pipeline.md',
  'docs/operations.md',
  'CONTRIBUTING.md',
  'clients/web/README.md',
] as const;

/**
 * A page's headings, as GitHub turns them into anchors: lowercase, punctuation dropped (hyphens
 * and underscores kept), spaces made hyphens, and a repeated heading numbered `-1`, `-2`, ….
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const heading of headings(markdown)) {
    const slug = slugOf(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The anchor GitHub gives a heading of this text. */
export function slugOf(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The text of every ATX heading of `markdown` outside fenced blocks. */
export function headings(markdown: string): string[] {
  return prose(markdown).flatMap((line) => /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1] ?? []);
}

/** The lines of `markdown` outside fenced code blocks (whose lines are replaced by empty ones). */
export function prose(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** A link of a page: its target as written and the line it is on, from 1. */
export interface PageLink {
  readonly target: string;
  readonly line: number;
}

/** The Markdown links of `markdown` (outside code blocks and code spans) that stay in the repository. */
export function relativeLinks(markdown: string): PageLink[] {
  return prose(markdown).flatMap((text, index) =>
    [...text.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1] as string)
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .map((target) => ({ target, line: index + 1 })),
  );
}

/** The fenced blocks of `markdown` in `language`, with the line of each opening fence, from 1. */
export function fencedBlocks(markdown: string, language: string): { readonly line: number; readonly text: string }[] {
  const lines = markdown.split('\n');
  const blocks: { line: number; text: string }[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    if ((lines[index] as string).trim() !== `\`\`\`${language}`) continue;
    const end = lines.findIndex((line, at) => at > index && /^\s*```\s*$/.test(line));
    blocks.push({ line: index + 1, text: lines.slice(index + 1, end === -1 ? undefined : end).join('\n') });
    index = end === -1 ? lines.length : end;
  }
  return blocks;
}

/** A heading of a page that a source comment cites: `docs/operations.md, "Deploy"` or `CONTRIBUTING.md#tests-and-benchmarks`. */
export interface Citation {
  readonly page: string;
  readonly anchor: string;
  readonly quoted: string;
}

const PAGE_NAME = String.raw`(README|CONTRIBUTING|docs/[\w-]+|clients/web/README)(?:\.md)?`;
const BY_HEADING = new RegExp(String.raw`\b${PAGE_NAME}(?:'s)?,?\s+"([^"]+)"`, 'g');
const BY_ANCHOR = new RegExp(String.raw`\b${PAGE_NAME}#([\w-]+)`, 'g');

/**
 * The page headings `source` cites, by heading (`README, "Deploy"`, `the README's "Deploy"`) or by
 * anchor (`README.md#deploy`), a citation split over comment lines included.
 */
export function citations(source: string): Citation[] {
  const joined = source.replace(/\n\s*(?:\/\/+|\*|#)?\s*/g, ' ');
  return [
    ...[...joined.matchAll(BY_HEADING)].map((match) => ({ page: `${match[1]}.md`, anchor: slugOf(match[2] as string), quoted: match[0] })),
    ...[...joined.matchAll(BY_ANCHOR)].map((match) => ({ page: `${match[1]}.md`, anchor: match[2] as string, quoted: match[0] })),
  ];
}
