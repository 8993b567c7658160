// docs/benchmarks.md holds one section per benchmark between its own markers;
// rewriting ours keeps everything else in the file as it was.
import { readFile, writeFile } from 'node:fs/promises';

const START = '<!-- bench:idempotency:start -->';
const END = '<!-- bench:idempotency:end -->';

const NEW_FILE_HEADER = `# Benchmarks

Each section below is written by a benchmark script between its own markers, and
rewritten on every run of that script. Text outside the markers is kept.
`;

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Puts `body` between this benchmark's markers, adding them (and the file) if missing. */
export async function writeBenchSection(file: string, body: string): Promise<void> {
  const section = `${START}\n\n${body.trim()}\n\n${END}`;
  const existing = await readIfExists(file);
  if (existing === undefined) {
    await writeFile(file, `${NEW_FILE_HEADER}\n${section}\n`);
    return;
  }
  const start = existing.indexOf(START);
  const end = existing.indexOf(END, start);
  const updated =
    start === -1 || end === -1
      ? `${existing.trimEnd()}\n\n${section}\n`
      : existing.slice(0, start) + section + existing.slice(end + END.length);
  await writeFile(file, updated);
}
