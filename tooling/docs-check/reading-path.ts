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
  const counted = unique.reduce((sum, file) => sum + linesOf(repo.read(file)), 0);
  const said = Number(stated.replace(/,/g, ''));
  return [
    ...(said === counted
      ? []
      : fail(
          `the core path is said to be ${stated} lines, but its ${String(unique.length)} pages have ${counted.toLocaleString('en-US')}`,
        )),
    ...(counted <= budget
      ? []
      : fail(
          `the core path has ${counted.toLocaleString('en-US')} lines, over its budget of ${budget.toLocaleString('en-US')}: move reference out of it`,
        )),
  ];
}
