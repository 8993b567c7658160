// Comments in generated files are wrapped here: prettier leaves comments as
// they are written, and a sentence built from names has no fixed length.

/**
 * `text` as comment lines of at most `width` characters, each starting with `prefix`.
 *
 * @example
 * wrap('// ', 'a long sentence ...'); // '// a long\n// sentence ...'
 */
export function wrap(prefix: string, text: string, width = 80): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && prefix.length + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines.map((text) => `${prefix}${text}`).join('\n');
}
