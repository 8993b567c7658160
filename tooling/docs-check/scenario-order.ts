// The scenario table of docs/scenarios/README.md lists the scenarios in the
// order `pnpm scenario --all` runs them: the order of the runner's SCENARIOS
// array, each entry's `name` read from the module it is imported from.
import path from 'node:path';
import type { Failure, Repository } from './repository.js';

export const SCENARIOS_PAGE = 'docs/scenarios/README.md';
export const SCENARIOS_INDEX = 'packages/lab/scenario-runner/src/scenarios/index.ts';
const TABLE_HEADING = 'The scenarios';

/** The scenario names in the order of the SCENARIOS array of `index`; undefined where one cannot be read. */
export function runnerOrder(repo: Repository, index: string): (string | undefined)[] {
  const source = repo.read(index).replace(/\/\/.*$/gm, '');
  const modules = new Map<string, string>();
  for (const match of source.matchAll(/import\s*\{([^}]+)\}\s*from\s*'(\.[^']+)\.js'/g)) {
    for (const name of (match[1] ?? '').split(',').map((part) => part.trim())) {
      modules.set(name, path.posix.join(path.posix.dirname(index), `${match[2] ?? ''}.ts`));
    }
  }
  const array = /SCENARIOS\b[^=]*=\s*\[([\s\S]*?)\]/.exec(source)?.[1] ?? '';
  return [...array.matchAll(/(\w+)(?:\(\))?\s*,?/g)].map((match) => {
    const identifier = match[1] ?? '';
    const file = modules.get(identifier);
    if (file === undefined || !repo.isFile(file)) return undefined;
    const text = repo.read(file);
    const from = text.search(new RegExp(`(?:const|function)\\s+${identifier}\\b`));
    return from === -1 ? undefined : /name:\s*'([\w-]+)'/.exec(text.slice(from))?.[1];
  });
}

/** The scenario names of the page's table, from the first column's link texts. */
export function tableOrder(repo: Repository, page: string): { line: number; names: string[] } {
  const scanned = repo.page(page).markdown;
  const heading = scanned.headings.find((h) => h.text === TABLE_HEADING);
  const names: string[] = [];
  for (const line of scanned.lines.filter((l) => l.number > (heading?.line ?? Infinity))) {
    if (/^#{1,6}\s/.test(line.text)) break;
    const name = /^\|\s*\[([\w-]+)\]\(/.exec(line.text)?.[1];
    if (name !== undefined) names.push(name);
  }
  return { line: heading?.line ?? 1, names };
}

export function checkScenarioOrder(
  repo: Repository,
  page = SCENARIOS_PAGE,
  index = SCENARIOS_INDEX,
): Failure[] {
  const run = runnerOrder(repo, index);
  const table = tableOrder(repo, page);
  const fail = (message: string): Failure[] => [{ file: page, line: table.line, message }];
  if (run.length === 0 || run.includes(undefined)) {
    return fail(`cannot read every scenario's name from the SCENARIOS array of ${index}`);
  }
  const first = run.findIndex((name, at) => table.names[at] !== name);
  if (first === -1 && table.names.length === run.length) return [];
  const at = first === -1 ? run.length : first;
  return fail(
    `the table of "## ${TABLE_HEADING}" is not in the order \`pnpm scenario --all\` runs them: row ${String(at + 1)} is ${table.names[at] ?? 'missing'}, where the runner runs ${run[at] ?? 'nothing more'}`,
  );
}
