import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '@mermaid-js/parser';
import { DOCS_PAGES, fencedBlocks } from './docs-pages';

/**
 * Every Mermaid diagram of the docs parses, with the parser of Mermaid's own project. It parses
 * the diagram types whose grammars Mermaid has moved to it (architecture among them), not yet
 * flowcharts or sequence diagrams: the docs draw with the types it parses, so a diagram that would
 * not render is a failing test rather than a broken picture.
 */

/** The parser's name of each diagram type the docs may use, by the keyword that opens a diagram. */
const PARSED_TYPES: Readonly<Record<string, 'architecture'>> = { 'architecture-beta': 'architecture' };

const diagrams = DOCS_PAGES.flatMap((page) =>
  fencedBlocks(readFileSync(join(process.cwd(), page), 'utf8'), 'mermaid').map((block) => ({ page, ...block })),
);

describe('the Mermaid diagrams of the docs', () => {
  it('draw the architecture and the life of a media request', () => {
    expect(diagrams.length).toBeGreaterThanOrEqual(2);
  });

  it.each(diagrams.map((diagram) => [`${diagram.page}:${diagram.line}`, diagram] as const))('%s parses', async (_where, diagram) => {
    const keyword = diagram.text.trim().split(/\s/)[0] as string;
    const type = PARSED_TYPES[keyword];

    expect({ keyword, parsed: type !== undefined }).toEqual({ keyword, parsed: true });
    await expect(parse(type as 'architecture', diagram.text)).resolves.toBeDefined();
  });
});
