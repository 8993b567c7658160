// The repository as the scaffolder sees it: files read from disk, and a
// change set that is written only once every file of it was generated and
// checked. Bad input therefore writes nothing.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ScaffoldError } from './names.js';

/** Read access to the repository; a ChangeSet offers the same view with its changes applied. */
export interface RepositoryView {
  exists(file: string): boolean;
  read(file: string): string;
  list(folder: string): string[];
}

export class Tree implements RepositoryView {
  constructor(readonly root: string) {}

  exists(file: string): boolean {
    return existsSync(path.join(this.root, file));
  }

  read(file: string): string {
    return readFileSync(path.join(this.root, file), 'utf8');
  }

  /** Entries of a folder, empty when it does not exist. */
  list(folder: string): string[] {
    if (!this.exists(folder)) return [];
    return readdirSync(path.join(this.root, folder)).sort();
  }
}

/**
 * What one command writes: new files and edited ones, by repository path. It
 * reads as the repository will look once written, so a new service's first
 * consumer is planned against the service's files before any exist on disk.
 */
export class ChangeSet implements RepositoryView {
  readonly #created = new Map<string, string>();
  readonly #edited = new Map<string, string>();

  constructor(private readonly tree: Tree) {}

  exists(file: string): boolean {
    return this.#created.has(file) || this.tree.exists(file);
  }

  read(file: string): string {
    return this.#created.get(file) ?? this.#edited.get(file) ?? this.tree.read(file);
  }

  list(folder: string): string[] {
    // A created file adds its first part below `folder`: a file or a new sub-folder.
    const added = [...this.#created.keys()]
      .filter((file) => file.startsWith(`${folder}/`))
      .map((file) => file.slice(folder.length + 1).split('/')[0] ?? '');
    return [...new Set([...this.tree.list(folder), ...added])].sort();
  }

  create(file: string, content: string): void {
    if (this.exists(file)) {
      throw new ScaffoldError(`${file} already exists; the scaffolder never overwrites a file.`);
    }
    this.#created.set(file, content);
  }

  edit(file: string, change: (source: string) => string): void {
    const next = change(this.read(file));
    if (this.#created.has(file)) this.#created.set(file, next);
    else this.#edited.set(file, next);
  }

  get created(): ReadonlyMap<string, string> {
    return this.#created;
  }

  get edited(): ReadonlyMap<string, string> {
    return this.#edited;
  }

  /** Every file, new or edited, by path. */
  files(): [string, string][] {
    return [...this.#created, ...this.#edited];
  }

  write(): void {
    for (const [file, content] of this.files()) {
      mkdirSync(path.dirname(path.join(this.tree.root, file)), { recursive: true });
      writeFileSync(path.join(this.tree.root, file), content);
    }
  }
}
