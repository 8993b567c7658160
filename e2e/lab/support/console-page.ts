// The flow console as a user meets it: every element is found by its role and
// accessible name, exactly as docs/console.md and the page's UI contract name
// them, so a control that loses its label fails the test that uses it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';
import { z } from 'zod';

/** How long a view waits for live data that follows a user's action. */
const LIVE_TIMEOUT_MS = 30_000;
const MAX_TABS = 60;

export interface OrderInput {
  sku: string;
  quantity: number;
  paymentToken: string;
  customerEmail?: string;
}

/** The console's first eight characters of an id, as its headings and links show it. */
export const shortId = (id: string): string => id.slice(0, 8);

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Opens a view by its hash route and waits for the view's heading. */
export async function openView(
  page: Page,
  consoleUrl: string,
  route: string,
  heading: string,
): Promise<void> {
  await page.goto(`${consoleUrl}/${route}`);
  await viewHeading(page, heading).waitFor();
}

export const viewHeading = (page: Page, name: string): Locator =>
  page.getByRole('heading', { level: 2, name, exact: true });

/** The view's one live region ("Status: confirmed", "PASS crash-before-ack", ...). */
export const viewStatus = (page: Page): Locator => page.getByRole('status');

export const table = (page: Page, name: string): Locator =>
  page.getByRole('table', { name, exact: true });

/** The rows of a table that contain every one of the given texts. */
export function rowsWith(tableLocator: Locator, ...texts: string[]): Locator {
  return texts.reduce(
    (rows, text) => rows.filter({ hasText: text }),
    tableLocator.getByRole('row'),
  );
}

/**
 * Moves the focus with Tab (and only Tab) until `target` has it: what a
 * keyboard user does. Fails when the control is not reachable that way.
 */
export async function tabTo(page: Page, target: Locator): Promise<void> {
  const focusedTarget = target.and(page.locator(':focus'));
  for (let presses = 0; presses < MAX_TABS; presses += 1) {
    if ((await focusedTarget.count()) === 1) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${target.toString()} is not reachable with Tab.`);
}

/** Replaces a focused field's content with `text`, from the keyboard. */
async function typeOver(page: Page, text: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

/** Moves a focused list to its first option, then down until it shows `value`. */
async function chooseWithArrowKeys(page: Page, list: Locator, value: string): Promise<void> {
  const options = await list.locator('option').count();
  await page.keyboard.press('Home');
  for (let presses = 0; presses < options; presses += 1) {
    if ((await list.inputValue()) === value) return;
    await page.keyboard.press('ArrowDown');
  }
  if ((await list.inputValue()) !== value) {
    throw new Error(`${list.toString()} offers no option ${value}.`);
  }
}

/**
 * Fills "Place an order" with the keyboard only (Tab to each field, type,
 * Enter on "Place order") and returns the order id the page navigates to.
 * The SKU and token lists are walked with the arrow keys until they show the
 * wanted option: type-ahead would be quicker, but it forgets what was typed
 * after about a second, which a loaded CI machine can exceed between keys.
 */
export async function placeOrderWithKeyboard(page: Page, input: OrderInput): Promise<string> {
  await viewHeading(page, 'Place an order').waitFor();
  const sku = page.getByRole('combobox', { name: 'SKU', exact: true });
  // The SKU list comes from /api/inventory: wait until it offers this one.
  await page
    .locator('option')
    .filter({ hasText: input.sku })
    .first()
    .waitFor({ state: 'attached' });

  await tabTo(page, sku);
  await chooseWithArrowKeys(page, sku, input.sku);
  await tabTo(page, page.getByRole('spinbutton', { name: 'Quantity', exact: true }));
  await typeOver(page, String(input.quantity));
  const token = page.getByRole('combobox', { name: 'Payment token', exact: true });
  await tabTo(page, token);
  await chooseWithArrowKeys(page, token, input.paymentToken);
  await tabTo(page, page.getByRole('textbox', { name: 'Customer email', exact: true }));
  await typeOver(page, input.customerEmail ?? 'ada@example.com');

  const chosen = { sku: await sku.inputValue(), token: await token.inputValue() };
  if (chosen.sku !== input.sku || chosen.token !== input.paymentToken) {
    throw new Error(
      `The keyboard chose ${JSON.stringify(chosen)} instead of ${JSON.stringify(input)}.`,
    );
  }
  await tabTo(page, page.getByRole('button', { name: 'Place order', exact: true }));
  await page.keyboard.press('Enter');

  await page.waitForURL((url) => url.hash.startsWith('#/orders/'), {
    timeout: LIVE_TIMEOUT_MS,
  });
  const orderId = decodeURIComponent(new URL(page.url()).hash.slice('#/orders/'.length));
  await viewHeading(page, `Order ${shortId(orderId)}`).waitFor();
  return orderId;
}

/** Waits until the order view announces "Status: <status>". */
export async function waitForOrderStatus(
  page: Page,
  status: string,
  timeoutMs = LIVE_TIMEOUT_MS,
): Promise<void> {
  await viewStatus(page)
    .filter({ hasText: `Status: ${status}` })
    .waitFor({ timeout: timeoutMs });
}

/**
 * From the Scenarios view: presses "Run <name>", follows the page to the run,
 * and returns the verdict the run's status announces ("PASS <name>" or
 * "FAIL <name>: <first failure>").
 */
export async function runScenarioFromPage(
  page: Page,
  name: string,
  timeoutMs = 240_000,
): Promise<string> {
  await viewHeading(page, 'Scenarios').waitFor();
  const run = page.getByRole('button', { name: `Run ${name}`, exact: true });
  // Buttons stay disabled while another run is in progress; click waits.
  await run.click({ timeout: LIVE_TIMEOUT_MS });
  await page.waitForURL((url) => url.hash.startsWith('#/scenarios/runs/'), {
    timeout: LIVE_TIMEOUT_MS,
  });
  await viewHeading(page, name).waitFor();
  const verdict = viewStatus(page).filter({
    hasText: new RegExp(`(PASS|FAIL) ${escapeRegExp(name)}(?![\\w-])`),
  });
  await verdict.waitFor({ timeout: timeoutMs });
  return (await verdict.innerText()).trim();
}

/**
 * From the System view: presses "Replay parked messages of <consumer>" and
 * returns what the status announces ("Replayed <n> message(s) of <consumer>").
 */
export async function replayParked(page: Page, consumer: string): Promise<string> {
  await viewHeading(page, 'Parked messages').waitFor();
  await page
    .getByRole('button', { name: `Replay parked messages of ${consumer}`, exact: true })
    .click();
  const announced = viewStatus(page).filter({
    hasText: new RegExp(`Replayed \\d+ message\\(s\\) of ${escapeRegExp(consumer)}`),
  });
  await announced.waitFor({ timeout: LIVE_TIMEOUT_MS });
  return (await announced.innerText()).trim();
}

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

const AxeViolations = z.array(
  z.object({ id: z.string(), impact: z.string().nullable(), nodes: z.number().int() }),
);
export type AxeViolation = z.infer<typeof AxeViolations>[number];

/**
 * The serious and critical violations axe-core finds on the current view.
 * axe is evaluated rather than added as a script tag: the console's
 * Content-Security-Policy refuses inline scripts, as it should.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(`${AXE_SOURCE}\n;undefined`);
  const found = AxeViolations.parse(
    await page.evaluate(`axe.run(document).then((result) => result.violations.map((v) => ({
      id: v.id, impact: v.impact ?? null, nodes: v.nodes.length,
    })))`),
  );
  return found.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
}
