// What the container image holds, built here rather than in the Dockerfile so
// that `pnpm test` runs the same steps: the traced esbuild bundles `pnpm start`
// runs (every npm package inside them but the two tracing must see load, which
// get a small node_modules of their own), the tracing register the Dockerfile
// loads with `--import`, one entry that starts a process by name, and the list
// of names.
// infra/container/Dockerfile runs it in its build stage:
//   node --import tsx apps/supervisor/src/image/assemble-image.ts /image
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProcessBundles, TRACING_REGISTER } from '../process-bundles.js';
import { copyImagePackages } from './image-packages.js';
import { imageProcesses } from './image-processes.js';

const ENTRY = fileURLToPath(new URL('./start.mjs', import.meta.url));

/** What the Dockerfile's ENTRYPOINT passes to `node --import`, at the image's root. */
export const IMAGE_TRACING_REGISTER = 'tracing.mjs';

export interface ImageContents {
  /** Each process name, and its bundle relative to the image's root. */
  readonly processes: Readonly<Record<string, string>>;
  /** The npm packages in the image's node_modules. */
  readonly packages: readonly string[];
}

/**
 * Writes `<outDir>/start.mjs`, `<outDir>/processes.json`, `<outDir>/tracing.mjs`,
 * `<outDir>/bundles/` and `<outDir>/node_modules/`; run a process with `node
 * --enable-source-maps --import <outDir>/tracing.mjs <outDir>/start.mjs order`
 * (it traces when OTEL_EXPORTER_OTLP_ENDPOINT or its traces variant is set).
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
      traced: true,
      // Found by name in the image's own node_modules, not at this machine's paths.
      externalImports: 'by-name',
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
    const register = bundles.byEntry.get(TRACING_REGISTER);
    if (register === undefined) throw new Error('No bundle was built for the tracing register.');
    await writeFile(
      path.join(input.outDir, IMAGE_TRACING_REGISTER),
      `// Loaded with --import before the process's bundle: tracing starts when an exporter is configured.\nimport './bundles/${path.basename(register)}';\n`,
    );
    const packages = await copyImagePackages(bundles.externalPackages, input.outDir);
    return { processes, packages };
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}
