// An order's lineage and the stuck orders on a stack of their own, with an
// admin token (the stuck list is an operator route) and the lab (a payment
// that fails on every delivery, so that it is parked): through the public
// API, from `pnpm lineage` in a terminal, and in the console's views.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  CONSUMERS,
  OrderLineage,
  StuckOrderList,
  type StuckOrder,
} from '@effectively-once/contracts';
import { labClient, type LabClient } from '@effectively-once/scenario-runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, uniqueSku, type ApiClient } from '../../support/api-client.js';
import { openBrowser, pageForTest, type BrowserSession } from '../support/browser.js';
import {
  axeViolations,
  openView,
  rowsWith,
  shortId,
  table,
  viewHeading,
  viewStatus,
} from '../support/console-page.js';
import { startStack, type RunningStack } from '../../support/start-stack.js';

/** Every event of a confirmed order, in the order the saga writes them. */
const HAPPY_PATH = [
  'OrderPlaced',
  'InventoryReserved',
  'OrderPaymentRequested',
  'PaymentAuthorized',
  'OrderConfirmed',
];
/** Written after the confirmation, in whichever order their services get there (sorted here). */
const AFTER_CONFIRMATION = ['CustomerNotified', 'PaymentCaptured'];
/** The lab parks a delivery after 5 retries with backoff; a generous bound on that. */
const PARKED_WITHIN_MS = 90_000;

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FILE = 'lineage';

let running: RunningStack;
let token: string;
let api: ApiClient;
let lab: LabClient;
let session: BrowserSession;
/** The confirmed order and the one whose payment request is parked, for the console's views. */
const orders = { confirmed: '', parked: '' };

beforeAll(async () => {
  token = randomBytes(16).toString('hex');
  running = await startStack({
    env: { STACK_FAULTS: 'true', STACK_CONSOLE: 'true', FAULTS_TOKEN: token, ADMIN_TOKEN: token },
  });
  api = apiClient(running.gatewayUrl);
  lab = labClient({
    gatewayUrl: running.gatewayUrl,
    ports: running.ports,
    databases: running.databases,
    faults: { enabled: true, token },
    adminToken: token,
  });
  session = await openBrowser();
});

afterAll(async () => {
  await session.close();
  await running.stop();
});

async function lineageOf(orderId: string): Promise<OrderLineage> {
  const response = await fetch(`${running.gatewayUrl}/api/orders/${orderId}/lineage`);
  if (!response.ok) throw new Error(`lineage answered ${String(response.status)}`);
  return OrderLineage.parse(await response.json());
}

async function stuckOrder(orderId: string): Promise<StuckOrder | undefined> {
  const response = await fetch(`${running.gatewayUrl}/api/admin/stuck`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!response.ok) throw new Error(`stuck answered ${String(response.status)}`);
  return StuckOrderList.parse(await response.json()).orders.find(
    (order) => order.orderId === orderId,
  );
}

/** `pnpm lineage …` in a terminal pointed at this stack; its output and exit code. */
async function pnpmLineage(...args: string[]): Promise<{ stdout: string; code: number }> {
  try {
    const { stdout } = await promisify(execFile)('pnpm', ['--silent', 'lineage', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, STACK_STATE_FILE: running.stateFile },
    });
    return { stdout, code: 0 };
  } catch (error) {
    const failed = error as { stdout?: string; code?: number };
    return { stdout: failed.stdout ?? '', code: failed.code ?? -1 };
  }
}

async function confirmedOrder(): Promise<string> {
  const sku = uniqueSku('lineage');
  await api.restock(sku, 3);
  const { body } = await api.placeOrder({
    items: [{ sku, quantity: 1 }],
    paymentToken: 'tok_approve',
  });
  await api.waitForStatus(body.orderId);
  return body.orderId;
}

