// The few npm packages the image keeps outside its bundles, with everything
// they depend on: tracing must see `pg` load as a module of its own
// (docs/adr/0033, 0046). Copied into the image's node_modules, flat,
// from the folders the build resolved them to.
import { access, cp, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

const PackageJson = z.object({
  name: z.string(),
  dependencies: z.record(z.string(), z.string()).default({}),
  optionalDependencies: z.record(z.string(), z.string()).default({}),
});

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/** Where Node would find `name` from `folder`: the nearest node_modules up the tree that holds it. */
async function findFrom(folder: string, name: string): Promise<string | undefined> {
  for (let at = folder; ; at = path.dirname(at)) {
    const candidate = path.join(at, 'node_modules', name);
    if (await exists(path.join(candidate, 'package.json'))) return realpath(candidate);
    if (path.dirname(at) === at) return undefined;
  }
}

/**
 * Copies each package of `found` (name → folder) and its dependencies,
 * recursively, to `<outDir>/node_modules/<name>`. An optional dependency that
 * is not installed is left out, as Node would; two versions of one package
 * cannot share a flat folder, so that is an error naming both.
 *
 * @example
 * await copyImagePackages(bundles.externalPackages, '/image'); // /image/node_modules/pg, …
 */
export async function copyImagePackages(
  found: ReadonlyMap<string, string>,
  outDir: string,
): Promise<string[]> {
  const copied = new Map<string, string>();
  const queue = [...found].map(([name, folder]) => ({ name, folder, optional: false }));
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const folder = await realpath(next.folder);
    const earlier = copied.get(next.name);
    if (earlier === folder) continue;
    if (earlier !== undefined) {
      throw new Error(`The image needs two copies of ${next.name}: ${earlier} and ${folder}.`);
    }
    copied.set(next.name, folder);
    await cp(folder, path.join(outDir, 'node_modules', next.name), {
      recursive: true,
      dereference: true,
      // A package's own nested node_modules are resolved and copied flat.
      filter: (source) => !source.slice(folder.length).includes(`${path.sep}node_modules`),
    });
    const manifest = PackageJson.parse(
      JSON.parse(await readFile(path.join(folder, 'package.json'), 'utf8')),
    );
    const wanted = [
      ...Object.keys(manifest.dependencies).map((name) => ({ name, optional: false })),
      ...Object.keys(manifest.optionalDependencies).map((name) => ({ name, optional: true })),
    ];
    for (const dependency of wanted) {
      const at = await findFrom(folder, dependency.name);
      if (at === undefined && dependency.optional) continue;
      if (at === undefined)
        throw new Error(`${next.name} needs ${dependency.name}, not installed.`);
      queue.push({ ...dependency, folder: at });
    }
  }
  return [...copied.keys()].sort();
}
