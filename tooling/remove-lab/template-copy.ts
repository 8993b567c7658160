// The template as a fork would have it: a copy of this checkout's files (the
// working tree, uncommitted files included, ignored ones not) in a temporary
// folder, with the lab removed and the workspace installed offline from the
// local pnpm store by `pnpm lab:remove` itself. Used by the proof in `pnpm test`
// and by `pnpm lab:check`.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { planRemoval, type RemovalPlan } from './remove-lab.js';

export interface TemplateCopy {
  readonly root: string;
  readonly plan: RemovalPlan;
  /** The text each file the plan edits had before the removal, by its relative path. */
  readonly originals: ReadonlyMap<string, string>;
  /** Runs a command in the copy; throws with its output when it fails. */
  run(command: string, args: readonly string[]): string;
  remove(): void;
}

/** The files git would commit from `root`: tracked ones that still exist, and new ones not ignored. */
function workingTreeFiles(root: string): string[] {
  const listed = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  return listed.split('\0').filter((file) => file !== '' && existsSync(path.join(root, file)));
}

function run(cwd: string, command: string, args: readonly string[]): string {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${result.stdout}${result.stderr}`;
  if (result.error !== undefined) throw result.error;
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed in ${cwd} (exit ${String(result.status)}):\n${output}`,
    );
  }
  return output;
}

/**
 * Copies `root`'s working tree to a temporary folder, removes the lab there and
 * installs offline (the lockfile changes when packages leave the workspace).
 *
 * @example
 * const copy = makeTemplateCopy(repoRoot);
 * copy.run('node_modules/.bin/tsc', ['-p', 'tsconfig.json']);
 * copy.remove();
 */
export function makeTemplateCopy(root: string): TemplateCopy {
  const copyRoot = mkdtempSync(path.join(tmpdir(), 'eo-template-'));
  let plan: RemovalPlan;
  const originals = new Map<string, string>();
  try {
    for (const file of workingTreeFiles(root)) {
      mkdirSync(path.dirname(path.join(copyRoot, file)), { recursive: true });
      copyFileSync(path.join(root, file), path.join(copyRoot, file));
    }
    // A fork is a git checkout, and tools such as the scaffolder's test list files with git.
    run(copyRoot, 'git', ['init', '--quiet']);
    plan = planRemoval(copyRoot);
    for (const { file } of plan.edits) {
      originals.set(file, readFileSync(path.join(copyRoot, file), 'utf8'));
    }
    // The command a fork runs, from the copy's own files; tsx comes from this checkout,
    // since the copy has no node_modules until the command installs them.
    run(copyRoot, process.execPath, [
      '--import',
      import.meta.resolve('tsx'),
      'tooling/remove-lab/main.ts',
    ]);
  } catch (error) {
    rmSync(copyRoot, { recursive: true, force: true });
    throw error;
  }
  return {
    root: copyRoot,
    plan,
    originals,
    run: (command, args) => run(copyRoot, command, args),
    remove: () => rmSync(copyRoot, { recursive: true, force: true }),
  };
}
