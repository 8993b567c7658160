// Takes the lab out of a checkout (docs/template-and-lab.md): plans what to
// delete and edit, from lab-parts.ts and the `// lab:begin` regions, then does
// it. The plan is data, so `--dry-run` prints it and the tests check it
// without touching anything.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  BEGIN_MARKER,
  CODE_FILE,
  END_MARKER,
  LAB_NAMES_KEPT,
  LAB_ONLY_DEPENDENCIES,
  LAB_PACKAGES,
  LAB_PATHS,
  LAB_SCRIPTS,
  MARKDOWN_FILE,
  SCRIPT_REWRITES,
} from './lab-parts.js';
import { lex, LabRemovalError, type Lexed } from './lex.js';
import { stripMarkdownLabRegions } from './markdown-regions.js';

export { LabRemovalError } from './lex.js';

/** Never walked: installed packages, git's own files, a running stack's data. */
/** What may follow a marker in its comment: nothing, or a space or a colon and why. */
const MARKER_END = /^($|[\s:])/;
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', '.stack', '.data']);
const MIGRATIONS_LOCK = 'tooling/migrations.lock.json';
const TSCONFIG = 'tsconfig.json';
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

/** Whether a repository-relative path is the lab's or inside it. */
export function isLabPath(file: string): boolean {
  return LAB_PATHS.some((lab) => file === lab || file.startsWith(`${lab}/`));
}

/**
 * The files of the checkout at `root`, relative and with `/`: those git would
 * commit (tracked ones that still exist, and new ones not ignored), so that
 * ignored output (coverage, builds, test artifacts) is neither stripped nor
 * rewritten. Outside a git repository, every file but those in SKIPPED_FOLDERS.
 */
export function listFiles(root: string): string[] {
  let listed: string;
  try {
    listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return walkFiles(root);
  }
  return listed
    .split('\0')
    .filter(
      (file) =>
        file !== '' &&
        statSync(path.join(root, file), { throwIfNoEntry: false })?.isFile() === true,
    );
}

/** Every file under `root`, relative and with `/`, but those in SKIPPED_FOLDERS. */
export function walkFiles(root: string, folder = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
    if (SKIPPED_FOLDERS.has(entry.name)) continue;
    const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) found.push(...walkFiles(root, relative));
    else if (entry.isFile()) found.push(relative);
  }
  return found;
}

/** The `// lab:begin` and `// lab:end` lines of a file, as pairs of lines (from 0). */
function labRegionsOf(text: string, file: string, lexed: Lexed): [number, number][] {
  const regions: [number, number][] = [];
  let openedAt: number | undefined;
  for (const { line, alone, text: comment } of lexed.comments) {
    const marker = [BEGIN_MARKER, END_MARKER].find((m) => comment.startsWith(m));
    if (marker === undefined) continue;
    const at = `${file}:${String(line + 1)}`;
    // `// lab:beginning` is not a marker, but it is too close to one to let pass as a comment.
    if (!MARKER_END.test(comment.slice(marker.length))) {
      throw new LabRemovalError(
        `${at}: "${comment}" is not a marker: write ${marker} alone, or ${marker}: why`,
      );
    }
    if (!alone) {
      throw new LabRemovalError(
        `${at}: ${marker} must be alone on its line (after nothing but spaces)`,
      );
    }
    if (marker === BEGIN_MARKER) {
      if (openedAt !== undefined) {
        throw new LabRemovalError(
          `${at}: ${BEGIN_MARKER} inside the region opened at line ${String(openedAt + 1)}`,
        );
      }
      openedAt = line;
    } else {
      if (openedAt === undefined) {
        throw new LabRemovalError(`${at}: ${END_MARKER} without a ${BEGIN_MARKER}`);
      }
      regions.push([openedAt, line]);
      openedAt = undefined;
    }
  }
  if (openedAt !== undefined) {
    throw new LabRemovalError(
      `${file}:${String(openedAt + 1)}: ${BEGIN_MARKER} is never closed by ${END_MARKER}`,
    );
  }
  return regions;
}

/**
 * The text without its lab regions: every line from a `// lab:begin` comment to
 * the next `// lab:end`, both included (a marker inside a string or template is
 * text, not a marker). A region left open, one opened inside another, a marker
 * after code on its line, and a file the lexer cannot read to its end are
 * errors, not guesses; and the text left must hold no marker, or it is an error
 * too.
 *
 * @example
 * stripLabRegions('a\n// lab:begin\nb\n// lab:end\nc\n', 'x.ts'); // { text: 'a\nc\n', regions: ['line 2 (3 lines)'] }
 */
