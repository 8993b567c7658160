// start-here.md gives the length of the core reading path, so a newcomer
// knows what one sitting holds: the count must be the pages' real length, and
// within the budget issue 31 set, so neither the count nor the path drifts.
import path from 'node:path';
import type { Failure, Repository } from './repository.js';

export const START_PAGE = 'docs/start-here.md';
/** The paragraph that states the count opens with this. */
const PARAGRAPH = '**The core path**';
export const READING_PATH_BUDGET = 1500;

/** Lines as `wc -l` counts them: a last line without its newline counts too. */
export function linesOf(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

const LAB_BEGIN = /^<!-- lab:begin(?:[\s:].*)? -->$/;
const LAB_END = /^<!-- lab:end(?:[\s:].*)? -->$/;

/**
 * A page's lines split into the template's and the lab's. The template's are
 * what `pnpm lab:remove` leaves: the lab regions cut, markers included, and
 * the blank lines they stood between made one, as its formatting does. So the
 * template's count is the same with the lab in the checkout or removed.
 */
export function templateAndLabLines(text: string): { template: number; lab: number } {
  let inRegion = false;
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!inRegion && LAB_BEGIN.test(trimmed)) inRegion = true;
    if (!inRegion) kept.push(line);
    else if (LAB_END.test(trimmed)) inRegion = false;
  }
  const collapsed = kept.filter(
    (line, index) => line.trim() !== '' || (kept[index - 1] ?? '').trim() !== '',
  );
  const template = linesOf(collapsed.join('\n'));
  return { template, lab: linesOf(text) - template };
}

export function checkReadingPath(
  repo: Repository,
  page = START_PAGE,
  budget = READING_PATH_BUDGET,
): Failure[] {
  const { lines, links } = repo.page(page).markdown;
  const opening = lines.find((line) => line.text.startsWith(PARAGRAPH));
  if (opening === undefined) {
    return [
      {
        file: page,
        line: 1,
        message: `no paragraph opening with ${PARAGRAPH}, which gives the core path's length`,
      },
    ];
  }
  const paragraph = lines.filter((line) => line.number >= opening.number);
  const end = paragraph.findIndex((line) => line.text.trim() === '');
  const last = (end === -1 ? paragraph.at(-1) : paragraph[end - 1])?.number ?? opening.number;
  const text = paragraph
    .filter((line) => line.number <= last)
    .map((line) => line.text)
    .join(' ');
  const pages = [
    page,
    ...links
      .filter((link) => link.line >= opening.number && link.line <= last)
      .map((link) => link.target.split('#')[0] ?? '')
      .filter((target) => target.endsWith('.md'))
      .map((target) => path.posix.join(path.posix.dirname(page), target)),
  ];
  const unique = [...new Set(pages)];
  const fail = (message: string): Failure[] => [{ file: page, line: opening.number, message }];
  const missing = unique.filter((file) => !repo.isFile(file));
  if (missing.length > 0)
    return fail(`the core path names pages that do not exist: ${missing.join(', ')}`);
  const stated = /([\d,]+) lines/.exec(text)?.[1];
  if (stated === undefined) return fail('the core path paragraph gives no "<n> lines"');
  const counts = unique.map((file) => templateAndLabLines(repo.read(file)));
  const counted = counts.reduce((sum, count) => sum + count.template, 0);
  const lab = counts.reduce((sum, count) => sum + count.lab, 0);
  const said = Number(stated.replace(/,/g, ''));
  // With the lab, a sentence of its own (in a lab region) gives the lines its asides add.
  const labLine = lines.find((line) => /^The lab adds [\d,]+ lines/.test(line.text));
  const labSaid = /^The lab adds ([\d,]+) lines/.exec(labLine?.text ?? '')?.[1];
  const format = (n: number): string => n.toLocaleString('en-US');
  return [
    ...(said === counted
      ? []
      : fail(
          `the core path is said to be ${stated} lines, but its ${String(unique.length)} pages have ${format(counted)} outside the lab's regions`,
        )),
    ...(labSaid === undefined || Number(labSaid.replace(/,/g, '')) === lab
      ? []
      : [
          {
            file: page,
            line: labLine?.number ?? opening.number,
            message: `the lab is said to add ${labSaid} lines to the core path, but its regions there add ${format(lab)}`,
          },
        ]),
    ...(counted <= budget
      ? []
      : fail(
          `the core path has ${format(counted)} lines, over its budget of ${format(budget)}: move reference out of it`,
        )),
  ];
}
