// A throwaway copy of the repository that resolves its workspace packages the
// way pnpm links them, so generated code can be typechecked and its tests run
// without touching the real working tree: tracked files are copied (never
// hard-linked: the scaffolder edits files in place), each package's
// node_modules is rebuilt as the same relative symlinks, and the root
// node_modules, which holds the third-party packages, is one symlink.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface WorkspaceCopy {
  readonly root: string;
  /** Links an app the copy did not have when it was made, as `pnpm install` would. */
  linkApp(app: string): void;
  remove(): void;
}

/** Copies the symlinks of one node_modules folder (scopes included, `.bin` left out). */
function copyLinks(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from)) {
    if (entry.startsWith('.')) continue;
    const source = path.join(from, entry);
    const stat = lstatSync(source);
    if (stat.isSymbolicLink()) symlinkSync(readlinkSync(source), path.join(to, entry));
    else if (stat.isDirectory() && entry.startsWith('@')) copyLinks(source, path.join(to, entry));
  }
}

/** The files git would commit, copied; a file removed while this runs is left out. */
function copyFiles(source: string, root: string): void {
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    { cwd: source, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  )
    .split('\0')
    .filter((file) => file !== '');
  for (const file of files) {
    const target = path.join(root, file);
    mkdirSync(path.dirname(target), { recursive: true });
    try {
      cpSync(path.join(source, file), target, { verbatimSymlinks: true });
    } catch (error) {
      // Deleted in the working tree but still in the index, or moved meanwhile.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  symlinkSync(path.join(source, 'node_modules'), path.join(root, 'node_modules'));
  for (const dir of [...workspacePackages(source), 'e2e']) {
    const modules = path.join(source, dir, 'node_modules');
    if (existsSync(modules)) copyLinks(modules, path.join(root, dir, 'node_modules'));
  }
}

function workspacePackages(root: string): string[] {
  return ['apps', 'packages', 'apps/lab', 'packages/lab']
    .filter((folder) => existsSync(path.join(root, folder)))
    .flatMap((folder) =>
      readdirSync(path.join(root, folder))
        .map((entry) => `${folder}/${entry}`)
        .filter((dir) => existsSync(path.join(root, dir, 'package.json'))),
    );
}

/**
 * @example
 * const copy = copyWorkspace(repoRoot);
 * try { ... } finally { copy.remove(); }
 */
export function copyWorkspace(source: string): WorkspaceCopy {
  const root = mkdtempSync(path.join(tmpdir(), 'eo-scaffold-'));
  try {
    copyFiles(source, root);
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  /** Where another package's link to `name` points, relative to the repository. */
  const thirdParty = (name: string): string | undefined => {
    for (const dir of workspacePackages(source)) {
      const link = path.join(source, dir, 'node_modules', name);
      if (existsSync(link) && lstatSync(link).isSymbolicLink()) {
        return path.relative(source, path.resolve(path.dirname(link), readlinkSync(link)));
      }
    }
    return undefined;
  };
  return {
    root,
    linkApp(app) {
      const dir = path.join(root, 'apps', app);
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      for (const name of Object.keys(manifest.dependencies ?? {})) {
        const link = path.join(dir, 'node_modules', name);
        mkdirSync(path.dirname(link), { recursive: true });
        const workspace = /^@effectively-once\/(.+)$/.exec(name)?.[1];
        const inRepo =
          workspace === undefined
            ? thirdParty(name)
            : ['packages', 'packages/lab']
                .map((folder) => `${folder}/${workspace}`)
                .find((dir) => existsSync(path.join(root, dir)));
        if (inRepo === undefined)
          throw new Error(`No package of the workspace depends on ${name}.`);
        symlinkSync(path.relative(path.dirname(link), path.join(root, inRepo)), link);
      }
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