describe('the lineage of an order', () => {
  let orderId: string;
  beforeAll(async () => {
    orderId = await confirmedOrder();
    orders.confirmed = orderId;
  });

  it('lists every event of the happy path in causal order, each consumer applied with its outcome, and nothing outstanding', async () => {
    // When the lineage is read once every consumer has settled every message
    const lineage = await api.waitFor(
      () => lineageOf(orderId),
      (read) =>
        read.now.waitingOn.length === 0 &&
        AFTER_CONFIRMATION.every((type) => read.messages.some((m) => m.type === type)),
      'a lineage with nothing outstanding',
    );

    // Then the saga's events come in the order it wrote them, each after its cause
    const types = lineage.messages.map((message) => message.type);
    expect(types.slice(0, HAPPY_PATH.length)).toEqual(HAPPY_PATH);
    expect(types.slice(HAPPY_PATH.length).sort()).toEqual(AFTER_CONFIRMATION);
    for (const message of lineage.messages) {
      expect(message.correlationId).toBe(orderId);
      if (message.causedBy !== null) expect(message.causedBy).toBeLessThan(message.seq);
    }
    expect(lineage.messages.find((m) => m.type === 'InventoryReserved')?.causedBy).toBe(1);

    // And every consumer that receives a message applied it, under a marker, with its outcome reported
    const deliveries = lineage.messages.flatMap((message) =>
      message.deliveries.map((delivery) => ({ type: message.type, ...delivery })),
    );
    expect(deliveries.map((d) => `${d.type} → ${d.consumer}`).sort()).toEqual(
      [
        `OrderPlaced → ${CONSUMERS.inventoryReservation}`,
        `OrderPlaced → ${CONSUMERS.inventoryDemand}`,
        `InventoryReserved → ${CONSUMERS.orderSaga}`,
        `OrderPaymentRequested → ${CONSUMERS.paymentAuthorization}`,
        `PaymentAuthorized → ${CONSUMERS.orderSaga}`,
        `OrderConfirmed → ${CONSUMERS.inventoryReservation}`,
        `OrderConfirmed → ${CONSUMERS.paymentAuthorization}`,
        `OrderConfirmed → ${CONSUMERS.notificationEmail}`,
      ].sort(),
    );
    for (const delivery of deliveries) {
      expect(delivery.state, `${delivery.type} → ${delivery.consumer}`).toBe('applied');
      expect(delivery.marker).not.toBeNull();
      expect(delivery.attempts.at(-1)).toMatchObject({ outcome: 'applied', settlement: 'ack' });
    }

    // And the services' own rows are there: the three timers, the outbox rows, all sent
    expect(lineage.timers.map((timer) => timer.name).sort()).toEqual([
      'complete',
      'inventory',
      'payment',
    ]);
    expect(lineage.outbox.map((row) => row.eventType).sort()).toEqual(
      ['CustomerNotified', 'InventoryReserved', 'PaymentAuthorized', 'PaymentCaptured'].sort(),
    );
    expect(lineage.sources.services.every((source) => source.ok)).toBe(true);
    expect(lineage.now).toMatchObject({
      status: 'confirmed',
      summary: 'confirmed; nothing outstanding',
    });
  });

  it('prints the same in a terminal with pnpm lineage: where it is, the sequence and the table', async () => {
    const { stdout, code } = await pnpmLineage(orderId);
    expect(code).toBe(0);
    expect(stdout).toContain(`Order ${orderId}: confirmed; nothing outstanding`);
    expect(stdout).toMatch(/^ +order +inventory +payment +notification$/m);
    expect(stdout).toMatch(
      /^ {2}1 .*●─+▶.* OrderPlaced → inventory-demand-v1 applied, inventory-reservation-v1 applied$/m,
    );
    expect(stdout).toMatch(/^4 +PaymentAuthorized +payment-\w{8}@\d +#3 /m);
    expect((await pnpmLineage('0b7c6f64-3b7e-4c39-9d7e-1f0a2f6f3a10')).code).toBe(1);
  });
});

describe('the stuck orders', () => {
  it(
    'list an order whose payment request is parked, naming the message and the consumer that holds it',
    { timeout: 180_000 },
    async () => {
      // Given every delivery of a payment request fails, until the store parks it
      await lab.arm('payment', {
        point: 'before-claim',
        action: 'fail',
        match: { consumer: CONSUMERS.paymentAuthorization, eventType: 'OrderPaymentRequested' },
        times: 1000,
        reason: 'e2e: the payment request fails on every delivery',
      });
      try {
        const sku = uniqueSku('stuck');
        await api.restock(sku, 3);
        const { body } = await api.placeOrder({
          items: [{ sku, quantity: 1 }],
          paymentToken: 'tok_approve',
        });
        orders.parked = body.orderId;

        // When the operator lists the stuck orders
        const stuck = await api.waitFor(
          () => stuckOrder(body.orderId),
          (order) => order?.reasons.some((reason) => reason.kind === 'parked') === true,
          'the order listed as stuck with its payment request parked',
          PARKED_WITHIN_MS,
        );

        // Then the order is there, held by the payment consumer's parked request
        expect(stuck?.reasons).toContainEqual(
          expect.objectContaining({
            kind: 'parked',
            consumer: CONSUMERS.paymentAuthorization,
            service: 'payment',
            eventType: 'OrderPaymentRequested',
          }),
        );
        // And its lineage says the same, with the deliveries that were handed back before
        const lineage = await lineageOf(body.orderId);
        const request = lineage.messages.find((m) => m.type === 'OrderPaymentRequested');
        expect(request?.deliveries[0]).toMatchObject({
          state: 'parked',
          consumer: CONSUMERS.paymentAuthorization,
        });
        expect(request?.deliveries[0]?.retryCount).toBeGreaterThan(0);
        expect(lineage.now.waitingOn[0]).toMatchObject({
          kind: 'parked',
          eventType: 'OrderPaymentRequested',
        });
        // And pnpm lineage --stuck names it in a terminal
        const { stdout } = await pnpmLineage('--stuck');
        expect(stdout).toMatch(
          new RegExp(
            `^${body.orderId} .*OrderPaymentRequested parked by ${CONSUMERS.paymentAuthorization} \\(payment\\)`,
            'm',
          ),
        );
      } finally {
        await lab.reset();
      }
    },
  );

  it('refuse a caller without the admin token', async () => {
    const response = await fetch(`${running.gatewayUrl}/api/admin/stuck`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'ADMIN_TOKEN_REQUIRED' });
  });
});

