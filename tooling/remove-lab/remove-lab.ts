// Takes the lab out of a checkout (docs/template-and-lab.md): plans what to
// delete and edit, from lab-parts.ts and the `// lab:begin` regions, then does
// it. The plan is data, so `--dry-run` prints it and the tests check it
// without touching anything.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  BEGIN_MARKER,
  CODE_FILE,
  END_MARKER,
  LAB_ONLY_DEPENDENCIES,
  LAB_PACKAGES,
  LAB_PATHS,
  LAB_SCRIPTS,
  SCRIPT_REWRITES,
} from './lab-parts.js';

/** Never walked: installed packages, git's own files, a running stack's data. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', '.stack', '.data']);
const MIGRATIONS_LOCK = 'tooling/migrations.lock.json';
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies'] as const;

export interface FileEdit {
  /** Relative to the repository root, with `/`. */
  readonly file: string;
  /** What was taken out, for the plan: `region at line 12 (3 lines)`, `script soak`, ... */
  readonly changes: readonly string[];
  readonly text: string;
}

export interface RemovalPlan {
  /** Lab folders and files that exist here, relative to the root. */
  readonly deletions: readonly string[];
  readonly edits: readonly FileEdit[];
}

const toPosix = (file: string): string => file.split(path.sep).join('/');

/** Whether a repository-relative path is the lab's or inside it. */
export function isLabPath(file: string): boolean {
  return LAB_PATHS.some((lab) => file === lab || file.startsWith(`${lab}/`));
}

/** Every file under `root`, relative and with `/`, but those in SKIPPED_FOLDERS. */
export function listFiles(root: string, folder = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
    if (SKIPPED_FOLDERS.has(entry.name)) continue;
    const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) found.push(...listFiles(root, relative));
    else if (entry.isFile()) found.push(relative);
  }
  return found;
}

type Frame = { kind: 'template' } | { kind: 'substitution'; braces: number };

/**
 * For each line, whether it starts with a `//` comment of the code, and whether
 * it begins inside a template literal or a block comment. A marker or an import
 * in a string or a template is text (the scaffolder writes markers into the
 * files it generates), not code. A small lexer of strings, templates with their
 * `${}` substitutions, and comments; a regular expression that holds a quote or
 * a backtick can mislead it on that line.
 */
export function commentLines(text: string): { comment: boolean[]; inText: boolean[] } {
  const comment: boolean[] = [];
  /** The line begins inside a template literal or a block comment: nothing on it is code. */
  const inText: boolean[] = [];
  const stack: Frame[] = [];
  let line = 0;
  let atLineStart = true;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '\n') {
      line += 1;
      atLineStart = true;
      if (stack.at(-1)?.kind === 'template') inText[line] = true;
      i += 1;
      continue;
    }
    const top = stack.at(-1);
    if (top?.kind === 'template') {
      atLineStart = false;
      if (c === '\\') {
        if (next === '\n') line += 1;
        i += 2;
      } else if (c === '`') {
        stack.pop();
        i += 1;
      } else if (c === '$' && next === '{') {
        stack.push({ kind: 'substitution', braces: 0 });
        i += 2;
      } else i += 1;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i += 1;
      continue;
    }
    if (c === '/' && next === '/') {
      if (atLineStart) comment[line] = true;
      while (i < text.length && text[i] !== '\n') i += 1;
      continue;
    }
    atLineStart = false;
    if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (let j = i; j < stop; j += 1) {
        if (text[j] !== '\n') continue;
        line += 1;
        inText[line] = true;
      }
      i = stop;
    } else if (c === "'" || c === '"') {
      i += 1;
      while (i < text.length && text[i] !== c && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      if (text[i] === c) i += 1;
    } else if (c === '`') {
      stack.push({ kind: 'template' });
      i += 1;
    } else {
      if (top?.kind === 'substitution' && c === '{') top.braces += 1;
      if (top?.kind === 'substitution' && c === '}') {
        if (top.braces === 0) stack.pop();
        else top.braces -= 1;
      }
      i += 1;
    }
  }
  return { comment, inText };
}

