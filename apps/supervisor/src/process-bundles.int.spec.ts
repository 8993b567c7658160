// Real esbuild, a real folder: a bundle runs under Node, still finds files
// next to its source, names its TypeScript in stack traces, and is reused
// until one of its inputs changes.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildProcessBundles, processCommand } from './process-bundles.js';

const run = promisify(execFile);
const ENTRY = 'apps/demo/src/server.ts';

/** A composition root that prints where it thinks it lives, then fails, to show its stack trace. */
const SERVER = `
import { fileURLToPath } from 'node:url';
const here: string = fileURLToPath(new URL('.', import.meta.url));
console.log(JSON.stringify({ here, text: 'a string that says import.meta.url' }));
if (process.argv.includes('--fail')) throw new Error('boom');
`;

let repoRoot: string;
beforeEach(async () => {
  repoRoot = `${await mkdtemp(path.join(tmpdir(), 'bundles-'))}/`;
  await mkdir(path.join(repoRoot, 'apps/demo/src'), { recursive: true });
  await writeFile(path.join(repoRoot, ENTRY), SERVER);
  // Written a minute ago: a file changed while esbuild runs keeps its build from being recorded.
  const aMinuteAgo = new Date(Date.now() - 60_000);
  await utimes(path.join(repoRoot, ENTRY), aMinuteAgo, aMinuteAgo);
});
afterEach(async () => {
  await rm(repoRoot, { recursive: true, force: true });
});

const build = () =>
  buildProcessBundles({ repoRoot, entries: [ENTRY], cacheDir: path.join(repoRoot, 'cache') });

/** The esbuild service processes this process started and still has (Linux's /proc). */
async function esbuildServices(): Promise<string[]> {
  const tasks = await readdir(`/proc/${String(process.pid)}/task`);
  const children = await Promise.all(
    tasks.map((task) =>
      readFile(`/proc/${String(process.pid)}/task/${task}/children`, 'utf8').catch(() => ''),
    ),
  );
  const commands = await Promise.all(
    children
      .flatMap((list) => list.split(' ').filter(Boolean))
      .map((pid) => readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')),
  );
  return commands.filter((command) => command.includes('esbuild') && command.includes('--service'));
}

describe('buildProcessBundles', () => {
  it('builds a bundle that runs under Node and still sees import.meta.url as its source file', async () => {
    // When the entry is bundled and run as the supervisor runs it
    const bundles = await build();
    const { stdout } = await run(process.execPath, processCommand(ENTRY, bundles));

    // Then it finds files next to its TypeScript source, not next to the bundle, and strings are left alone
    expect(bundles.built).toBe(true);
    expect(JSON.parse(stdout)).toEqual({
      here: path.join(repoRoot, 'apps/demo/src/'),
      text: 'a string that says import.meta.url',
    });
  });

  it('names the TypeScript file in a stack trace', async () => {
    const bundles = await build();
    const failing = run(process.execPath, [...processCommand(ENTRY, bundles), '--fail']);
    await expect(failing).rejects.toMatchObject({
      stderr: expect.stringContaining(`${path.join(repoRoot, ENTRY)}:5`) as unknown,
    });
  });

  it('builds without the embedded event store installed, and only a process that loads it fails', async () => {
    // Given an entry that loads the embedded store only when asked, and no node_modules to find it in
    await writeFile(
      path.join(repoRoot, ENTRY),
      `if (process.argv.includes('--embedded')) await import('@effectively-once/event-store-postgres');
console.log('started');`,
    );

    // When it is bundled (a fork on EventStoreDB that deleted the package)
    const bundles = await build();

    // Then the bundle runs, and a run that wants the package fails on the missing package
    const { stdout } = await run(process.execPath, processCommand(ENTRY, bundles));
    expect(stdout.trim()).toBe('started');
    const wanting = run(process.execPath, [...processCommand(ENTRY, bundles), '--embedded']);
    await expect(wanting).rejects.toMatchObject({
      stderr: expect.stringContaining(
        "Cannot find package '@effectively-once/event-store-postgres'",
      ) as unknown,
    });
  });

  it('leaves no esbuild service process behind once it has built', async () => {
    // When the bundles are built (the supervisor goes on running for as long as the stack does)
    const bundles = await build();

    // Then esbuild's service, which would idle on for that long, is gone. There is one
    // service per process, shared by every caller of esbuild, so none may be left at all.
    expect(bundles.built).toBe(true);
    expect(await esbuildServices()).toEqual([]);
  });

  it('reuses the last build until an input changes', async () => {
    // Given a build
    const first = await build();

    // When nothing changed, then the same folder, without esbuild
    const again = await build();
    expect(again).toMatchObject({ built: false, directory: first.directory });

    // When the source changes, then a new build in a new folder
    await writeFile(path.join(repoRoot, ENTRY), `${SERVER}\nconsole.log('changed');\n`);
    const changed = await build();
    expect(changed.built).toBe(true);
    expect(changed.directory).not.toBe(first.directory);
  });
});

describe('processCommand', () => {
  it('given no bundles, then tsx runs the TypeScript entry', () => {
    expect(processCommand(ENTRY, undefined)).toEqual([
      '--import',
      'tsx',
      '--import',
      './packages/service-kit/src/tracing/register.ts',
      ENTRY,
    ]);
  });
});