describe('the console', () => {
  it('opens an order’s lineage from its order view: the sequence diagram with the table beside it', async (context) => {
    const { page, finish } = await pageForTest(session, context, FILE);
    const orderId = orders.confirmed;
    await openView(page, running.gatewayUrl, `#/orders/${orderId}`, `Order ${shortId(orderId)}`);

    // When the user follows the order's lineage link
    await page.getByRole('link', { name: `Lineage of ${shortId(orderId)}`, exact: true }).click();

    // Then the view says where the order is, draws its sequence and tables every delivery
    await viewHeading(page, `Lineage of ${shortId(orderId)}`).waitFor();
    await viewStatus(page).filter({ hasText: 'Now: confirmed; nothing outstanding' }).waitFor();
    await page.getByRole('img', { name: `Sequence of order ${shortId(orderId)}` }).waitFor();
    const deliveries = table(page, 'Messages and deliveries');
    for (const consumer of [
      CONSUMERS.inventoryReservation,
      CONSUMERS.paymentAuthorization,
      CONSUMERS.orderSaga,
      CONSUMERS.notificationEmail,
    ]) {
      await rowsWith(deliveries, consumer, 'applied').first().waitFor();
    }
    await rowsWith(deliveries, 'OrderConfirmed').first().waitFor();
    await rowsWith(table(page, 'Timers'), 'complete').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await finish({ docsName: 'order-lineage' });
  });

  it('lists the stuck order in the Stuck view, with the message and the consumer that hold it', async (context) => {
    const { page, finish } = await pageForTest(session, context, FILE);
    await openView(page, running.gatewayUrl, '#/stuck', 'Stuck orders');
    const row = rowsWith(
      table(page, 'Stuck orders'),
      `Lineage of ${shortId(orders.parked)}`,
      `OrderPaymentRequested parked by ${CONSUMERS.paymentAuthorization} (payment)`,
    );
    await row.waitFor();
    await finish({ docsName: 'stuck-orders' });
  });
});
