// What the container image holds, built here rather than in the Dockerfile so
// that `pnpm test` runs the same steps: the esbuild bundles `pnpm start` runs
// (every npm package inside them, so the image needs no node_modules), one
// entry that starts a process by name, and the list of names.
// infra/container/Dockerfile runs it in its build stage:
//   node --import tsx apps/supervisor/src/image/assemble-image.ts /image
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProcessBundles } from '../process-bundles.js';
import { imageProcesses } from './image-processes.js';

const ENTRY = fileURLToPath(new URL('./start.mjs', import.meta.url));

export interface ImageContents {
  /** Each process name, and its bundle relative to the image's root. */
  readonly processes: Readonly<Record<string, string>>;
}

/**
 * Writes `<outDir>/start.mjs`, `<outDir>/processes.json` and
 * `<outDir>/bundles/`; run a process with `node --enable-source-maps
 * <outDir>/start.mjs order`.
 *
 * @example
 * await assembleImage({ repoRoot: '/app/', outDir: '/image' });
 */
export async function assembleImage(input: {
  repoRoot: string;
  outDir: string;
}): Promise<ImageContents> {
  const byName = imageProcesses();
  // A cache of its own: the image gets exactly this build, never another stack's.
  const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'eo-image-build-'));
  try {
    const bundles = await buildProcessBundles({
      repoRoot: input.repoRoot,
      entries: Object.values(byName),
      cacheDir,
    });
    await mkdir(input.outDir, { recursive: true });
    await cp(bundles.directory, path.join(input.outDir, 'bundles'), { recursive: true });
    const processes = Object.fromEntries(
      Object.entries(byName).map(([name, entry]) => {
        const bundle = bundles.byEntry.get(entry);
        if (bundle === undefined) throw new Error(`No bundle was built for ${entry}.`);
        return [name, `./bundles/${path.basename(bundle)}`];
      }),
    );
    await writeFile(
      path.join(input.outDir, 'processes.json'),
      `${JSON.stringify(processes, null, 2)}\n`,
    );
    await cp(ENTRY, path.join(input.outDir, 'start.mjs'));
    return { processes };
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}
