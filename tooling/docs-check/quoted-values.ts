// Values the docs quote next to the name that sets them must be that name's
// value: a default in a table with a "default" column, and a number written
// beside a backticked setting or constant ("every 500 ms (`ORDER_TIMER_POLL_MS`)").
// The values are read from the code, so a changed default fails the page
// that still quotes the old one (docs/testing.md, "The docs test").
import type { CodeSpan } from './markdown.js';
import type { Failure, Page, Repository } from './repository.js';

/** Every value a name is given in the code: a config key's default, or a constant's literal. */
export type KnownValues = ReadonlyMap<string, readonly string[]>;

const NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const CONFIG_FILE = /(?:^|\/)(?:config|[\w-]+-settings)\.ts$/;
const CONSTANT =
  /^\s*(?:export\s+)?const\s+([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?:\s*:\s*\w+)?\s*=\s*([^;]+);/gm;
const CONFIG_KEY = /^(\s*)([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+):\s*(.*)$/;

/** Reads the values of the code: every `const NAME = literal` and every config key's default. */
export function knownValues(repo: Repository): KnownValues {
  const sources = [...repo.filesByName().values()]
    .flat()
    .filter(
      (file) => file.endsWith('.ts') && !/\.(spec|test)\.ts$/.test(file) && !file.endsWith('.d.ts'),
    );
  const values = new Map<string, string[]>();
  const add = (name: string, value: string | undefined): void => {
    if (value === undefined) return;
    const known = values.get(name) ?? [];
    if (!known.includes(value)) values.set(name, [...known, value]);
  };
  const texts = sources.map((file) => ({ file, text: repo.read(file) }));
  const constants = new Map<string, string>();
  for (const { text } of texts) {
    for (const match of text.matchAll(CONSTANT))
      constants.set(match[1] ?? '', (match[2] ?? '').trim());
  }
  for (const [name, expression] of constants) add(name, literal(expression));
  for (const { file, text } of texts.filter(({ file }) => CONFIG_FILE.test(file))) {
    for (const [name, expression] of configDefaults(text)) {
      add(name, resolve(expression, text, constants) ?? unreadable(file));
    }
  }
  return values;
}

const UNREADABLE = '\u0000unreadable:';
const unreadable = (file: string): string => `${UNREADABLE}${file}`;

/** The default expression of each upper-case key of a config module: `.default(x)`, or a helper's last argument. */
export function configDefaults(source: string): [string, string][] {
  const lines = source.split('\n');
  const found: [string, string][] = [];
  lines.forEach((line, index) => {
    const key = CONFIG_KEY.exec(line);
    if (key === null) return;
    const indent = (key[1] ?? '').length;
    const chunk = [key[3] ?? ''];
    for (const next of lines.slice(index + 1)) {
      const nextIndent = next.length - next.trimStart().length;
      if (next.trim() === '' || nextIndent <= indent) break;
      chunk.push(next.trim());
    }
    const expression = chunk.join('');
    const explicit = /\.default\(([^()]*(?:\([^()]*\))?[^()]*)\)/.exec(expression);
    const helper = /^[a-z]\w*\(([^()]*)\)/.exec(expression);
    const argument = explicit?.[1] ?? helper?.[1]?.split(',').at(-1);
    // A key read from `env[...]` or without a default has nothing to quote.
    if (argument !== undefined && !expression.startsWith('env[')) {
      found.push([key[2] ?? '', argument.trim()]);
    }
  });
  return found;
}

function literal(expression: string): string | undefined {
  if (/^[\d_\s*+()]+$/.test(expression) && /\d/.test(expression)) {
    const terms = expression.replace(/[_\s()]/g, '');
    if (!/^\d+(?:[*+]\d+)*$/.test(terms)) return undefined;
    const sum = terms.split('+').map((term) => term.split('*').reduce((a, b) => a * Number(b), 1));
    return String(sum.reduce((a, b) => a + b, 0));
  }
  const quoted = /^(['"])(.*)\1$/.exec(expression);
  if (quoted !== null) return quoted[2];
  if (expression === 'true' || expression === 'false') return expression;
  return undefined;
}

/** A literal, a constant, or `OBJECT.property` of an object literal in the same file. */
function resolve(
  expression: string,
  source: string,
  constants: ReadonlyMap<string, string>,
): string | undefined {
  const direct = literal(expression);
  if (direct !== undefined) return direct;
  const constant = constants.get(expression);
  if (constant !== undefined) return resolve(constant, source, constants);
  const member = /^(\w+)\.(\w+)$/.exec(expression);
  if (member === null) return undefined;
  const object = new RegExp(`const ${member[1] ?? ''}\\b[^=]*=[^{]*\\{([\\s\\S]*?)\\n\\}`).exec(
    source,
  );
  const property = new RegExp(`\\b${member[2] ?? ''}:\\s*([^,\\n]+)`).exec(object?.[1] ?? '');
  return property?.[1] === undefined ? undefined : resolve(property[1].trim(), source, constants);
}

const UNITS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  second: 1000,
  seconds: 1000,
  min: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  day: 86_400_000,
  days: 86_400_000,
};
// A number (not part of an address or a version: `127.0.0.1`), with an optional unit.
const QUANTITY = String.raw`(\d{1,3}(?:[ ,_]\d{3})+|\d+(?:\.\d+)?)(?!\.?\d)(?:\s*(ms|s|seconds?|min|minutes?|h|hours?|days?)\b)?`;
// "5 in lab mode", "3 s for the scenarios": a value said to hold somewhere else than by default.
const QUALIFIED = String.raw`(?!\s+(?:in|for|with|under|on|when|during)\b)`;

/** The value a quantity stands for, in the name's own unit: milliseconds for a `_MS` name. */
function quantityValue(name: string, digits: string, unit: string | undefined): string | undefined {
  const number = Number(digits.replace(/[ ,_]/g, ''));
  if (unit === undefined) return String(number);
  const factor = UNITS[unit];
  if (!name.endsWith('_MS') || factor === undefined) return undefined;
  return String(Math.round(number * factor));
}

function mismatch(
  page: Page,
  line: number,
  name: string,
  quoted: string,
  known: readonly string[],
): Failure {
  const where = known.find((value) => value.startsWith(UNREADABLE));
  return {
    file: page.file,
    line,
    message:
      where === undefined
        ? `\`${name}\` is quoted as ${quoted}, but the code gives it ${known.join(' or ')}`
        : `\`${name}\` is quoted as ${quoted}, but its default in ${where.slice(UNREADABLE.length)} cannot be read: write it as a literal or a constant`,
  };
}

function checkQuantity(
  page: Page,
  line: number,
  name: string,
  match: RegExpExecArray | null,
  values: KnownValues,
): Failure[] {
  const known = values.get(name);
  if (match === null || known === undefined) return [];
  const [quoted, digits = '', unit] = [match[0].trim(), match[1], match[2]];
  const value = quantityValue(name, digits, unit);
  if (value === undefined || known.includes(value)) return [];
  return [mismatch(page, line, name, quoted.replace(/^[(,\s]+|[,(\s]+$/g, ''), known)];
}

/** A number right before or after a backticked name: `500 ms (\`X\`)`, `\`X\` (500 ms)`, `\`X\`, 1 s by default`. */
export function checkQuotedValues(page: Page, values: KnownValues): Failure[] {
  const after = new RegExp(String.raw`^\*{0,2}\s*[(,]\s*(?:default\s+)?${QUANTITY}${QUALIFIED}`);
  const before = new RegExp(
    String.raw`(?:^|[^\w.])${QUANTITY}(?:\s+by default)?\s*[(,]?\s*\*{0,2}$`,
  );
  return page.markdown.lines.flatMap((line) =>
    line.codeSpans
      .filter((span) => NAME.test(span.text))
      .flatMap((span: CodeSpan) => [
        ...checkQuantity(
          page,
          line.number,
          span.text,
          after.exec(line.text.slice(span.end)),
          values,
        ),
        ...checkQuantity(
          page,
          line.number,
          span.text,
          before.exec(line.text.slice(0, span.start)),
          values,
        ),
      ]),
  );
}

/** Tables with a "default" column: a row named by a backticked setting must quote its default. */
export function checkDefaultColumns(page: Page, values: KnownValues): Failure[] {
  const failures: Failure[] = [];
  let defaultColumn: number | undefined;
  for (const line of page.markdown.lines) {
    if (!line.text.trimStart().startsWith('|')) {
      defaultColumn = undefined;
      continue;
    }
    const cells = line.text
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    if (defaultColumn === undefined) {
      const index = cells.findIndex((cell) => cell.toLowerCase() === 'default');
      defaultColumn = index > 0 ? index : -1;
      continue;
    }
    const name = /^`([^`]+)`$/.exec(cells[0] ?? '')?.[1];
    const cell = cells[defaultColumn];
    if (defaultColumn < 0 || name === undefined || !NAME.test(name) || cell === undefined) continue;
    const quoted = /^`([^`]*)`$/.exec(cell)?.[1];
    if (quoted !== undefined && !/^\d/.test(quoted)) {
      const known = values.get(name);
      if (known !== undefined && !known.includes(quoted)) {
        failures.push(mismatch(page, line.number, name, `\`${quoted}\``, known));
      }
      continue;
    }
    failures.push(
      ...checkQuantity(page, line.number, name, new RegExp(`^\`?${QUANTITY}`).exec(cell), values),
    );
  }
  return failures;
}
