// Each check, run on a small repository written for it: what it must report
// (with file and line) and what it must let pass. Without these, a check that
// had stopped finding anything would pass on the real docs just the same.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkMatrix, checkMatrixCells, checkPnpmCommands } from './contract-checks.js';
import {
  checkBacktickedPaths,
  checkFileNames,
  checkLinks,
  checkNamedSymbols,
} from './reference-checks.js';
import { Repository, listPages, type Failure } from './repository.js';

const FILES: Record<string, string> = {
  '.gitignore': 'node_modules/\ne2e/.logs/\n',
  'package.json': JSON.stringify({ scripts: { test: 'vitest', scenario: 'tsx main.ts' } }),
  'packages/contracts/src/consumers.ts': [
    'export const CONSUMERS = Object.freeze({',
    "  shipping: 'shipping-v1',",
    "  billing: 'billing-v2',",
    '});',
  ].join('\n'),
  'packages/contracts/src/events/message.ts':
    "/** @example defineEvent('OrderInComment', 1, z.object({})) */\n// defineEvent('AlsoInComment', 1)\n",
  'packages/contracts/src/events/order.events.ts': [
    "export const OrderPlaced = defineEvent('OrderPlaced', 1, z.object({}));",
    'export const OrderShipped = defineEvent(',
    "  'OrderShipped',",
    '  1,',
    ');',
  ].join('\n'),
  'packages/shipping/src/shipping.consumer.ts':
    "export const SHIPPING_EVENTS = [\n  'OrderPlaced',\n  'OrderShipped',\n] as const;\n",
  'packages/x/README.md': '# x\n',
  'e2e/.logs/hidden.ts': '',
  'packages/x/src/thing.ts': 'export function realThing() {\n  return 1;\n}\n',
  'docs/saga.md': [
    '# Saga',
    '',
    '### Events × consumers',
    '',
    '| event | `shipping-v1` | `retired-v1` |',
    '| --- | --- | --- |',
    '| `OrderPlaced` | ship | |',
    '| `OrderLost` | lose | |',
    '',
    '## Paths',
  ].join('\n'),
  'docs/page.md': [
    '# Page',
    '`packages/x/src/thing.ts` and `packages/x/src/gone.ts`, `e2e/.logs/stack-1.log`, `src/relative.ts`',
    '`packages/x/src/thing.ts:2` and `packages/x/src/thing.ts:3-9`',
    '[ok](saga.md#events--consumers) [bad anchor](saga.md#nope) [missing](nothing.md) [self](#page)',
    '[lines](../packages/x/src/thing.ts#L2) [too far](../packages/x/src/thing.ts#L40) [out](../../etc/passwd)',
    '`realThing` ([`thing.ts`](../packages/x/src/thing.ts)), `ghostThing` in `packages/x/src/thing.ts`',
    '[`realThing`](../packages/x/src/thing.ts) [`lostThing`](../packages/x/src/thing.ts)',
    '`pnpm scenario crash` `pnpm install` `pnpm --filter @a/b exec x` `pnpm run test` `pnpm nosuch`',
    '```sh',
    'pnpm test   # pnpm commented-out',
    'STACK_FAULTS=true pnpm missing && npx vitest run packages/x/src/absent.int.spec.ts',
    '```',
    '```text',
    'pnpm not-a-command-in-output',
    '```',
    '`thing.ts`, `README.md`, `vanished.int.spec.ts`, `app.js`, `hidden.ts` (only under e2e/.logs/)',
    '`realThing` in `thing.ts`, and `phantomThing` in `thing.ts`',
  ].join('\n'),
};

const root = mkdtempSync(path.join(tmpdir(), 'docs-check-'));
for (const [file, text] of Object.entries(FILES)) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});
const repo = new Repository(root);
const page = repo.page('docs/page.md');

function lines(failures: readonly Failure[]): string[] {
  return failures.map((f) => `${f.file}:${String(f.line)} ${f.message}`);
}