export function stripLabRegions(text: string, file: string): { text: string; regions: string[] } {
  if (!text.includes('lab:')) return { text, regions: [] };
  // The lexer reads a byte order mark as nothing; it stays at the start of the text.
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const regions = labRegionsOf(text, file, lex(text, file));
  if (regions.length === 0) return { text, regions: [] };
  const inRegion = (index: number): boolean =>
    regions.some(([begin, end]) => index >= begin && index <= end);
  const kept = text
    .slice(bom.length)
    .split('\n')
    .filter((_, index) => !inRegion(index))
    .join('\n');
  // What is left must read to its end and hold no marker, or a region was misread.
  if (labRegionsOf(kept, file, lex(kept, file)).length > 0) {
    throw new LabRemovalError(`${file}: a marker is left after its regions are taken out`);
  }
  return {
    text: `${bom}${kept}`,
    regions: regions.map(
      ([begin, end]) => `line ${String(begin + 1)} (${String(end - begin + 1)} lines)`,
    ),
  };
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

/**
 * A package.json without the lab's packages and lab-only dependencies, and
 * without the entry points whose files are the lab's; the root's without lab scripts.
 */
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
    } else if (field === 'exports' && isRecord(value)) {
      // An entry point inside a lab path (service-kit's `./lineage`) goes with its files.
      const folder = path.posix.dirname(file);
      const { kept, dropped } = without(value, (name) => {
        const target = value[name];
        return typeof target === 'string' && isLabPath(path.posix.join(folder, target));
      });
      changes.push(...dropped.map((name) => `exports ${name}`));
      edited[field] = kept;
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

/** The root tsconfig.json without the `include` and `exclude` entries that look in lab folders. */
function tsconfigEdit(text: string): FileEdit | undefined {
  const json = JSON.parse(text) as Json;
  const changes: string[] = [];
  const edited: Json = {};
  for (const [field, value] of Object.entries(json)) {
    if ((field === 'include' || field === 'exclude') && Array.isArray(value)) {
      const kept = value.filter((entry) => typeof entry !== 'string' || !isLabPath(entry));
      changes.push(
        ...value
          .filter((entry) => !kept.includes(entry))
          .map((entry) => `${field} ${String(entry)}`),
      );
      if (kept.length > 0) edited[field] = kept;
    } else {
      edited[field] = value;
    }
  }
  if (changes.length === 0) return undefined;
  return { file: TSCONFIG, changes, text: `${JSON.stringify(edited, null, 2)}\n` };
}

/**
 * What removing the lab from `root` would do; reads only.
 *
 * @example
 * const plan = planRemoval('/work/fork'); // { deletions: ['apps/lab', ...], edits: [...] }
 */
export function planRemoval(root: string): RemovalPlan {
  const deletions = LAB_PATHS.filter((lab) => existsSync(path.join(root, lab)));
  const edits: FileEdit[] = [];
  for (const file of listFiles(root)) {
    if (isLabPath(file)) continue;
    const text = readFileSync(path.join(root, file), 'utf8');
    if (CODE_FILE.test(file) || MARKDOWN_FILE.test(file)) {
      const stripped = CODE_FILE.test(file)
        ? stripLabRegions(text, file)
        : stripMarkdownLabRegions(text, file);
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
    } else if (file === TSCONFIG) {
      const edit = tsconfigEdit(text);
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

/** A lab package named in a string, as the whole string or followed by a subpath. */
const LAB_PACKAGE_IN_TEXT = new RegExp(
  `(?:^|[^\\w@/-])(${LAB_PACKAGES.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})(?![\\w-])`,
);

/** The lab path a string names, if any: a lab package, a lab folder from the root, or one relative to `file`. */
export function labPathIn(file: string, value: string): string | undefined {
  const labPackage = LAB_PACKAGE_IN_TEXT.exec(value)?.[1];
  if (labPackage !== undefined) return labPackage;
  // A relative path is resolved from the file (an import, `new URL(..., import.meta.url)`).
  if (value.startsWith('./') || value.startsWith('../')) {
    const target = path.posix.join(path.posix.dirname(file), value);
    if (isLabPath(target)) return target;
  }
  // A path from the root, anywhere in the string (`spawn('node', ['apps/lab/console/src/server.ts'])`).
  for (const lab of LAB_PATHS) {
    const at = value.indexOf(lab);
    if (at < 0) continue;
    const before = value[at - 1];
    const after = value[at + lab.length];
    const startsPath = before === undefined || !/[\w.-]/.test(before);
    const endsPath = after === undefined || !/[\w-]/.test(after) || after === '/';
    if (startsPath && endsPath) return lab;
  }
  return undefined;
}

/**
 * Where the template names the lab outside a `// lab:begin` region: any string
 * literal (an import in any form, `require`, `import.meta.resolve`, a path given
 * to `spawn` or `new URL`) that names a lab package or a path in a lab folder.
 * Each would break once the lab is removed; `file:line  string`. A template
 * literal spread over several lines is generated code (the scaffolder's), not a
 * path, and is not read. A specifier computed at run time cannot be found.
 */
export function labImportsOutsideRegions(root: string, files = listFiles(root)): string[] {
  const found: string[] = [];
  for (const file of files) {
    if (isLabPath(file) || !CODE_FILE.test(file)) continue;
    const text = readFileSync(path.join(root, file), 'utf8');
    if (
      !text.includes('lab') &&
      !LAB_PATHS.some((lab) => text.includes(path.posix.basename(lab)))
    ) {
      continue;
    }
    const lexed = lex(text, file);
    const regions = text.includes('lab:') ? labRegionsOf(text, file, lexed) : [];
    for (const { line, text: value, template } of lexed.strings) {
      if (template && value.includes('\n')) continue;
      if (regions.some(([begin, end]) => line >= begin && line <= end)) continue;
      if (LAB_NAMES_KEPT[file]?.includes(value) === true) continue;
      if (labPathIn(file, value) !== undefined) found.push(`${file}:${String(line + 1)}  ${value}`);
    }
  }
  return found;
}