/**
 * The text without its lab regions: every line from one that starts with a
 * `// lab:begin` comment to the next that starts with `// lab:end`, both
 * included (a marker inside a string or template is text, not a marker). A region left open, or one opened inside another, is an error,
 * not a guess.
 *
 * @example
 * stripLabRegions('a\n// lab:begin\nb\n// lab:end\nc\n', 'x.ts'); // { text: 'a\nc\n', regions: ['line 2 (3 lines)'] }
 */
export function stripLabRegions(text: string, file: string): { text: string; regions: string[] } {
  const kept: string[] = [];
  const regions: string[] = [];
  let openedAt: number | undefined;
  const lines = text.split('\n');
  const comments = text.includes('lab:') ? commentLines(text).comment : [];
  lines.forEach((line, index) => {
    const trimmed = comments[index] === true ? line.trim() : '';
    if (trimmed.startsWith(BEGIN_MARKER)) {
      if (openedAt !== undefined) {
        throw new Error(
          `${file}:${String(index + 1)}: ${BEGIN_MARKER} inside the region opened at line ${String(openedAt + 1)}`,
        );
      }
      openedAt = index;
      return;
    }
    if (trimmed.startsWith(END_MARKER)) {
      if (openedAt === undefined) {
        throw new Error(`${file}:${String(index + 1)}: ${END_MARKER} without a ${BEGIN_MARKER}`);
      }
      regions.push(`line ${String(openedAt + 1)} (${String(index - openedAt + 1)} lines)`);
      openedAt = undefined;
      return;
    }
    if (openedAt === undefined) kept.push(line);
  });
  if (openedAt !== undefined) {
    throw new Error(
      `${file}:${String(openedAt + 1)}: ${BEGIN_MARKER} is never closed by ${END_MARKER}`,
    );
  }
  return { text: kept.join('\n'), regions };
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `record` without the keys `drop` says to drop: the kept ones, and the dropped ones' names. */
function without(
  record: Record<string, unknown>,
  drop: (key: string) => boolean,
): { kept: Record<string, unknown>; dropped: string[] } {
  const entries = Object.entries(record);
  return {
    kept: Object.fromEntries(entries.filter(([key]) => !drop(key))),
    dropped: entries.filter(([key]) => drop(key)).map(([key]) => key),
  };
}

/** A package.json without the lab's packages and lab-only dependencies; the root's without lab scripts. */
function packageJsonEdit(file: string, text: string): FileEdit | undefined {
  const json = JSON.parse(text) as Json;
  const changes: string[] = [];
  const droppedPackages = new Set([...LAB_PACKAGES, ...(LAB_ONLY_DEPENDENCIES[file] ?? [])]);
  // Rebuilt key by key, so every field keeps its place in the file.
  const edited: Json = {};
  for (const [field, value] of Object.entries(json)) {
    if ((DEPENDENCY_FIELDS as readonly string[]).includes(field) && isRecord(value)) {
      const { kept, dropped } = without(value, (name) => droppedPackages.has(name));
      changes.push(...dropped.map((name) => `${field} ${name}`));
      if (Object.keys(kept).length > 0) edited[field] = kept;
    } else if (field === 'scripts' && file === 'package.json' && isRecord(value)) {
      const { kept, dropped } = without(value, (name) => LAB_SCRIPTS.includes(name));
      changes.push(...dropped.map((name) => `script ${name}`));
      for (const [name, { from, to }] of Object.entries(SCRIPT_REWRITES)) {
        const script = kept[name];
        if (typeof script !== 'string' || !script.includes(from)) continue;
        kept[name] = script.replace(from, to);
        changes.push(`script ${name}: without "${from.trim()}"`);
      }
      edited[field] = kept;
    } else {
      edited[field] = value;
    }
  }
  if (changes.length === 0) return undefined;
  return { file, changes, text: `${JSON.stringify(edited, null, 2)}\n` };
}

/** The migrations lock without the entries of deleted migrations (they are not "removed releases"). */
function migrationsLockEdit(text: string): FileEdit | undefined {
  const json = JSON.parse(text) as Json;
  const migrations = json['migrations'];
  if (!isRecord(migrations)) return undefined;
  const { kept, dropped } = without(migrations, isLabPath);
  if (dropped.length === 0) return undefined;
  return {
    file: MIGRATIONS_LOCK,
    changes: dropped,
    text: `${JSON.stringify({ ...json, migrations: kept }, null, 2)}\n`,
  };
}

/**
 * What removing the lab from `root` would do; reads only.
 *
 * @example
 * const plan = planRemoval('/work/fork'); // { deletions: ['apps/console', ...], edits: [...] }
 */
export function planRemoval(root: string): RemovalPlan {
  const deletions = LAB_PATHS.filter((lab) => existsSync(path.join(root, lab)));
  const edits: FileEdit[] = [];
  for (const file of listFiles(root)) {
    if (isLabPath(file)) continue;
    const text = readFileSync(path.join(root, file), 'utf8');
    if (CODE_FILE.test(file)) {
      const stripped = stripLabRegions(text, file);
      if (stripped.regions.length > 0) {
        edits.push({
          file,
          changes: stripped.regions.map((r) => `region at ${r}`),
          text: stripped.text,
        });
      }
    } else if (path.posix.basename(file) === 'package.json') {
      const edit = packageJsonEdit(file, text);
      if (edit !== undefined) edits.push(edit);
    } else if (file === MIGRATIONS_LOCK) {
      const edit = migrationsLockEdit(text);
      if (edit !== undefined) edits.push(edit);
    }
  }
  return { deletions, edits };
}

/** Deletes and writes what the plan says. */
export function applyRemoval(root: string, plan: RemovalPlan): void {
  for (const lab of plan.deletions) rmSync(path.join(root, lab), { recursive: true, force: true });
  for (const edit of plan.edits) writeFileSync(path.join(root, edit.file), edit.text);
}

/** The plan as lines for a terminal. */
export function describePlan(plan: RemovalPlan): string[] {
  return [
    ...plan.deletions.map((lab) => `delete ${lab}`),
    ...plan.edits.flatMap((edit) => edit.changes.map((change) => `edit   ${edit.file}: ${change}`)),
  ];
}

const IMPORT_SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)'([^']+)'/;