describe('the docs checks, on a repository with known mistakes', () => {
  it('given the repository, the pages are docs/ and the READMEs that exist', () => {
    expect(listPages(root)).toEqual(['docs/page.md', 'docs/saga.md', 'packages/x/README.md']);
  });

  it('given backticked paths, reports the missing file and the line past the end, and skips ignored and relative ones', () => {
    expect(lines(checkBacktickedPaths(repo, page))).toEqual([
      'docs/page.md:2 `packages/x/src/gone.ts`: no such file or folder',
      'docs/page.md:3 `packages/x/src/thing.ts:3-9`: packages/x/src/thing.ts has 4 lines; the reference points at line 3-9',
      'docs/page.md:11 `packages/x/src/absent.int.spec.ts`: no such file or folder',
    ]);
  });

  it('given file names without a folder, reports the source files no folder holds (ignored ones do not count), and skips .js and .json', () => {
    expect(lines(checkFileNames(repo, page))).toEqual([
      'docs/page.md:16 `vanished.int.spec.ts`: no file of that name in the repository',
      'docs/page.md:16 `hidden.ts`: no file of that name in the repository',
    ]);
  });

  it('given links, reports a missing anchor, a missing file, a line anchor past the end and a path out of the repository', () => {
    expect(lines(checkLinks(repo, page))).toEqual([
      'docs/page.md:4 (saga.md#nope): docs/saga.md has no heading with the anchor #nope',
      'docs/page.md:4 (nothing.md): docs/nothing.md does not exist',
      'docs/page.md:5 (../packages/x/src/thing.ts#L40): packages/x/src/thing.ts has 4 lines; the reference points at line 40',
      'docs/page.md:5 (../../etc/passwd): points outside the repository',
    ]);
  });

  it('given symbols named with their file, reports the ones the file does not contain', () => {
    expect(lines(checkNamedSymbols(repo, page))).toEqual([
      'docs/page.md:6 `ghostThing` does not occur in packages/x/src/thing.ts, which the page names as its place',
      'docs/page.md:7 `lostThing` does not occur in packages/x/src/thing.ts, which the page names as its place',
      'docs/page.md:17 `phantomThing` does not occur in packages/x/src/thing.ts, which the page names as its place',
    ]);
  });

  it('given pnpm commands, reports the scripts package.json lacks, in code spans and shell blocks only', () => {
    expect(lines(checkPnpmCommands(repo, page))).toEqual([
      'docs/page.md:8 `pnpm nosuch`: no such script in package.json, nor a pnpm command',
      'docs/page.md:11 `pnpm missing`: no such script in package.json, nor a pnpm command',
    ]);
  });

  it("given saga.md's matrix, reports a marked cell its consumer's list lacks and a listed event left blank", () => {
    expect(
      lines(
        checkMatrixCells(repo, {
          'shipping-v1': {
            file: 'packages/shipping/src/shipping.consumer.ts',
            constant: 'SHIPPING_EVENTS',
          },
          'retired-v1': { file: 'packages/shipping/src/shipping.consumer.ts', constant: 'GONE' },
        }),
      ),
    ).toEqual([
      'docs/saga.md:3 `OrderLost` has a cell for `shipping-v1`, but SHIPPING_EVENTS does not list it',
      'docs/saga.md:3 SHIPPING_EVENTS lists `OrderShipped`, but its cell for `shipping-v1` is empty',
      'docs/saga.md:3 no `GONE` list in packages/shipping/src/shipping.consumer.ts, for `retired-v1`',
    ]);
  });

  it("given saga.md's matrix, reports each consumer and event it lacks, and each name the contracts lack", () => {
    expect(lines(checkMatrix(repo))).toEqual([
      'docs/saga.md:3 the events × consumers matrix has no column for consumer `billing-v2`',
      'docs/saga.md:3 the events × consumers matrix has no row for event `OrderShipped`',
      'docs/saga.md:3 the matrix names `retired-v1`, which is not in packages/contracts/src/consumers.ts',
      'docs/saga.md:3 the matrix names `OrderLost`, which no file in packages/contracts/src/events defines',
    ]);
  });
});
