// The flow console on the shared stack (lab mode off), in headless Chromium:
// an order placed from the keyboard is followed live to "confirmed", every view
// stays on its own origin, throws nothing and passes axe-core. Each test ends
// with a screenshot in e2e/.artifacts/console/.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, uniqueSku, type ApiClient } from '../support/api-client.js';
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
let confirmedOrderId: string | undefined;

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
      await rowsWith(timeline, consumer, 'applied').first().waitFor();
    }
    confirmedOrderId = orderId;
    await finish({ docsName: 'order-confirmed' });
  });

  it('lists the order, shows the system tables and says lab mode is off, with no request off the origin and no page error', async (context) => {
    const { page, finish } = await pageForTest(session, context, FILE);
    const tracked = trackPage(page, new URL(consoleUrl).origin);

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
    if (confirmedOrderId !== undefined) {
      await table(page, 'Recent orders')
        .getByRole('link', { name: `Order ${shortId(confirmedOrderId)}` })
        .waitFor();
    }

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
