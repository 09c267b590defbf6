/**
 * The shell examples of a docs page, as the docs test runs them: every fenced block whose language
 * is `sh`, `bash` or `shell`, in document order, with what it states it prints and, for a block that
 * cannot run in a test, the reason given in the comment right before it.
 */

/** One shell example of the README. */
export interface ReadmeBlock {
  /** Line of the opening fence, from 1. */
  readonly line: number;
  /** The commands, as written. */
  readonly script: string;
  /** Outcomes the block states with `# → text`, in order: each must appear in its stdout, in that order. */
  readonly expected: readonly string[];
  /** Why the block is not run, from `<!-- readme-test: skip: reason -->`; undefined when it is run. */
  readonly skipReason?: string;
}

const OPENING = /^```(?:sh|bash|shell)\s*$/;
const CLOSING = /^```\s*$/;
const MARKER = /^<!--\s*readme-test:\s*(.*?)\s*-->$/;
const SKIP = /^skip:\s*(\S.*)$/;
/** `# → text` at the end of a line: text is what the command prints (a part of its output). */
const STATED_OUTCOME = /\s#\s→\s(.+?)\s*$/;

/** The marker that precedes line `index` (blank lines between are allowed): its text and line index. */
function markerBefore(lines: readonly string[], index: number): { readonly text: string; readonly at: number } | undefined {
  for (let at = index - 1; at >= 0; at -= 1) {
    const line = (lines[at] as string).trim();
    if (line === '') continue;
    const text = MARKER.exec(line)?.[1];
    return text === undefined ? undefined : { text, at };
  }
  return undefined;
}

/**
 * The shell blocks of `markdown` (the page named `page` in errors). A marker that is not `skip: <reason>`, or that no block follows,
 * is an error: a typo must not quietly turn an example off or leave a stray comment behind.
 */
export function readmeBlocks(markdown: string, page = 'README'): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  const markersUsed = new Set<number>();
  for (let index = 0; index < lines.length; index += 1) {
    if (!OPENING.test(lines[index] as string)) continue;
    const end = lines.findIndex((line, at) => at > index && CLOSING.test(line));
    if (end === -1) throw new Error(`${page} line ${index + 1}: the shell block is never closed.`);
    const body = lines.slice(index + 1, end);
    const marker = markerBefore(lines, index);
    const skipReason = marker === undefined ? undefined : SKIP.exec(marker.text)?.[1];
    if (marker !== undefined) {
      if (skipReason === undefined) throw new Error(`${page} line ${marker.at + 1}: a marker reads "readme-test: skip: <reason>", not "${marker.text}".`);
      markersUsed.add(marker.at);
    }
    blocks.push({ line: index + 1, script: body.join('\n'), expected: body.flatMap((line) => STATED_OUTCOME.exec(line)?.[1] ?? []), skipReason });
    index = end;
  }
  const stray = lines.findIndex((line, at) => MARKER.test(line.trim()) && !markersUsed.has(at));
  if (stray !== -1) throw new Error(`${page} line ${stray + 1}: a readme-test marker with no shell block after it.`);
  return blocks;
}

/** The stated outcomes missing from `stdout`, each looked for after the previous one. */
export function missingOutcomes(expected: readonly string[], stdout: string): string[] {
  const missing: string[] = [];
  let from = 0;
  for (const text of expected) {
    const at = stdout.indexOf(text, from);
    if (at === -1) missing.push(text);
    else from = at + text.length;
  }
  return missing;
}
