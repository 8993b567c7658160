// What a page points at must exist: repository paths in backticks, `file:line`
// references, relative links with their #anchors, and a named symbol in the
// file a page says it is in.
import path from 'node:path';
import { SHELL_FENCES, headingAnchors } from './markdown.js';
import type { Failure, Page, Repository } from './repository.js';

// A placeholder or pattern, not a path: `stack-<run>.log`, `*.int.spec.ts`, `{src,examples}`.
const NOT_A_PATH = /[<>*{}$…|=\s]|\.\.\./;
const LINE_REFERENCE = /^(.*?):(\d+)(?:-(\d+))?$/;
const LINE_ANCHOR = /^L(\d+)(?:-L(\d+))?$/;
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;
const IDENTIFIER = /^([A-Za-z_$][\w$]{2,})(?:\(\))?$/;
const CODE_FILE = /\.(?:ts|tsx|js|mjs|cjs|sql)$/;

/** A line range that must lie inside the file. */
function checkLines(
  repo: Repository,
  file: string,
  from: number,
  to: number | undefined,
): string | undefined {
  const count = repo.lineCount(file);
  const last = to ?? from;
  if (from < 1 || last < from || last > count) {
    return `${file} has ${String(count)} lines; the reference points at line ${to === undefined ? String(from) : `${String(from)}-${String(to)}`}`;
  }
  return undefined;
}

