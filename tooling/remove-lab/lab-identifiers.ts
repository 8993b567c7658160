// What names the lab, for the check that the template's code holds none of it
// once the lab is removed (issue 30): the lab's package names, its settings,
// its vocabulary, its settings and ports, and its region markers. Looked for in the source of apps/ and
// packages/ of the lab-free copy, where any hit is lab code the removal left.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BEGIN_MARKER, END_MARKER, LAB_PACKAGES } from './lab-parts.js';

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Each identifier, by what it stands for; a line matching any one is lab code. */
export const LAB_IDENTIFIERS: readonly { name: string; pattern: RegExp }[] = [
  ...LAB_PACKAGES.map((name) => ({ name, pattern: new RegExp(escaped(name)) })),
  // The lab's fault points and their settings: `faults`, `StackFaults`, `FaultsConfig`
  // (but not `defaults`).
  { name: 'faults', pattern: /\bfaults\b|[a-z]Faults\b|\bFaults/ },
  { name: 'FAULTS_', pattern: /FAULTS_/ },
  { name: 'noFaults', pattern: /noFaults/ },
  { name: '.hit(', pattern: /\.hit\(/ },
  { name: 'MISTAKES', pattern: /MISTAKES/ },
  // Lab mode's and the console's settings, and the lab's ports in the stack state.
  { name: 'lab settings', pattern: /STACK_FAULTS|STACK_CONSOLE|CONSOLE_URL/ },
  { name: 'lab ports', pattern: /\binventory2\b|\blabControl\b/ },
  { name: BEGIN_MARKER, pattern: new RegExp(escaped(BEGIN_MARKER.replace('// ', ''))) },
  { name: END_MARKER, pattern: new RegExp(escaped(END_MARKER.replace('// ', ''))) },
];

/** The source a fork keeps: code and package manifests. */
const SOURCE_FILE = /\.(ts|tsx|js|mjs|cjs|json)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.bundles']);

export interface LabIdentifierHit {
  /** Relative to the root, with forward slashes. */
  file: string;
  line: number;
  identifier: string;
}

function sourceFiles(root: string, folder: string): string[] {
  const entries = readdirSync(path.join(root, folder), { withFileTypes: true });
  return entries.flatMap((entry) => {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      return SKIPPED_FOLDERS.has(entry.name) ? [] : sourceFiles(root, relative);
    }
    return SOURCE_FILE.test(entry.name) ? [relative] : [];
  });
}

/**
 * Every line of apps/ and packages/ under `root` that names the lab.
 *
 * @example
 * labIdentifiersIn(copy.root); // [{ file: 'apps/payment/src/server.ts', line: 12, identifier: 'faults' }]
 */
export function labIdentifiersIn(root: string): LabIdentifierHit[] {
  const files = ['apps', 'packages'].flatMap((folder) => sourceFiles(root, folder));
  return files.flatMap((file) =>
    readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .flatMap((text, index) =>
        LAB_IDENTIFIERS.filter(({ pattern }) => pattern.test(text)).map(({ name }) => ({
          file,
          line: index + 1,
          identifier: name,
        })),
      ),
  );
}
