// Small, checked text edits to files a service already has: an import, a
// migration entry, a table in the database interface. Each edit finds its
// anchor or throws, so a file laid out differently stops the scaffolder
// before anything is written, instead of being patched in the wrong place.
import { ScaffoldError } from './names.js';

/** Adds `line` after the file's last import statement. */
export function addImport(source: string, line: string, file: string): string {
  const lines = source.split('\n');
  let lastImportEnd = -1;
  let inImport = false;
  for (const [index, text] of lines.entries()) {
    if (text.startsWith('import ')) inImport = true;
    if (inImport && /(?:from\s+)?'[^']+';\s*$/.test(text)) {
      lastImportEnd = index;
      inImport = false;
    }
  }
  if (lastImportEnd === -1)
    throw new ScaffoldError(`${file}: found no import to add "${line}" after.`);
  lines.splice(lastImportEnd + 1, 0, line);
  return lines.join('\n');
}

/** Inserts `line` before the closing `}` or `};` of the block that `opening` starts. */
export function addToBlock(
  source: string,
  input: { opening: RegExp; line: string; file: string; what: string },
): string {
  const start = input.opening.exec(source);
  if (start === null) throw new ScaffoldError(`${input.file}: found no ${input.what}.`);
  const close = /^\}[;)]*$/m.exec(source.slice(start.index));
  if (close === null) throw new ScaffoldError(`${input.file}: found no end to its ${input.what}.`);
  const at = start.index + close.index;
  return `${source.slice(0, at)}${input.line}\n${source.slice(at)}`;
}

/** Puts `argument` first in the file's call of `callee(`. */
export function addFirstArgument(
  source: string,
  input: { callee: string; argument: string; file: string },
): string {
  const call = `${input.callee}(`;
  const at = source.indexOf(call);
  if (at === -1) throw new ScaffoldError(`${input.file}: found no call of ${input.callee}.`);
  const after = at + call.length;
  return `${source.slice(0, after)}\n  ${input.argument},${source.slice(after)}`;
}

/** Adds `type` to the `extends` list of `export interface <name> extends ...`. */
export function addExtends(
  source: string,
  input: { interfaceName: string; type: string; file: string },
): string {
  const declaration = new RegExp(
    `(export interface ${input.interfaceName})( extends [^{]+)?\\s*\\{`,
  );
  const match = declaration.exec(source);
  if (match === null)
    throw new ScaffoldError(`${input.file}: found no interface ${input.interfaceName}.`);
  const list =
    match[2] === undefined ? ` extends ${input.type}` : `${match[2].trimEnd()}, ${input.type}`;
  return source.replace(declaration, `${match[1] ?? ''}${list} {`);
}
