// The checks of what the docs quote from the code (defaults, event names, the
// core path's length), each run on a small repository with a planted mistake:
// what it must report, with file and line, and what it must let pass.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contractEventTypes } from './contract-checks.js';
import { checkEventNames } from './event-names.js';
import { checkDefaultColumns, checkQuotedValues, knownValues } from './quoted-values.js';
import { checkReadingPath } from './reading-path.js';
import { Repository, type Failure } from './repository.js';

const FILES: Record<string, string> = {
  'apps/x/src/config.ts': [
    'const milliseconds = (fallback: number) => z.coerce.number().int().default(fallback);',
    'const xEnv = {',
    '  X_POLL_MS: z.coerce.number().int().min(10).default(500),',
    '  X_DEADLINE_MS: milliseconds(30_000),',
    "  X_MODE: z.enum(['fast', 'slow']).default('fast'),",
    '  X_POOL_MAX: z.coerce',
    '    .number()',
    '    .default(DEFAULT_POOL_MAX),',
    '};',
  ].join('\n'),
  'apps/x/src/pool.ts': 'export const DEFAULT_POOL_MAX = 10;\nexport const CLAIM_MS = 15_000;\n',
  'packages/contracts/src/events/order.events.ts': [
    "export const OrderPlaced = defineEvent('OrderPlaced', 1, z.object({}));",
    "export const OrderPaymentRequested = defineEvent('OrderPaymentRequested', 1, z.object({}));",
  ].join('\n'),
  'docs/settings.md': [
    '# Settings',
    '',
    '| variable | default | meaning |',
    '| --- | --- | --- |',
    '| `X_POLL_MS` | 500 | right |',
    '| `X_DEADLINE_MS` | 20000 | planted: the code says 30000 |',
    '| `X_MODE` | `slow` | planted: the code says fast |',
    '| `X_POOL_MAX` | `10` | right, through a constant |',
    '| `X_UNKNOWN` | 7 | not in the code: not checked |',
    '',
    'The loop polls every second (`X_POLL_MS`), then every 500 ms by default, `X_POLL_MS`.',
    'A claim lasts 15 s (`CLAIM_MS`); planted: `CLAIM_MS` (10 s), and a 1 s `X_POLL_MS`.',
    'Not a default: `X_POOL_MAX`, 5 in lab mode; an address: `X_MODE` (127.0.0.1).',
  ].join('\n'),
  'docs/events.md': [
    '# Events',
    '',
    '`OrderPlaced`, `OrderPaymentRequested`, and planted: `PaymentRequested`; not events: `WrongExpectedRevisionError`.',
    '',
    '```mermaid',
    'sequenceDiagram',
    '  O->>P: OrderPaymentRequested',
    '  O->>P: CancellationRequested (planted)',
    '```',
  ].join('\n'),
  'docs/start-here.md': [
    '# Start',
    '',
    '**The core path** ([events](events.md), [settings](settings.md#settings)) is 99 lines.',
    '',
    '<!-- lab:begin -->',
    '',
    'The lab adds 9 lines of asides.',
    '',
    '<!-- lab:end -->',
    '',
  ].join('\n'),
};

const root = mkdtempSync(path.join(tmpdir(), 'docs-values-'));
for (const [file, text] of Object.entries(FILES)) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});
const repo = new Repository(root);

function lines(failures: readonly Failure[]): string[] {
  return failures.map((f) => `${f.file}:${String(f.line)} ${f.message}`);
}

describe('the checks of values the docs quote from the code', () => {
  it('given a table with a default column, when a row quotes another default than the config sets, then it is reported', () => {
    const values = knownValues(repo);
    expect(lines(checkDefaultColumns(repo.page('docs/settings.md'), values))).toEqual([
      'docs/settings.md:6 `X_DEADLINE_MS` is quoted as 20000, but the code gives it 30000',
      'docs/settings.md:7 `X_MODE` is quoted as `slow`, but the code gives it fast',
    ]);
  });

  it('given a number written beside a setting or a constant, when it is not that value, then it is reported', () => {
    const values = knownValues(repo);
    expect(lines(checkQuotedValues(repo.page('docs/settings.md'), values))).toEqual([
      'docs/settings.md:12 `CLAIM_MS` is quoted as 10 s, but the code gives it 15000',
      'docs/settings.md:12 `X_POLL_MS` is quoted as 1 s, but the code gives it 500',
    ]);
  });

  it('given event-like names in code spans and Mermaid diagrams, when the contracts do not define one, then it is reported', () => {
    const types = contractEventTypes(repo);
    expect(lines(checkEventNames(repo.page('docs/events.md'), types))).toEqual([
      'docs/events.md:3 `PaymentRequested` is written like an event, but packages/contracts defines no event of that type',
      'docs/events.md:8 `CancellationRequested` in a Mermaid diagram is written like an event, but packages/contracts defines no event of that type',
    ]);
  });

  it('given the core path paragraph, when its counts are not the pages’ lengths, then each is reported, and so is a path over its budget', () => {
    expect(lines(checkReadingPath(repo, 'docs/start-here.md', 20))).toEqual([
      "docs/start-here.md:3 the core path is said to be 99 lines, but its 3 pages have 25 outside the lab's regions",
      'docs/start-here.md:7 the lab is said to add 9 lines to the core path, but its regions there add 6',
      'docs/start-here.md:3 the core path has 25 lines, over its budget of 20: move reference out of it',
    ]);
  });
});
