// Whether the last build still holds: a warm `pnpm start` skips esbuild when
// no file that went into the bundles changed since. Checked by size and
// modification time of every input, which costs milliseconds; esbuild's
// own build costs seconds on a busy 2-core machine.
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

/** Raise when the build options change, so older builds are not reused. */
export const BUILD_FORMAT = 1;

const Manifest = z.object({
  format: z.literal(BUILD_FORMAT),
  /** The build's folder, relative to the cache folder. */
  directory: z.string(),
  entries: z.array(z.string()),
  /** Every input file (absolute) with its [size, mtimeMs] when it was built. */
  inputs: z.record(z.string(), z.tuple([z.number(), z.number()])),
});
export type BundleManifest = z.infer<typeof Manifest>;

const manifestFile = (cacheDir: string): string => path.join(cacheDir, 'latest.json');

async function fingerprint(file: string): Promise<[number, number] | undefined> {
  try {
    const stats = await stat(file);
    return [stats.size, stats.mtimeMs];
  } catch {
    return undefined;
  }
}

/** The [size, mtimeMs] of each input, as the manifest records them. */
export async function fingerprints(
  files: readonly string[],
): Promise<Record<string, [number, number]>> {
  const found: Record<string, [number, number]> = {};
  await Promise.all(
    files.map(async (file) => {
      const print = await fingerprint(file);
      if (print !== undefined) found[file] = print;
    }),
  );
  return found;
}

/**
 * The folder of the last build when it was made for these entries and none of
 * its inputs changed since; undefined otherwise (and when there is none).
 *
 * @example
 * const reusable = await reusableBuild({ cacheDir, entries });
 */
export async function reusableBuild(input: {
  cacheDir: string;
  entries: readonly string[];
}): Promise<string | undefined> {
  const text = await readFile(manifestFile(input.cacheDir), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const parsed = Manifest.safeParse(JSON.parse(text));
  if (!parsed.success) return undefined;
  const manifest = parsed.data;
  if (manifest.entries.join('\n') !== [...input.entries].sort().join('\n')) return undefined;
  const directory = path.join(input.cacheDir, manifest.directory);
  if ((await fingerprint(directory)) === undefined) return undefined;
  const current = await fingerprints(Object.keys(manifest.inputs));
  const unchanged = Object.entries(manifest.inputs).every(
    ([file, [size, mtimeMs]]) => current[file]?.[0] === size && current[file][1] === mtimeMs,
  );
  return unchanged ? directory : undefined;
}

/**
 * Records the build for the next start; written whole or not at all. Not
 * recorded when an input changed after `builtSince` (an edit while esbuild
 * ran): the next start builds again rather than trust what it may have read.
 */
export async function recordBuild(
  cacheDir: string,
  manifest: Omit<BundleManifest, 'format'>,
  builtSince: number,
): Promise<void> {
  if (Object.values(manifest.inputs).some(([, mtimeMs]) => mtimeMs >= builtSince)) return;
  const pending = `${manifestFile(cacheDir)}.${String(process.pid)}.tmp`;
  const entries = [...manifest.entries].sort();
  await writeFile(pending, JSON.stringify({ format: BUILD_FORMAT, ...manifest, entries }));
  await rename(pending, manifestFile(cacheDir));
}
