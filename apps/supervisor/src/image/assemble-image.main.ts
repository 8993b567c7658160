// `node --import tsx apps/supervisor/src/image/assemble-image.main.ts <out-dir>`:
// the Dockerfile's build step (assemble-image.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assembleImage } from './assemble-image.js';

const USAGE =
  'Usage: assemble-image.main.ts <out-dir>   (writes start.mjs, processes.json, bundles/)';
const [outDir, ...rest] = process.argv.slice(2);
if (outDir === '--help' || outDir === '-h') {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (outDir === undefined || outDir.startsWith('-') || rest.length > 0) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const { processes } = await assembleImage({ repoRoot, outDir: path.resolve(outDir) });
process.stdout.write(
  `Assembled ${Object.keys(processes).join(', ')} into ${path.resolve(outDir)}\n`,
);
