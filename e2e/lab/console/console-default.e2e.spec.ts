// The flow console on the shared stack (lab mode off), in headless Chromium:
// an order placed from the keyboard is followed live to "confirmed", every view
// stays on its own origin, throws nothing and passes axe-core. Each test ends
// with a screenshot in e2e/.artifacts/console/.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, uniqueSku, type ApiClient } from '../../support/api-client.js';
import { openBrowser, pageForTest, trackPage, type BrowserSession } from '../support/browser.js';
import {
  axeViolations,
  openView,
  placeOrderWithKeyboard,
  rowsWith,
  shortId,
  table,
  viewHeading,
  viewStatus,
  waitForOrderStatus,
} from '../support/console-page.js';

const FILE = 'console-default';
/** Every consumer that takes part in a confirmed order, each with at least one applied delivery. */
const CONFIRMED_ORDER_CONSUMERS = [
  'inventory-reservation-v1',
  'payment-authorization-v1',
  'order-saga-v1',
  'notification-email-v1',
];

let consoleUrl: string;
let api: ApiClient;
let session: BrowserSession;

beforeAll(async () => {
  consoleUrl = inject('gatewayUrl');
  api = apiClient(consoleUrl);
  session = await openBrowser();
});

afterAll(async () => {
  await session.close();
});

describe('the flow console on a default stack', () => {
  it('places an order from the keyboard and follows it to confirmed, with every consumer applied', async (context) => {
    const { page, finish } = await pageForTest(session, context, FILE);
    const sku = uniqueSku('console');
    await api.restock(sku, 5);

    await openView(page, consoleUrl, '#/', 'Place an order');
    const orderId = await placeOrderWithKeyboard(page, {
      sku,
      quantity: 2,
      paymentToken: 'tok_approve',
      customerEmail: 'grace@example.com',
    });
    await waitForOrderStatus(page, 'confirmed');

    const { body: order } = await api.order(orderId);
    expect(order.status).toBe('confirmed');
    expect(order.items).toEqual([{ sku, quantity: 2 }]);
    expect(order.customerEmail).toBe('grace@example.com');
    await viewStatus(page)
      .filter({ hasText: `Version ${String(order.version)}` })
      .waitFor();
    const timeline = table(page, 'Saga timeline');
    await rowsWith(timeline, 'OrderConfirmed').first().waitFor();
    for (const consumer of CONFIRMED_ORDER_CONSUMERS) {
      // The outcome label exactly: a handed-back delivery reads "retried (applied)".
      await rowsWith(timeline, consumer)
        .filter({ has: page.getByText('applied', { exact: true }) })
        .first()
        .waitFor();
    }
    await finish({ docsName: 'order-confirmed' });
  });

  it('places an order of two items that the card processor declines, and follows the compensation to cancelled', async (context) => {
    const { page, finish } = await pageForTest(session, context, FILE);
    const [mug, teapot] = [uniqueSku('console-mug'), uniqueSku('console-pot')];
    await api.restock(mug, 4);
    await api.restock(teapot, 4);

    // With the pointer this time: the second item comes from "Add an item".
    await openView(page, consoleUrl, '#/', 'Place an order');
    await page.locator('option').filter({ hasText: teapot }).first().waitFor({ state: 'attached' });
    await page.getByRole('combobox', { name: 'SKU', exact: true }).selectOption(mug);
    await page.getByRole('spinbutton', { name: 'Quantity', exact: true }).fill('3');
    await page.getByRole('button', { name: 'Add an item', exact: true }).click();
    await page.getByRole('combobox', { name: 'SKU, item 2', exact: true }).selectOption(teapot);
    await page.getByRole('spinbutton', { name: 'Quantity, item 2', exact: true }).fill('1');
    await page
      .getByRole('combobox', { name: 'Payment token', exact: true })
      .selectOption('tok_decline');
    await page.getByRole('button', { name: 'Place order', exact: true }).click();
    await page.waitForURL((url) => url.hash.startsWith('#/orders/'));
    const orderId = decodeURIComponent(new URL(page.url()).hash.slice('#/orders/'.length));

    await waitForOrderStatus(page, 'cancelled');
    const { body: order } = await api.order(orderId);
    expect(order.items).toEqual([
      { sku: mug, quantity: 3 },
      { sku: teapot, quantity: 1 },
    ]);
    const timeline = table(page, 'Saga timeline');
    for (const event of ['PaymentDeclined', 'InventoryReleased', 'OrderCancelled']) {
      await rowsWith(timeline, event).first().waitFor();
    }
    // The reservation was released: both SKUs are whole again.
    await expect.poll(async () => (await api.stock(mug)).available).toBe(4);
    await expect.poll(async () => (await api.stock(teapot)).available).toBe(4);
    await finish();
  });

  it('lists the order, shows the system tables and says lab mode is off, with no request off the origin and no page error', async (context) => {
    const { page, finish } = await pageForTest(session, context, FILE);
    const tracked = trackPage(page, new URL(consoleUrl).origin);
    // An order of its own, placed through the API: the list shows every order, not only the page's.
    const sku = uniqueSku('console-list');
    await api.restock(sku, 1);
    const { body: placed } = await api.placeOrder({
      items: [{ sku, quantity: 1 }],
      paymentToken: 'tok_approve',
    });
    const listedOrderId = placed.orderId;

    await openView(page, consoleUrl, '#/', 'Place an order');
    await expect.poll(() => page.getByRole('status').count()).toBe(1);
    await page.getByRole('link', { name: 'Skip to content', exact: true }).waitFor();
    await page
      .getByRole('banner')
      .getByRole('heading', { level: 1, name: 'effectively-once flow console' })
      .waitFor();
    const nav = page.getByRole('navigation', { name: 'Console', exact: true });
    for (const link of ['Orders', 'System', 'Scenarios']) {
      await nav.getByRole('link', { name: link, exact: true }).waitFor();
    }
    await page.getByText('Lab mode: off').first().waitFor();
    await table(page, 'Recent orders')
      .getByRole('link', { name: `Order ${shortId(listedOrderId)}` })
      .waitFor();

    await nav.getByRole('link', { name: 'Scenarios', exact: true }).click();
    await viewHeading(page, 'Scenarios').waitFor();
    await page.getByRole('main').getByText('STACK_FAULTS=true pnpm start').first().waitFor();
    expect(await page.getByRole('button', { name: /^Run / }).count()).toBe(0);
    expect(await page.getByRole('status').count()).toBe(1);

    await nav.getByRole('link', { name: 'System', exact: true }).click();
    for (const name of ['Inventory', 'Payment ledger', 'Emails', 'Parked messages']) {
      await viewHeading(page, name).waitFor();
      await table(page, name).waitFor();
    }
    await viewHeading(page, 'Processes').waitFor();
    await table(page, 'Process starts and deaths').waitFor();
    await viewHeading(page, 'Metrics').waitFor();
    await table(page, 'Consumer metrics').waitFor();
    expect(await page.getByRole('status').count()).toBe(1);
    await finish({ docsName: 'system' });

    expect(tracked.offOrigin).toEqual([]);
    expect(tracked.errors).toEqual([]);
  });

  it('has no serious or critical axe-core violation on the Orders and System views', async (context) => {
    const { page, finish } = await pageForTest(session, context, FILE);

    await openView(page, consoleUrl, '#/', 'Place an order');
    await page.getByRole('combobox', { name: 'SKU', exact: true }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await openView(page, consoleUrl, '#/system', 'Inventory');
    await table(page, 'Consumer metrics').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await finish();
  });
});
