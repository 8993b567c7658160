import { describe, expect, it } from 'vitest';
import { stripMarkdownLabRegions } from './markdown-regions.js';

describe('stripMarkdownLabRegions', () => {
  it('given a region, then its lines and both markers go and the rest stays as it was', () => {
    const text = [
      '# Running',
      '',
      '<!-- lab:begin -->',
      'Open the [console](console.md).',
      '<!-- lab:end -->',
      '',
      '1. start it',
      '   <!-- lab:begin: a list item of the lab -->',
      '2. run `pnpm scenario`',
      '   <!-- lab:end -->',
      '3. stop it',
      '',
    ].join('\n');
    expect(stripMarkdownLabRegions(text, 'docs/x.md')).toEqual({
      text: '# Running\n\n\n1. start it\n3. stop it\n',
      regions: ['line 3 (3 lines)', 'line 8 (3 lines)'],
    });
  });

  it('given markers in a fenced code block or in inline code, then they are text and stay', () => {
    const text = [
      'Write `<!-- lab:begin -->` and `<!-- lab:end -->` around it:',
      '',
      '```md',
      '<!-- lab:begin -->',
      'Open the console.',
      '```',
      '',
      '~~~',
      '<!-- lab:end -->',
      '~~~',
      '',
    ].join('\n');
    expect(stripMarkdownLabRegions(text, 'x.md')).toEqual({ text, regions: [] });
  });

  it('given Windows line endings, then the region goes and the other lines keep theirs', () => {
    const text = 'a\r\n<!-- lab:begin -->\r\nb\r\n<!-- lab:end -->\r\nc\r\n';
    expect(stripMarkdownLabRegions(text, 'x.md').text).toBe('a\r\nc\r\n');
  });

  it('given no region, then the text is unchanged', () => {
    const text = 'a <!-- a comment --> b\n`pnpm lab:remove`\n';
    expect(stripMarkdownLabRegions(text, 'x.md')).toEqual({ text, regions: [] });
  });

  it('given a region never closed, then it fails naming the file and line', () => {
    expect(() => stripMarkdownLabRegions('a\n<!-- lab:begin -->\nb\n', 'docs/x.md')).toThrow(
      'docs/x.md:2: <!-- lab:begin --> is never closed by <!-- lab:end -->',
    );
  });

  it('given a region whose end is inside a code block never closed, then it is never closed', () => {
    expect(() =>
      stripMarkdownLabRegions('<!-- lab:begin -->\n```sh\n<!-- lab:end -->\n', 'x.md'),
    ).toThrow('x.md:1: <!-- lab:begin --> is never closed by <!-- lab:end -->');
  });

  it('given a region opened inside another, then it fails', () => {
    const text = '<!-- lab:begin -->\n<!-- lab:begin -->\n<!-- lab:end -->\n<!-- lab:end -->\n';
    expect(() => stripMarkdownLabRegions(text, 'x.md')).toThrow(
      'x.md:2: <!-- lab:begin --> inside the region opened at line 1',
    );
  });

  it('given an end without a begin, then it fails', () => {
    expect(() => stripMarkdownLabRegions('a\n<!-- lab:end -->\n', 'x.md')).toThrow(
      'x.md:2: <!-- lab:end --> without a <!-- lab:begin -->',
    );
  });

  it('given a marker after or before text on its line, then it fails naming that line', () => {
    for (const line of [
      'See the console. <!-- lab:begin -->',
      '<!-- lab:begin --> See the console.',
      '| console | <!-- lab:end --> |',
    ]) {
      expect(() => stripMarkdownLabRegions(`a\n${line}\n`, 'x.md')).toThrow(
        'x.md:2: a lab marker must be alone on its line',
      );
    }
  });

  it('given a comment that only looks like a marker, then it fails', () => {
    for (const line of ['<!-- lab:beginning -->', '<!--lab:begin-->', '<!-- lab:stop -->']) {
      expect(() => stripMarkdownLabRegions(`${line}\n`, 'x.md')).toThrow(
        `x.md:1: "${line}" is not a marker`,
      );
    }
  });
});
