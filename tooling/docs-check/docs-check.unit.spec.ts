// The docs test of `pnpm test`: every reference in docs/ and the READMEs
// resolves against the repository as it is. A failure lists every broken
// reference as `file:line  message`; fix the page, not this test
// (docs/testing.md, "The docs test").
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  checkMatrix,
  checkMatrixCells,
  checkPnpmCommands,
  contractEventTypes,
} from './contract-checks.js';
import { checkEventNames } from './event-names.js';
import { checkDefaultColumns, checkQuotedValues, knownValues } from './quoted-values.js';
import { checkReadingPath } from './reading-path.js';
import {
  checkBacktickedPaths,
  checkFileNames,
  checkLinks,
  checkNamedSymbols,
} from './reference-checks.js';
import { Repository, listPages, type Failure, type Page } from './repository.js';
// lab:begin
import { checkScenarioOrder } from './scenario-order.js';
// lab:end

const root = fileURLToPath(new URL('../../', import.meta.url));
const repo = new Repository(root);
const pages = listPages(root).map((file) => repo.page(file));

function report(failures: readonly Failure[]): string {
  return failures.map((f) => `${f.file}:${String(f.line)}  ${f.message}`).join('\n');
}

function everyPage(check: (repo: Repository, page: Page) => Failure[]): string {
  return report(pages.flatMap((page) => check(repo, page)));
}

describe('the docs', () => {
  it('are found: docs/, README.md and the READMEs', () => {
    expect(pages.map((page) => page.file)).toEqual(
      expect.arrayContaining(['README.md', 'docs/README.md', 'docs/saga.md', 'docs/testing.md']),
    );
  });

  it('name only repository paths and file:line references that exist', () => {
    expect(everyPage(checkBacktickedPaths)).toBe('');
  });

  it('name only source files that exist somewhere, when they give no folder', () => {
    expect(everyPage(checkFileNames)).toBe('');
  });

  it('link only to files and #anchors that exist', () => {
    expect(everyPage(checkLinks)).toBe('');
  });

  it('find each named symbol in the file they name as its place', () => {
    expect(everyPage(checkNamedSymbols)).toBe('');
  });

  it('show only pnpm commands that package.json or pnpm itself has', () => {
    expect(everyPage(checkPnpmCommands)).toBe('');
  });

  it("list every consumer and event of the contracts in saga.md's matrix", () => {
    expect(report(checkMatrix(repo))).toBe('');
  });

  it("mark in saga.md's matrix exactly the events each consumer's group receives", () => {
    const inventory = 'apps/inventory/src';
    expect(
      report(
        checkMatrixCells(repo, {
          'order-saga-v1': {
            file: 'apps/order/src/domain/order-saga.decide.ts',
            constant: 'ORDER_SAGA_EVENTS',
          },
          'inventory-reservation-v1': {
            file: `${inventory}/inventory-reservation/inventory-reservation.handler.ts`,
            constant: 'INVENTORY_RESERVATION_EVENTS',
          },
          'inventory-demand-v1': {
            file: `${inventory}/inventory-demand/inventory-demand.handler.ts`,
            constant: 'INVENTORY_DEMAND_EVENTS',
          },
          'payment-authorization-v1': {
            file: 'apps/payment/src/payment-authorization/payment-authorization.handler.ts',
            constant: 'PAYMENT_AUTHORIZATION_EVENTS',
          },
          'notification-email-v1': {
            file: 'apps/notification/src/domain/notification.decide.ts',
            constant: 'NOTIFICATION_EMAIL_EVENTS',
          },
        }),
      ),
    ).toBe('');
  });

  it('quote the defaults and constants of the code as the code sets them', () => {
    const values = knownValues(repo);
    expect(
      everyPage((_, page) => [
        ...checkDefaultColumns(page, values),
        ...checkQuotedValues(page, values),
      ]),
    ).toBe('');
  });

  it('name only event types the contracts define, in code spans and Mermaid diagrams', () => {
    const types = contractEventTypes(repo);
    expect(everyPage((_, page) => checkEventNames(page, types))).toBe('');
  });

  it("give the core reading path's true length in start-here.md, within its budget", () => {
    expect(report(checkReadingPath(repo))).toBe('');
  });

  // lab:begin
  it('list the scenarios in the order `pnpm scenario --all` runs them', () => {
    expect(report(checkScenarioOrder(repo))).toBe('');
  });
  // lab:end
});
