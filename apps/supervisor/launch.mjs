// `pnpm start`: runs the supervisor from the bundle its previous start built
// (docs/adr/0014), when none of that build's inputs changed since; otherwise,
// or with STACK_RUNTIME=tsx, through tsx, and that start builds the bundles
// for the next one. Through tsx the supervisor spent about 1.8 s of CPU
// loading its own modules. Plain JavaScript, because it runs before anything
// is compiled; it mirrors bundle-manifest.ts's check and reads only the two
// variables it needs before config.ts can be loaded.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = 'apps/supervisor/src/main.ts';
/** process-bundles.ts names each bundle `<app>-<file>.mjs`. */
const BUNDLE = 'supervisor-main.mjs';
const DEFAULT_BUNDLE_DIR = path.join(REPO_ROOT, 'node_modules/.cache/effectively-once/bundles');

/** The supervisor's bundle when the last build made one and its inputs are unchanged. */
async function currentBundle(cacheDir) {
  try {
    const manifest = JSON.parse(await readFile(path.join(cacheDir, 'latest.json'), 'utf8'));
    if (!Array.isArray(manifest.entries) || !manifest.entries.includes(ENTRY)) return undefined;
    const unchanged = await Promise.all(
      Object.entries(manifest.inputs).map(async ([file, [size, mtimeMs]]) => {
        const stats = await stat(file);
        return stats.size === size && stats.mtimeMs === mtimeMs;
      }),
    );
    if (!unchanged.every(Boolean)) return undefined;
    const bundle = path.join(cacheDir, manifest.directory, BUNDLE);
    await stat(bundle);
    return bundle;
  } catch {
    // No build, a file gone, a manifest of another shape: start through tsx.
    return undefined;
  }
}

const USAGE = `usage: pnpm start

Starts the whole stack on this machine: embedded PostgreSQL (or DATABASE_URL), the
four saga services, the card processor and mail sink stand-ins, the gateway and,
with the lab, the web console. Stops on Ctrl-C. It takes no arguments; it is set
through the environment, for example:
  STACK_PORTS=auto            free ports instead of 3000-3007
  STACK_REPLICAS=payment=2    more processes of a saga service
  STACK_DURABILITY=durable    commits that survive a power cut
  OTEL_EXPORTER_OTLP_ENDPOINT traces to a collector of your own
Every setting: docs/running.md.
`;
// Plain JavaScript before anything is compiled, so not the tooling's parser:
// the same answers (usage on --help, one line and exit 2 otherwise).
const words = process.argv.slice(2).filter((word) => word !== '--');
if (words.includes('--help') || words.includes('-h')) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (words.length > 0) {
  process.stderr.write(
    `pnpm start: takes no arguments, not '${words[0]}'; it is set through the environment (pnpm start --help for usage)\n`,
  );
  process.exit(2);
}

// The only environment read outside config.ts: config.ts is TypeScript, and this runs before it can load.
// eslint-disable-next-line no-restricted-syntax
const { STACK_BUNDLE_DIR, STACK_RUNTIME } = process.env;
const cacheDir = path.resolve(STACK_BUNDLE_DIR || DEFAULT_BUNDLE_DIR);
const bundle = STACK_RUNTIME === 'tsx' ? undefined : await currentBundle(cacheDir);
if (bundle === undefined) {
  // What `node --import tsx` does, here at run time.
  await import('tsx');
  await import(pathToFileURL(path.join(REPO_ROOT, ENTRY)).href);
} else {
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(bundle).href);
}
