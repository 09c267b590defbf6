import { missingOutcomes, readmeBlocks } from './readme-blocks';

const fence = '```';

describe('readmeBlocks', () => {
  it('finds the sh, bash and shell blocks in order, with their stated outcomes, and leaves other blocks alone', () => {
    const markdown = [
      `${fence}sh`, 'echo one   # → one', `${fence}`,
      `${fence}`, 'not a shell block', `${fence}`,
      `${fence}json`, '{}', `${fence}`,
      `${fence}bash`, 'echo two \\', '  three   # → two three', 'echo four  # → four', `${fence}`,
    ].join('\n');

    expect(readmeBlocks(markdown)).toEqual([
      { line: 1, script: 'echo one   # → one', expected: ['one'], skipReason: undefined },
      { line: 10, script: 'echo two \\\n  three   # → two three\necho four  # → four', expected: ['two three', 'four'], skipReason: undefined },
    ]);
  });

  it('takes the reason of a skip marker right before a block, blank lines allowed', () => {
    const markdown = ['<!-- readme-test: skip: needs an AWS account -->', '', `${fence}sh`, 'npx cdk deploy', `${fence}`].join('\n');

    expect(readmeBlocks(markdown)[0]?.skipReason).toBe('needs an AWS account');
  });

  it.each([
    ['a skip without a reason', ['<!-- readme-test: skip: -->', `${fence}sh`, 'true', `${fence}`], /line 1: a marker reads "readme-test: skip: <reason>"/],
    ['a misspelt marker', ['<!-- readme-test: skipp: reason -->', `${fence}sh`, 'true', `${fence}`], /line 1: a marker reads/],
    ['a marker that no block follows', ['<!-- readme-test: skip: reason -->', 'text', `${fence}sh`, 'true', `${fence}`], /line 1: a readme-test marker with no shell block after it/],
    ['a block never closed', [`${fence}sh`, 'true'], /line 1: the shell block is never closed/],
  ])('refuses %s', (_case, lines, message) => {
    expect(() => readmeBlocks(lines.join('\n'))).toThrow(message);
  });
});

describe('missingOutcomes', () => {
  it('finds stated outcomes in order, and reports those missing or out of order', () => {
    expect(missingOutcomes(['a', 'b'], 'xx a yy b')).toEqual([]);
    expect(missingOutcomes(['b', 'a'], 'xx a yy b')).toEqual(['a']);
    expect(missingOutcomes(['c'], 'xx a yy b')).toEqual(['c']);
  });
});
