// The repository as the docs check sees it: which Markdown files it reads,
// and cached reads of the files those pages point at.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { scanMarkdown, type ScannedMarkdown } from './markdown.js';

export interface Failure {
  /** Repository-relative path of the page. */
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

export interface Page {
  readonly file: string;
  readonly markdown: ScannedMarkdown;
}

/** The pages people read: docs/, the root README and the READMEs of apps, packages and e2e. */
export function listPages(root: string): string[] {
  const docs = readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.posix.join('docs', file.split(path.sep).join('/')));
  const readmes = [
    'README.md',
    'apps/README.md',
    'packages/README.md',
    'e2e/README.md',
    ...['apps', 'packages', 'apps/lab', 'packages/lab']
      .filter((folder) => existsSync(path.join(root, folder)))
      .flatMap((folder) =>
        readdirSync(path.join(root, folder)).map((name) => `${folder}/${name}/README.md`),
      ),
  ].filter((file) => existsSync(path.join(root, file)));
  return [...docs, ...readmes].sort();
}

export class Repository {
  private readonly texts = new Map<string, string>();
  private readonly scanned = new Map<string, ScannedMarkdown>();
  /** Top-level folders: a backticked `x/y` whose first segment is one of them is a repository path. */
  readonly topLevel: ReadonlySet<string>;
  private readonly ignored: readonly ((file: string) => boolean)[];

  constructor(readonly root: string) {
    this.topLevel = new Set(
      readdirSync(root, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !['node_modules', '.git'].includes(entry.name))
        .map((entry) => entry.name),
    );
    this.ignored = readGitignore(root);
  }

  /** True for a path git ignores: generated output (logs, screenshots, state files), never committed. */
  isIgnored(file: string): boolean {
    return this.ignored.some((matches) => matches(file));
  }

  exists(file: string): boolean {
    return existsSync(path.join(this.root, file));
  }

  isFile(file: string): boolean {
    return this.exists(file) && statSync(path.join(this.root, file)).isFile();
  }

  read(file: string): string {
    let text = this.texts.get(file);
    if (text === undefined) {
      text = readFileSync(path.join(this.root, file), 'utf8');
      this.texts.set(file, text);
    }
    return text;
  }

  private byName: ReadonlyMap<string, readonly string[]> | undefined;

  /** Every file of the repository outside node_modules and ignored paths, by its name (no folder). */
  filesByName(): ReadonlyMap<string, readonly string[]> {
    if (this.byName !== undefined) return this.byName;
    const byName = new Map<string, string[]>();
    const walk = (folder: string): void => {
      for (const entry of readdirSync(path.join(this.root, folder), { withFileTypes: true })) {
        const file = folder === '' ? entry.name : `${folder}/${entry.name}`;
        if (['node_modules', '.git'].includes(entry.name) || this.isIgnored(file)) continue;
        if (entry.isDirectory()) walk(file);
        else byName.set(entry.name, [...(byName.get(entry.name) ?? []), file]);
      }
    };
    walk('');
    this.byName = byName;
    return byName;
  }

  /** The files directly inside a folder, as repository paths. */
  list(folder: string): string[] {
    return readdirSync(path.join(this.root, folder)).map((name) => `${folder}/${name}`);
  }

  lineCount(file: string): number {
    return this.read(file).split(/\r?\n/).length;
  }

  page(file: string): Page {
    let markdown = this.scanned.get(file);
    if (markdown === undefined) {
      markdown = scanMarkdown(this.read(file));
      this.scanned.set(file, markdown);
    }
    return { file, markdown };
  }
}

/** The root .gitignore's entries as matchers (names, `dir/` and `*.ext` are all it uses). */
function readGitignore(root: string): ((file: string) => boolean)[] {
  const file = path.join(root, '.gitignore');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((entry) => {
      const name = entry.replace(/\/$/, '');
      if (name.startsWith('*.')) return (candidate: string) => candidate.endsWith(name.slice(1));
      if (name.includes('/')) {
        const prefix = name.replace(/^\//, '');
        return (candidate: string) => candidate === prefix || candidate.startsWith(`${prefix}/`);
      }
      return (candidate: string) => candidate.split('/').includes(name);
    });
}