/** A backticked token that names a file or folder of this repository, or undefined. */
export function repositoryPathIn(
  repo: Repository,
  code: string,
): { file: string; from?: number; to?: number } | undefined {
  if (NOT_A_PATH.test(code) || !code.includes('/')) return undefined;
  const reference = LINE_REFERENCE.exec(code);
  const file = (reference?.[1] ?? code).replace(/^\.\//, '');
  if (!repo.topLevel.has(file.split('/')[0] ?? '') || repo.isIgnored(file)) return undefined;
  if (reference === null) return { file };
  const to = reference[3] === undefined ? undefined : Number(reference[3]);
  return { file, from: Number(reference[2]), ...(to === undefined ? {} : { to }) };
}

/** The code a page shows: its code spans, and each word of its shell blocks. */
function codeWords(page: Page): { text: string; line: number }[] {
  const spans = page.markdown.lines.flatMap((line) =>
    line.codeSpans.map((span) => ({ text: span.text, line: line.number })),
  );
  const shellWords = page.markdown.fences
    .filter((fence) => SHELL_FENCES.has(fence.info.split(/\s/)[0] ?? ''))
    .flatMap((fence) =>
      fence.body.flatMap((text, index) =>
        text
          .replace(/(^|\s)#.*$/, '')
          .split(/\s+/)
          .map((word) => ({
            text: word.replace(/^['"]|['"]$/g, ''),
            line: fence.line + 1 + index,
          })),
      ),
    );
  return [...spans, ...shellWords];
}

export function checkBacktickedPaths(repo: Repository, page: Page): Failure[] {
  const failures: Failure[] = [];
  for (const { text, line } of codeWords(page)) {
    const found = repositoryPathIn(repo, text);
    if (found === undefined) continue;
    const fail = (message: string): void => {
      failures.push({ file: page.file, line, message: `\`${text}\`: ${message}` });
    };
    if (!repo.exists(found.file)) {
      fail('no such file or folder');
    } else if (found.from !== undefined) {
      const problem = repo.isFile(found.file)
        ? checkLines(repo, found.file, found.from, found.to)
        : `${found.file} is a folder`;
      if (problem !== undefined) fail(problem);
    }
  }
  return failures;
}

// Source files only: `.js` and `.json` names in the docs are mostly built bundles and runtime
// state (`app.js`, `owner.json`), which no checkout holds.
const SOURCE_FILE_NAME = /^[\w.-]+\.(?:ts|tsx|mts|mjs|cjs|sql|md)$/;

/** A backticked file name without its folder (`claim-races.int.spec.ts`) names some file of the repository. */
export function checkFileNames(repo: Repository, page: Page): Failure[] {
  return page.markdown.lines.flatMap((line) =>
    line.codeSpans
      .filter((span) => SOURCE_FILE_NAME.test(span.text) && !repo.filesByName().has(span.text))
      .map((span) => ({
        file: page.file,
        line: line.number,
        message: `\`${span.text}\`: no file of that name in the repository`,
      })),
  );
}

/** Where a relative link points, as a repository path, or undefined when it leaves the repository. */
export function resolveLink(pageFile: string, target: string): string | undefined {
  const decoded = decodeURIComponent(target);
  const joined = decoded.startsWith('/')
    ? path.posix.normalize(decoded.slice(1))
    : path.posix.join(path.posix.dirname(pageFile), decoded);
  const normal = path.posix.normalize(joined).replace(/\/$/, '');
  return normal.startsWith('..') ? undefined : normal === '' ? '.' : normal;
}

function checkAnchor(repo: Repository, file: string, anchor: string): string | undefined {
  const lines = LINE_ANCHOR.exec(anchor);
  if (lines !== null) {
    const to = lines[2] === undefined ? undefined : Number(lines[2]);
    return checkLines(repo, file, Number(lines[1]), to);
  }
  if (!file.endsWith('.md')) return undefined;
  const { markdown } = repo.page(file);
  const anchors = headingAnchors(markdown.headings);
  if (anchors.has(anchor) || markdown.htmlAnchors.includes(anchor)) return undefined;
  return `${file} has no heading with the anchor #${anchor}`;
}

export function checkLinks(repo: Repository, page: Page): Failure[] {
  const failures: Failure[] = [];
  for (const link of page.markdown.links) {
    if (EXTERNAL.test(link.target)) continue;
    const hash = link.target.indexOf('#');
    const target = hash === -1 ? link.target : link.target.slice(0, hash);
    const anchor = hash === -1 ? undefined : link.target.slice(hash + 1);
    const file = target === '' ? page.file : resolveLink(page.file, target);
    const fail = (message: string): void => {
      failures.push({ file: page.file, line: link.line, message: `(${link.target}): ${message}` });
    };
    if (file === undefined) {
      fail('points outside the repository');
    } else if (!repo.exists(file)) {
      fail(`${file} does not exist`);
    } else if (anchor !== undefined && anchor !== '' && repo.isFile(file)) {
      const problem = checkAnchor(repo, file, decodeURIComponent(anchor));
      if (problem !== undefined) fail(problem);
    }
  }
  return failures;
}

export interface NamedSymbol {
  readonly name: string;
  /** Where the page says it is: one path, or every file of a name given without its folder. */
  readonly files: readonly string[];
  readonly line: number;
}

const isSourceFile = (repo: Repository) => (file: string) =>
  CODE_FILE.test(file) && repo.isFile(file);

/**
 * A backticked identifier followed by the file it lives in, as
 * "`createTestDatabase` ([`test-database.ts`](../…/test-database.ts))",
 * "`runConsumerProcess` in `packages/…/run-consumer-process.ts`" or
 * "`runWithTransactionRetry` in `transaction-retry.ts`". Only source files
 * count; a name next to a folder or a page is not looked up.
 */
export function namedSymbols(repo: Repository, page: Page): NamedSymbol[] {
  const found: NamedSymbol[] = [];
  for (const line of page.markdown.lines) {
    line.codeSpans.forEach((span, index) => {
      const name = IDENTIFIER.exec(span.text)?.[1];
      if (name === undefined) return;
      const between = /^\s*\(?\s*(?:in\s+|from\s+)?/.exec(line.text.slice(span.end))?.[0] ?? '';
      const at = span.end + between.length;
      const files = filesAt(repo, page, line.number, at, line.codeSpans[index + 1]).filter(
        isSourceFile(repo),
      );
      if (files.length > 0) found.push({ name, files, line: line.number });
    });
  }
  // "[`processOnce`](../packages/idempotency/src/process-once.ts)": the name is the link's text.
  for (const link of page.markdown.links) {
    const name = /^`([^`]+)`$/.exec(link.text)?.[1];
    const symbol = name === undefined ? undefined : IDENTIFIER.exec(name)?.[1];
    if (symbol === undefined || EXTERNAL.test(link.target)) continue;
    const file = resolveLink(page.file, link.target.split('#')[0] ?? '');
    if (file === undefined || !isSourceFile(repo)(file)) continue;
    found.push({ name: symbol, files: [file], line: link.line });
  }
  return found.sort((a, b) => a.line - b.line);
}

/** Each named symbol must occur as a whole word in its file (in one of them, for a bare name). */
export function checkNamedSymbols(repo: Repository, page: Page): Failure[] {
  return namedSymbols(repo, page)
    .filter(({ name, files }) => {
      const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
      return !files.some((file) => word.test(repo.read(file)));
    })
    .map(({ name, files, line }) => ({
      file: page.file,
      line,
      message: `\`${name}\` does not occur in ${files.join(' or ')}, which the page names as its place`,
    }));
}

/** The files named at offset `at` of a line: by a link starting there, or a backticked path or file name. */
function filesAt(
  repo: Repository,
  page: Page,
  lineNumber: number,
  at: number,
  nextSpan: { text: string; start: number } | undefined,
): readonly string[] {
  const link = page.markdown.links.find((l) => l.line === lineNumber && l.start === at);
  if (link !== undefined) {
    if (EXTERNAL.test(link.target)) return [];
    const file = resolveLink(page.file, link.target.split('#')[0] ?? '');
    return file === undefined ? [] : [file];
  }
  if (nextSpan?.start !== at) return [];
  const named = repositoryPathIn(repo, nextSpan.text)?.file;
  if (named !== undefined) return [named];
  return SOURCE_FILE_NAME.test(nextSpan.text) ? (repo.filesByName().get(nextSpan.text) ?? []) : [];
}
