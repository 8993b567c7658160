import { describe, expect, it } from 'vitest';
import { headingAnchors, scanMarkdown, slugOf } from './markdown.js';

describe('GitHub heading anchors', () => {
  it.each([
    ['Events × consumers', 'events--consumers'],
    ['Lineage: `#/orders/<orderId>/lineage`', 'lineage-ordersorderidlineage'],
    ['`snake_case` and _emphasis_', 'snake_case-and-emphasis'],
    ['The [outbox](outbox.md) **relay**', 'the-outbox-relay'],
    ['What can go wrong?', 'what-can-go-wrong'],
    ['1. Start: `pnpm start`', '1-start-pnpm-start'],
  ])('given the heading %j, the anchor is %j', (heading, anchor) => {
    expect(slugOf(heading)).toBe(anchor);
  });

  it('given two headings with one text, the second gets -1', () => {
    const anchors = headingAnchors([
      { text: 'Run it', line: 1 },
      { text: 'Run it', line: 9 },
    ]);
    expect([...anchors]).toEqual(['run-it', 'run-it-1']);
  });
});

describe('scanMarkdown', () => {
  const page = [
    '# Title',
    'See [the saga](saga.md#paths) and `packages/x/src/a.ts`, not `[x](y.md)`.',
    '```sh',
    '# a comment, not a heading',
    'pnpm test [z](w.md)',
    '```',
    '[ref]: ../README.md',
    '<a id="kept"></a>',
  ].join('\n');
  const scanned = scanMarkdown(page);

  it('given a fenced block, its lines are neither headings nor links, and keep their line numbers', () => {
    expect(scanned.headings).toEqual([{ text: 'Title', line: 1 }]);
    expect(scanned.fences).toEqual([
      { info: 'sh', line: 3, body: ['# a comment, not a heading', 'pnpm test [z](w.md)'] },
    ]);
  });

  it('given a link inside a code span, only the links outside code are links', () => {
    expect(scanned.links.map((link) => [link.target, link.line])).toEqual([
      ['saga.md#paths', 2],
      ['../README.md', 7],
    ]);
    expect(scanned.lines[1]?.codeSpans.map((span) => span.text)).toEqual([
      'packages/x/src/a.ts',
      '[x](y.md)',
    ]);
  });

  it('given an html anchor, it is an anchor of the page', () => {
    expect(scanned.htmlAnchors).toEqual(['kept']);
  });
});