/**
 * Where the template uses the lab outside a `// lab:begin` region: an import of
 * a lab package, or of a file in a lab folder. Each is a line that would break
 * once the lab is removed; `file:line  specifier`.
 */
export function labImportsOutsideRegions(root: string, files = listFiles(root)): string[] {
  const found: string[] = [];
  for (const file of files) {
    if (isLabPath(file) || !CODE_FILE.test(file)) continue;
    const text = readFileSync(path.join(root, file), 'utf8');
    // Throws on a region left open: that is a finding too.
    stripLabRegions(text, file);
    let inRegion = false;
    const { comment, inText } = commentLines(text);
    text.split('\n').forEach((line, index) => {
      const trimmed = comment[index] === true ? line.trim() : '';
      if (trimmed.startsWith(BEGIN_MARKER)) inRegion = true;
      if (trimmed.startsWith(END_MARKER)) inRegion = false;
      const specifier = IMPORT_SPECIFIER.exec(line)?.[1];
      if (inRegion || inText[index] === true || specifier === undefined) return;
      const isLabPackage = LAB_PACKAGES.some(
        (name) => specifier === name || specifier.startsWith(`${name}/`),
      );
      const target = specifier.startsWith('.')
        ? toPosix(path.posix.join(path.posix.dirname(file), specifier))
        : undefined;
      if (isLabPackage || (target !== undefined && isLabPath(target))) {
        found.push(`${file}:${String(index + 1)}  ${specifier}`);
      }
    });
  }
  return found;
}
