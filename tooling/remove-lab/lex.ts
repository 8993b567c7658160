// The lexer behind `pnpm lab:remove`: which `//` comments and string literals
// of a code file are code, so that a marker or a lab path written inside a
// string or a template (the scaffolder writes both) is not taken for one.
/** A `//` comment of the code: its line (from 0), whether only whitespace precedes it there, and its text. */
export interface LineComment {
  readonly line: number;
  readonly alone: boolean;
  readonly text: string;
}

/** A string literal, or the text of a template literal between its backticks and substitutions. */
export interface StringText {
  readonly line: number;
  readonly text: string;
  /** Part of a template literal (which may be generated code spread over many lines). */
  readonly template: boolean;
}

export interface Lexed {
  readonly comments: readonly LineComment[];
  readonly strings: readonly StringText[];
}

type Frame =
  { kind: 'template'; line: number; chunk: string } | { kind: 'substitution'; braces: number };

/** Keywords after which a `/` starts a regular expression rather than a division. */
const REGEX_AFTER_WORD = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);
/** Punctuation after which a `/` starts a regular expression. */
const REGEX_AFTER_CHAR: ReadonlySet<string> = new Set(Array.from('(,=:[!&|?{};+-*%<>~^'));

/** A file the lexer cannot read to its end: its markers cannot be matched safely. */
export class LabRemovalError extends Error {
  override readonly name = 'LabRemovalError';
}

/**
 * The `//` comments and the string literals of JavaScript or TypeScript text.
 * A small lexer of strings, templates with their `${}` substitutions, regular
 * expressions and comments: enough to tell a marker or an import that is code
 * from one that is text (the scaffolder writes markers into the files it
 * generates). It throws when the text ends inside a string, a template, a
 * regular expression or a block comment: then it has misread the file, and a
 * guess could keep a region silently.
 */
export function lex(text: string, file: string): Lexed {
  const comments: LineComment[] = [];
  const strings: StringText[] = [];
  const stack: Frame[] = [];
  let line = 0;
  let atLineStart = true;
  /** The last code token: a punctuation character, 'word' for a name or keyword, 'value' for a literal. */
  let previous: string | undefined;
  let previousWord = '';
  let i = text.startsWith('\uFEFF') ? 1 : 0;
  const fail = (what: string, at: number): never => {
    throw new LabRemovalError(
      `${file}:${String(at + 1)}: ${what} never ends; the lab's markers in this file cannot be read safely`,
    );
  };
  while (i < text.length) {
    const c = text[i] ?? '';
    const next = text[i + 1];
    const top = stack.at(-1);
    if (top?.kind === 'template') {
      if (c === '\\') {
        top.chunk += text.slice(i, i + 2);
        if (next === '\n') line += 1;
        i += 2;
      } else if (c === '`' || (c === '$' && next === '{')) {
        strings.push({ line: top.line, text: top.chunk, template: true });
        if (c === '`') {
          stack.pop();
          previous = 'value';
          i += 1;
        } else {
          top.chunk = '';
          stack.push({ kind: 'substitution', braces: 0 });
          previous = '{';
          i += 2;
        }
      } else {
        if (c === '\n') line += 1;
        top.chunk += c;
        i += 1;
      }
      if (stack.at(-1)?.kind === 'template') atLineStart = false;
      continue;
    }
    if (c === '\n') {
      line += 1;
      atLineStart = true;
      i += 1;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i += 1;
      continue;
    }
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      comments.push({ line, alone: atLineStart, text: text.slice(i, stop).trimEnd() });
      i = stop;
      continue;
    }
    atLineStart = false;
    if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) fail('the block comment opened here', line);
      for (let j = i; j < end; j += 1) if (text[j] === '\n') line += 1;
      i = end + 2;
      continue;
    }
    if (c === "'" || c === '"') {
      const startLine = line;
      let value = '';
      i += 1;
      while (text[i] !== c) {
        if (i >= text.length || text[i] === '\n') fail('the string opened here', startLine);
        if (text[i] === '\\') {
          // A line continuation: the string goes on, on the next line.
          if (text[i + 1] === '\n') line += 1;
          else if (text[i + 1] === '\r' && text[i + 2] === '\n') {
            line += 1;
            i += 1;
          }
          value += text[i + 1] ?? '';
          i += 2;
        } else {
          value += text[i] ?? '';
          i += 1;
        }
      }
      i += 1;
      strings.push({ line: startLine, text: value, template: false });
      previous = 'value';
      continue;
    }
    if (c === '`') {
      stack.push({ kind: 'template', line, chunk: '' });
      i += 1;
      continue;
    }
    if (
      c === '/' &&
      (previous === undefined ||
        REGEX_AFTER_CHAR.has(previous) ||
        (previous === 'word' && REGEX_AFTER_WORD.has(previousWord)))
    ) {
      const startLine = line;
      let inClass = false;
      i += 1;
      while (inClass || text[i] !== '/') {
        if (i >= text.length || text[i] === '\n')
          fail('the regular expression opened here', startLine);
        if (text[i] === '\\') i += 1;
        else if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
        i += 1;
      }
      i += 1;
      while (/[a-z]/i.test(text[i] ?? '')) i += 1;
      previous = 'value';
      continue;
    }
    const word = /^[\p{L}\p{N}_$]+/u.exec(text.slice(i, i + 64))?.[0];
    if (word !== undefined) {
      previous = 'word';
      previousWord = word;
      i += word.length;
      continue;
    }
    if (top?.kind === 'substitution' && c === '{') top.braces += 1;
    if (top?.kind === 'substitution' && c === '}') {
      if (top.braces === 0) {
        stack.pop();
        i += 1;
        continue;
      }
      top.braces -= 1;
    }
    // `)` and `]` close a value: a `/` after them divides.
    previous = c === ')' || c === ']' ? 'value' : c;
    i += 1;
  }
  const open = stack.find((frame) => frame.kind === 'template');
  if (open?.kind === 'template') fail('the template literal opened here', open.line);
  if (stack.length > 0) fail('a template substitution', line);
  return { comments, strings };
}
