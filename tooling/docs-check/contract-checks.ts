// What the docs say about the contracts and the scripts must match them: the
// events × consumers matrix of docs/saga.md names every consumer and every
// event, and every `pnpm <command>` a page shows exists.
import { SHELL_FENCES } from './markdown.js';
import type { Failure, Page, Repository } from './repository.js';

export const SAGA_PAGE = 'docs/saga.md';
const MATRIX_HEADING = 'Events × consumers';
const CONSUMERS_FILE = 'packages/contracts/src/consumers.ts';
const EVENTS_FOLDER = 'packages/contracts/src/events';

/** The consumer names in consumers.ts: the `'name-vN'` values of the CONSUMERS object. */
export function consumerNames(source: string): string[] {
  return [...source.matchAll(/^\s*\w+:\s*'([a-z0-9-]+)',?\s*$/gm)].map((match) => match[1] ?? '');
}

/** The event types a file defines with `defineEvent('Type', …)`; examples in comments do not count. */
export function eventTypes(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  return [...code.matchAll(/defineEvent\(\s*'(\w+)'/g)].map((match) => match[1] ?? '');
}

function backticked(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');
}

/** The matrix's column names (its header row) and row names (first cells), with the heading's line. */
export function readMatrix(
  page: Page,
): { line: number; columns: string[]; rows: string[]; cells: string[][] } | undefined {
  const heading = page.markdown.headings.find((h) => h.text === MATRIX_HEADING);
  if (heading === undefined) return undefined;
  const table: string[] = [];
  for (const line of page.markdown.lines.filter((l) => l.number > heading.line)) {
    if (line.text.trimStart().startsWith('|')) table.push(line.text);
    else if (table.length > 0 || /^#{1,6}\s/.test(line.text)) break;
  }
  const cells = table.map((row) => row.split('|').slice(1, -1));
  const [header, , ...body] = cells;
  return {
    line: heading.line,
    columns: backticked((header ?? []).slice(1).join('|')),
    rows: body.flatMap((row) => backticked(row[0] ?? '')),
    // One entry per body row: the text of each consumer's cell, in column order.
    cells: body.map((row) => row.slice(1).map((cell) => cell.trim())),
  };
}

/** The event types the contracts define, from every event file of packages/contracts. */
export function contractEventTypes(repo: Repository): string[] {
  return repo
    .list(EVENTS_FOLDER)
    .filter((file) => file.endsWith('.ts') && !file.includes('.spec.'))
    .flatMap((file) => eventTypes(repo.read(file)));
}

export function checkMatrix(repo: Repository): Failure[] {
  const matrix = readMatrix(repo.page(SAGA_PAGE));
  if (matrix === undefined) {
    return [{ file: SAGA_PAGE, line: 1, message: `no "### ${MATRIX_HEADING}" heading` }];
  }
  const consumers = consumerNames(repo.read(CONSUMERS_FILE));
  const events = contractEventTypes(repo);
  // Reading nothing would make the check pass vacuously: a moved file must fail it.
  if (consumers.length === 0 || events.length === 0) {
    return [
      {
        file: SAGA_PAGE,
        line: matrix.line,
        message: `read ${String(consumers.length)} consumers from ${CONSUMERS_FILE} and ${String(events.length)} events from ${EVENTS_FOLDER}: the check no longer finds the contracts`,
      },
    ];
  }
  const fail = (message: string): Failure => ({ file: SAGA_PAGE, line: matrix.line, message });
  return [
    ...consumers
      .filter((name) => !matrix.columns.includes(name))
      .map((name) => fail(`the events × consumers matrix has no column for consumer \`${name}\``)),
    ...events
      .filter((type) => !matrix.rows.includes(type))
      .map((type) => fail(`the events × consumers matrix has no row for event \`${type}\``)),
    ...matrix.columns
      .filter((name) => !consumers.includes(name))
      .map((name) => fail(`the matrix names \`${name}\`, which is not in ${CONSUMERS_FILE}`)),
    ...matrix.rows
      .filter((type) => !events.includes(type))
      .map((type) =>
        fail(`the matrix names \`${type}\`, which no file in ${EVENTS_FOLDER} defines`),
      ),
  ];
}

// Commands of pnpm itself; anything else after `pnpm` must be a root script.
const PNPM_BUILT_INS = new Set(
  'add audit bin config create dlx env exec fetch i import init install install-test licenses link list ls outdated pack patch prune publish rebuild remove rm root setup store test-all un uninstall unlink up update why'.split(
    ' ',
  ),
);
// These run a package's own scripts (or every package's), not the root's.
const OTHER_PACKAGE = /^(?:--filter|-F|--dir|-C|--recursive|-r|--workspace-root|-w)(?:=|$)/;
const PNPM_CALL = /(?:^|[\s;&|(`])pnpm\s+([^\s;&|)`]+)(?:\s+([^\s;&|)`]+))?/g;

/** Each `pnpm <command>` in a text, as the root script it needs (undefined: none needed). */
export function pnpmScripts(text: string): string[] {
  const scripts: string[] = [];
  for (const match of text.matchAll(PNPM_CALL)) {
    const [first = '', second = ''] = [match[1], match[2]];
    if (OTHER_PACKAGE.test(first) || first.startsWith('<') || first.startsWith('-')) continue;
    if (first === 'run') {
      if (second !== '' && !second.startsWith('-') && !second.startsWith('<')) scripts.push(second);
    } else if (!PNPM_BUILT_INS.has(first)) {
      scripts.push(first);
    }
  }
  return scripts;
}

export function checkPnpmCommands(repo: Repository, page: Page): Failure[] {
  const manifest = JSON.parse(repo.read('package.json')) as { scripts?: Record<string, string> };
  const scripts = new Set(Object.keys(manifest.scripts ?? {}));
  const failures: Failure[] = [];
  const check = (text: string, line: number): void => {
    for (const script of pnpmScripts(text)) {
      if (!scripts.has(script)) {
        failures.push({
          file: page.file,
          line,
          message: `\`pnpm ${script}\`: no such script in package.json, nor a pnpm command`,
        });
      }
    }
  };
  for (const line of page.markdown.lines) {
    for (const span of line.codeSpans) check(span.text, line.number);
  }
  for (const fence of page.markdown.fences) {
    if (!SHELL_FENCES.has(fence.info.split(/\s/)[0] ?? '')) continue;
    fence.body.forEach((text, index) => {
      check(text.replace(/\s#.*$/, ''), fence.line + 1 + index);
    });
  }
  return failures;
}

/** Where a consumer's list of event types is declared: a constant array in a source file. */
export interface EventList {
  file: string;
  constant: string;
}

/** The string items of `export const <constant> = [ ... ]` in a source file; undefined when absent. */
export function constantList(source: string, constant: string): string[] | undefined {
  const match = new RegExp(`export const ${constant}\\s*=\\s*\\[([^\\]]*)\\]`).exec(source);
  if (match === null) return undefined;
  return [...(match[1] ?? '').matchAll(/'(\w+)'/g)].map((item) => item[1] ?? '');
}

/**
 * The matrix's cells against each consumer's declared event types: a cell
 * with text must be an event its consumer lists, and every listed event must
 * have text in its cell. So the matrix stays true when a consumer starts or
 * stops receiving an event.
 */
export function checkMatrixCells(repo: Repository, lists: Record<string, EventList>): Failure[] {
  const matrix = readMatrix(repo.page(SAGA_PAGE));
  if (matrix === undefined) return [];
  const fail = (message: string): Failure => ({ file: SAGA_PAGE, line: matrix.line, message });
  return matrix.columns.flatMap((consumer, column) => {
    const declared = lists[consumer];
    if (declared === undefined) return [];
    const listed = constantList(repo.read(declared.file), declared.constant);
    if (listed === undefined || listed.length === 0) {
      return [fail(`no \`${declared.constant}\` list in ${declared.file}, for \`${consumer}\``)];
    }
    const marked = matrix.rows.filter((_, row) => (matrix.cells[row]?.[column] ?? '') !== '');
    return [
      ...marked
        .filter((type) => !listed.includes(type))
        .map((type) =>
          fail(
            `\`${type}\` has a cell for \`${consumer}\`, but ${declared.constant} does not list it`,
          ),
        ),
      ...listed
        .filter((type) => !marked.includes(type))
        .map((type) =>
          fail(`${declared.constant} lists \`${type}\`, but its cell for \`${consumer}\` is empty`),
        ),
    ];
  });
}
