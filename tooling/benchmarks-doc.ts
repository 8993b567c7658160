// Each benchmark owns one section of docs/benchmarks.md, between its own
// markers, and rewrites only that section, so benchmarks run in any order.
import { readFile, writeFile } from 'node:fs/promises';

const markers = (name: string) => ({
  start: `<!-- bench:${name}:start -->`,
  end: `<!-- bench:${name}:end -->`,
});

/** Replaces the text between the section's markers, or appends a marked section when they are absent. */
export function replaceBenchmarkSection(document: string, name: string, section: string): string {
  const { start, end } = markers(name);
  const block = `${start}\n${section.trim()}\n${end}`;
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from === -1 || to === -1 || to < from) {
    const base = document.length === 0 ? '# Benchmarks\n' : document;
    return `${base.trimEnd()}\n\n${block}\n`;
  }
  return `${document.slice(0, from)}${block}${document.slice(to + end.length)}`;
}

/**
 * @example
 * await writeBenchmarkSection('docs/benchmarks.md', 'saga', '## The saga\n...');
 */
export async function writeBenchmarkSection(
  file: string,
  name: string,
  section: string,
): Promise<void> {
  // Read as late as possible: another benchmark may have rewritten its own section meanwhile.
  const current = await readFile(file, 'utf8').catch((error: unknown) => {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return '';
    throw error;
  });
  await writeFile(file, replaceBenchmarkSection(current, name, section));
}
