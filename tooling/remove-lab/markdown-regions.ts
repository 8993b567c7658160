// The lab's regions in Markdown pages: every line from a `<!-- lab:begin -->`
// line to the next `<!-- lab:end -->` one goes with the lab, as `// lab:begin`
// regions do in code. An HTML comment renders as nothing, so a page reads the
// same with its markers in. The rules are as strict as the code's: a marker is
// alone on its line, a region is closed and never nested, and anything that only
// looks like a marker is an error, so a region is cut or the removal stops.
import { MARKDOWN_BEGIN_MARKER, MARKDOWN_END_MARKER } from './lab-parts.js';
import { LabRemovalError } from './lex.js';

/** What may follow `lab:begin` or `lab:end` inside the comment: nothing, or a space or a colon and why. */
const MARKER_REST = /^(?:[\s:][^]*)?$/;
const COMMENT_END = ' -->';
/** Anything that starts like a marker: an HTML comment whose text begins with `lab:`. */
const MARKER_LIKE = /<!--\s*lab:/;
/** A fence opens a code block, where a marker is text (a page that shows one, as this tool's does). */
const FENCE = /^\s*(`{3,}|~{3,})(.*)$/;
/** Inline code, where a marker is text too. */
const CODE_SPAN = /(`+)(?:[^`]|[^`][^]*?[^`])\1(?!`)/g;

type Marker = 'begin' | 'end';

/** The marker a line is, if any; throws on a line that holds something like a marker otherwise. */
function markerOf(line: string, at: string): Marker | undefined {
  if (!MARKER_LIKE.test(line.replace(CODE_SPAN, ''))) return undefined;
  const trimmed = line.trim();
  for (const [marker, written] of [
    ['begin', MARKDOWN_BEGIN_MARKER],
    ['end', MARKDOWN_END_MARKER],
  ] as const) {
    // `<!-- lab:begin -->`, or `<!-- lab:begin: why -->`: the comment's end comes off to compare.
    const opening = written.slice(0, -COMMENT_END.length);
    if (!trimmed.startsWith(opening) || !trimmed.endsWith(COMMENT_END)) continue;
    const rest = trimmed.slice(opening.length, -COMMENT_END.length);
    if (MARKER_REST.test(rest) && !rest.includes('-->')) return marker;
  }
  const ends = trimmed.indexOf('-->');
  const alone = trimmed.startsWith('<!--') && (ends === -1 || ends === trimmed.length - 3);
  if (!alone) {
    throw new LabRemovalError(
      `${at}: a lab marker must be alone on its line (after nothing but spaces): "${trimmed}"`,
    );
  }
  // `<!-- lab:beginning -->` or `<!--lab:end-->` is not a marker, but too close to one to let pass.
  throw new LabRemovalError(
    `${at}: "${trimmed}" is not a marker: write ${MARKDOWN_BEGIN_MARKER} or ${MARKDOWN_END_MARKER}, alone, or with ": why" before " -->"`,
  );
}

/** The regions of a page, as pairs of lines (from 0), both markers included. */
function markdownRegionsOf(lines: readonly string[], file: string): [number, number][] {
  const regions: [number, number][] = [];
  let openedAt: number | undefined;
  let fence: { marker: string; line: number } | undefined;
  lines.forEach((line, index) => {
    const at = `${file}:${String(index + 1)}`;
    const fenceLine = FENCE.exec(line);
    if (fence !== undefined) {
      // A fence closes with at least as many of the same character and nothing after.
      const closes =
        fenceLine?.[1]?.startsWith(fence.marker) === true && (fenceLine[2] ?? '').trim() === '';
      if (closes) fence = undefined;
      return;
    }
    if (fenceLine?.[1] !== undefined) {
      fence = { marker: fenceLine[1], line: index };
      return;
    }
    const marker = markerOf(line, at);
    if (marker === 'begin') {
      if (openedAt !== undefined) {
        throw new LabRemovalError(
          `${at}: ${MARKDOWN_BEGIN_MARKER} inside the region opened at line ${String(openedAt + 1)}`,
        );
      }
      openedAt = index;
    } else if (marker === 'end') {
      if (openedAt === undefined) {
        throw new LabRemovalError(
          `${at}: ${MARKDOWN_END_MARKER} without a ${MARKDOWN_BEGIN_MARKER}`,
        );
      }
      regions.push([openedAt, index]);
      openedAt = undefined;
    }
  });
  if (openedAt !== undefined) {
    // A region that runs into a code block never closed is the same mistake, said where it starts.
    throw new LabRemovalError(
      `${file}:${String(openedAt + 1)}: ${MARKDOWN_BEGIN_MARKER} is never closed by ${MARKDOWN_END_MARKER}`,
    );
  }
  return regions;
}

/**
 * The page without its lab regions: every line from a `<!-- lab:begin -->`
 * line to the next `<!-- lab:end -->`, both included. Markers inside fenced
 * code blocks or inline code are text. A region left open, one opened inside
 * another, an end without a begin, a marker after text on its line, and a
 * comment that only looks like a marker are errors naming the file and line.
 *
 * @example
 * stripMarkdownLabRegions('a\n<!-- lab:begin -->\nb\n<!-- lab:end -->\nc\n', 'x.md'); // { text: 'a\nc\n', regions: ['line 2 (3 lines)'] }
 */
export function stripMarkdownLabRegions(
  text: string,
  file: string,
): { text: string; regions: string[] } {
  if (!MARKER_LIKE.test(text)) return { text, regions: [] };
  // Lines are cut whole, so a page's line endings (\n or \r\n) stay as they were.
  const lines = text.split('\n');
  const regions = markdownRegionsOf(
    lines.map((line) => line.replace(/\r$/, '')),
    file,
  );
  if (regions.length === 0) return { text, regions: [] };
  const inRegion = (index: number): boolean =>
    regions.some(([begin, end]) => index >= begin && index <= end);
  return {
    text: lines.filter((_, index) => !inRegion(index)).join('\n'),
    regions: regions.map(
      ([begin, end]) => `line ${String(begin + 1)} (${String(end - begin + 1)} lines)`,
    ),
  };
}
