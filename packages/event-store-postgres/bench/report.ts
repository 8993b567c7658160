// Writes this benchmark's section of docs/benchmarks.md, between its markers,
// leaving everything else in the file (other benchmarks' sections) as it was.
import { readFile, writeFile } from 'node:fs/promises';

export const START_MARKER = '<!-- bench:event-store:start -->';
export const END_MARKER = '<!-- bench:event-store:end -->';

/** Replaces the text between the markers, or appends a marked section when they are absent. */
export function replaceSection(document: string, section: string): string {
  const block = `${START_MARKER}\n${section.trim()}\n${END_MARKER}`;
  const start = document.indexOf(START_MARKER);
  const end = document.indexOf(END_MARKER);
  if (start === -1 || end === -1 || end < start) {
    const base = document.length === 0 ? '# Benchmarks\n' : document;
    return `${base.trimEnd()}\n\n${block}\n`;
  }
  return `${document.slice(0, start)}${block}${document.slice(end + END_MARKER.length)}`;
}

export async function writeSection(file: string, section: string): Promise<void> {
  // Read as late as possible: another benchmark may have rewritten its own section meanwhile.
  const current = await readFile(file, 'utf8').catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  });
  await writeFile(file, replaceSection(current, section));
}
