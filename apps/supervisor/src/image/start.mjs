// The container image's entry: `node start.mjs <process>` runs that process's
// bundle in this same Node process, so the signals the container gets (SIGTERM
// on a stop) reach the service's own shutdown. processes.json, written next to
// it by assemble-image.ts, says which bundle each name runs.
import { readFileSync } from 'node:fs';
import { URL } from 'node:url';

const processes = JSON.parse(readFileSync(new URL('./processes.json', import.meta.url), 'utf8'));
const name = process.argv[2];
if (name === undefined || name === '--help' || !Object.hasOwn(processes, name)) {
  const names = Object.keys(processes).join(' | ');
  process.stderr.write(
    `${name === undefined || name === '--help' ? '' : `Unknown process "${name}". `}Usage: start.mjs <${names}>\n`,
  );
  process.exit(name === '--help' ? 0 : 2);
}
await import(new URL(processes[name], import.meta.url).href);
