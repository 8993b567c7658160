// `pnpm --filter @effectively-once/console bench`: what the console ships to the
// browser (raw and gzipped, against the 150 kB budget of issue 6) and how long
// its in-memory build takes at start. Sizes are exact; the build time is the
// median of several builds on this machine. Writes its section of
// docs/benchmarks.md between its markers.
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { writeBenchmarkSection } from '../../../../tooling/benchmarks-doc.js';
import { buildWebBundle, JS_BUDGET_GZIP_BYTES } from '../src/bundle/build-web-bundle.js';

const BENCHMARKS_FILE = fileURLToPath(new URL('../../../../docs/benchmarks.md', import.meta.url));
const BUILDS = 7;

const kB = (bytes: number): string => (bytes / 1024).toFixed(1);

const durations: number[] = [];
let bundle = await buildWebBundle();
for (let build = 0; build < BUILDS; build += 1) {
  const started = performance.now();
  bundle = await buildWebBundle();
  durations.push(performance.now() - started);
}
durations.sort((a, b) => a - b);
const median = durations[Math.floor(durations.length / 2)] ?? Number.NaN;

const rows = ['/assets/app.js', '/assets/app.css', '/'].map((path) => {
  const asset = bundle.assets.get(path);
  if (asset === undefined) throw new Error(`The bundle has no ${path}.`);
  return `| \`${path}\` | ${kB(asset.body.length)} | ${kB(gzipSync(asset.body, { level: 9 }).length)} |`;
});

const section = `## The console's page (\`apps/lab/console\`)

What the browser downloads, minified, and gzipped at level 9. The budget for the
JavaScript is ${kB(JS_BUDGET_GZIP_BYTES)} kB gzipped (issue 6); a unit test
(\`web-bundle.unit.spec.ts\`) fails the build above it.

| file | kB | kB gzipped |
| --- | ---: | ---: |
${rows.join('\n')}

JavaScript: ${kB(bundle.gzippedJsBytes)} kB gzipped, ${((bundle.gzippedJsBytes / JS_BUDGET_GZIP_BYTES) * 100).toFixed(0)} % of the budget,
from ${String(bundle.inputs.length)} source files (Preact and the page's own).
The in-memory esbuild build at the console's start took ${median.toFixed(0)} ms (median of ${String(BUILDS)},
${String(cpus().length)} cores, Node.js ${process.version}).`;

console.info(section);
await writeBenchmarkSection(BENCHMARKS_FILE, 'console', section);
