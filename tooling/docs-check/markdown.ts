// Just enough Markdown to check the docs' references: code spans, links,
// headings and fenced code blocks, each with its 1-based line number. A full
// CommonMark parser would be a dependency for four patterns; what this reads
// is fixed by the tests in markdown.unit.spec.ts.

export interface CodeSpan {
  readonly text: string;
  readonly line: number;
  /** Offsets of the opening backtick and past the closing one, to look around the span. */
  readonly start: number;
  readonly end: number;
}

export interface Link {
  /** The text between the brackets, as written. */
  readonly text: string;
  readonly target: string;
  readonly line: number;
  /** Offset of the `[` in the line, to find what precedes the link. */
  readonly start: number;
}

export interface Heading {
  readonly text: string;
  readonly line: number;
}

export interface Fence {
  readonly info: string;
  /** The line of the opening fence; its body starts on the next line. */
  readonly line: number;
  readonly body: readonly string[];
}

export interface ScannedLine {
  readonly number: number;
  /** The line as written. */
  readonly text: string;
  readonly codeSpans: readonly CodeSpan[];
}

export interface ScannedMarkdown {
  /** Lines outside fenced code blocks. */
  readonly lines: readonly ScannedLine[];
  readonly links: readonly Link[];
  readonly headings: readonly Heading[];
  readonly fences: readonly Fence[];
  /** Explicit anchors: `<a id="…">` or `<a name="…">`. */
  readonly htmlAnchors: readonly string[];
}

/** Fenced blocks whose lines are commands a reader types. */
export const SHELL_FENCES: ReadonlySet<string> = new Set(['sh', 'bash', 'shell', 'console', 'zsh']);

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const CODE_SPAN = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
// `[text](target)` and `![alt](target)`; the text may hold one level of brackets.
const INLINE_LINK = /!?\[((?:[^[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/;
const HTML_ANCHOR = /<a\s+(?:id|name)="([^"]+)"/g;

/** Reads one Markdown file into the parts the checks look at. */
export function scanMarkdown(source: string): ScannedMarkdown {
  const lines: ScannedLine[] = [];
  const links: Link[] = [];
  const headings: Heading[] = [];
  const fences: Fence[] = [];
  const htmlAnchors: string[] = [];
  const raw = source.split(/\r?\n/);
  let open: { marker: string; info: string; line: number; body: string[] } | undefined;
  raw.forEach((text, index) => {
    const number = index + 1;
    const fence = FENCE.exec(text);
    if (open !== undefined) {
      const closes =
        fence?.[1] !== undefined &&
        fence[1].startsWith(open.marker) &&
        (fence[2] ?? '').trim() === '';
      if (closes) {
        fences.push({ info: open.info, line: open.line, body: open.body });
        open = undefined;
      } else {
        open.body.push(text);
      }
      return;
    }
    if (fence?.[1] !== undefined) {
      open = { marker: fence[1], info: (fence[2] ?? '').trim(), line: number, body: [] };
      return;
    }
    const codeSpans = [...text.matchAll(CODE_SPAN)].map((match) => ({
      text: (match[2] ?? '').trim(),
      line: number,
      start: match.index,
      end: match.index + match[0].length,
    }));
    // Blank the spans out, keeping offsets, so a `[x](y)` inside code is no link.
    const outsideCode = text.replace(CODE_SPAN, (span) => ' '.repeat(span.length));
    lines.push({ number, text, codeSpans });
    for (const match of outsideCode.matchAll(INLINE_LINK)) {
      // The link's text as written: outsideCode has its code spans blanked, at the same offsets.
      const textStart = match.index + match[0].indexOf('[') + 1;
      links.push({
        text: text.slice(textStart, textStart + (match[1] ?? '').length),
        target: match[2] ?? '',
        line: number,
        start: match.index,
      });
    }
    const definition = REFERENCE_DEFINITION.exec(outsideCode);
    if (definition?.[1] !== undefined) {
      links.push({ text: '', target: definition[1], line: number, start: 0 });
    }
    for (const match of outsideCode.matchAll(HTML_ANCHOR)) htmlAnchors.push(match[1] ?? '');
    const heading = HEADING.exec(text);
    if (heading?.[2] !== undefined) headings.push({ text: heading[2], line: number });
  });
  return { lines, links, headings, fences, htmlAnchors };
}

/**
 * The anchors GitHub gives a page's headings: the heading's text as rendered,
 * lower-cased, with every character that is not a letter, digit, space, `-`
 * or `_` removed, spaces turned into `-`; a repeated slug gets `-1`, `-2`….
 */
export function headingAnchors(headings: readonly Heading[]): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const heading of headings) {
    const slug = slugOf(heading.text);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${String(count)}`);
  }
  return anchors;
}

export function slugOf(heading: string): string {
  // Code spans render literally; only the text around them loses its markup.
  const rendered = heading
    .split(/(`+[^`]+`+)/)
    .map((part, index) => (index % 2 === 1 ? part.replace(/`/g, '') : withoutMarkup(part)))
    .join('');
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function withoutMarkup(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/\*+/g, '')
    .replace(/(^|[^\p{L}\p{N}])_+([^_]+?)_+(?=[^\p{L}\p{N}]|$)/gu, '$1$2');
}
