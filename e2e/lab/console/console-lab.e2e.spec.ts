// The flow console on a lab stack of its own (STACK_FAULTS=true): scenarios
// and a common mistake run from the page end with the verdict the failure lab
// predicts, and a parked message comes back with the page's replay button.
// Nothing else uses this stack, so the lab's faults touch only these tests.
import { randomBytes } from 'node:crypto';
import {
  MISTAKES,
  SCENARIOS,
  findMistake,
  labClient,
  labControlClient,
  type LabStack,
} from '@effectively-once/scenario-runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiClient, uniqueSku } from '../../support/api-client.js';
import { openBrowser, pageForTest, type BrowserSession } from '../support/browser.js';
import {
  openView,
  placeOrderWithKeyboard,
  replayParked,
  rowsWith,
  runScenarioFromPage,
  shortId,
  table,
  viewStatus,
  waitForOrderStatus,
} from '../support/console-page.js';
import { startStack, type RunningStack } from '../../support/start-stack.js';

const FILE = 'console-lab';
const RESERVATION = 'inventory-reservation-v1';
/** The lab parks a delivery after 5 retries with backoff; this is a generous bound on that. */
const PARKED_WITHIN_MS = 90_000;

let running: RunningStack;
let lab: LabStack;
let consoleUrl: string;
let session: BrowserSession;

beforeAll(async () => {
  const token = randomBytes(16).toString('hex');
  running = await startStack({
    env: {
      STACK_FAULTS: 'true',
      STACK_CONSOLE: 'true',
      FAULTS_TOKEN: token,
      ADMIN_TOKEN: token,
    },
  });
  lab = {
    gatewayUrl: running.gatewayUrl,
    ports: running.ports,
    databases: running.databases,
    faults: { enabled: true, token },
    adminToken: token,
  };
  consoleUrl = running.gatewayUrl;
  session = await openBrowser();
});

afterAll(async () => {
  await session.close();
  await running.stop();
});

// The console's parked list, read only to know when to look at the page.
const ParkedList = z.object({
  parked: z.array(z.object({ consumer: z.string(), orderId: z.string().nullable() })),
});

async function parkedOrders(consumer: string): Promise<(string | null)[]> {
  const response = await fetch(`${consoleUrl}/api/console/parked`);
  if (!response.ok) throw new Error(`GET /api/console/parked answered ${String(response.status)}`);
  return ParkedList.parse(await response.json())
    .parked.filter((message) => message.consumer === consumer)
    .map((message) => message.orderId);
}

describe('the flow console on a lab stack', () => {
  it('says lab mode is on and offers a run of every scenario and mistake', async (context) => {
    const { page, finish } = await pageForTest(session, context, FILE);
    await openView(page, consoleUrl, '#/scenarios', 'Scenarios');
    await page.getByText('Lab mode: on').first().waitFor();
    for (const { name } of [...SCENARIOS, ...MISTAKES]) {
      await page.getByRole('button', { name: `Run ${name}`, exact: true }).waitFor();
    }
    await finish();
  });

  // Three failure scenarios: a redelivery, a real SIGKILL between commit and
  // ack, and two processes racing for one message.
  for (const name of ['duplicate-delivery', 'crash-before-ack', 'concurrent-deliveries']) {
    it(`runs ${name} from the page and sees it pass`, { timeout: 300_000 }, async (context) => {
      const { page, finish } = await pageForTest(session, context, FILE);
      await openView(page, consoleUrl, '#/scenarios', 'Scenarios');

      expect(await runScenarioFromPage(page, name)).toBe(`PASS ${name}`);
      const invariants = table(page, 'Invariants');
      await invariants.waitFor();
      expect(await rowsWith(invariants, 'broken').count()).toBe(0);
      await finish({ docsName: `scenario-${name}` });
    });
  }

  it(
    'runs mistake-in-memory-cache from the page: it breaks the invariant it predicts, so it passes',
    { timeout: 300_000 },
    async (context) => {
      const mistake = findMistake('mistake-in-memory-cache');
      if (mistake === undefined)
        throw new Error('No mistake-in-memory-cache in the scenario runner.');
      const { page, finish } = await pageForTest(session, context, FILE);
      await openView(page, consoleUrl, '#/scenarios', 'Scenarios');

      expect(await runScenarioFromPage(page, mistake.name)).toBe(`PASS ${mistake.name}`);
      await page.getByText(`The mistake must break ${mistake.breaks}`).first().waitFor();
      await rowsWith(table(page, 'Invariants'), mistake.breaks, 'broken').first().waitFor();
      await finish({ docsName: mistake.name });
    },
  );

  it(
    'replays a parked message from the System view, and the order goes on to confirmed',
    { timeout: 300_000 },
    async (context) => {
      const { page, finish } = await pageForTest(session, context, FILE);
      const api = apiClient(consoleUrl);
      const faults = labClient(lab);
      const sku = uniqueSku('parked');
      await api.restock(sku, 5);

      // Every reservation attempt of the order fails, on whichever inventory
      // process gets it, until the group parks the delivery.
      await faults.armInventory({
        point: 'before-claim',
        action: 'fail',
        match: { consumer: RESERVATION, eventType: 'OrderPlaced' },
        times: 1000,
        reason: 'browser test: park it',
      });
      let orderId: string;
      try {
        await openView(page, consoleUrl, '#/', 'Place an order');
        orderId = await placeOrderWithKeyboard(page, {
          sku,
          quantity: 1,
          paymentToken: 'tok_approve',
        });
        await api.waitFor(
          () => parkedOrders(RESERVATION),
          (orders) => orders.includes(orderId),
          `the OrderPlaced of ${orderId} parked by ${RESERVATION}`,
          PARKED_WITHIN_MS,
        );
      } finally {
        await faults.disarm('inventory');
        await faults.disarm('inventory-2');
      }

      await openView(page, consoleUrl, '#/system', 'Parked messages');
      await rowsWith(table(page, 'Parked messages'), shortId(orderId), RESERVATION)
        .first()
        .waitFor();
      await page
        .getByRole('button', { name: `Replay parked messages of ${RESERVATION}` })
        .waitFor();
      await session.screenshot(page, `${FILE}--parked-before-replay`, {
        docsName: 'parked-replay',
      });

      expect(await replayParked(page, RESERVATION)).toMatch(
        new RegExp(`^Replayed [1-9]\\d* message\\(s\\) of ${RESERVATION}$`),
      );
      await openView(page, consoleUrl, `#/orders/${orderId}`, `Order ${shortId(orderId)}`);
      await waitForOrderStatus(page, 'confirmed', 60_000);
      expect((await api.order(orderId)).body.status).toBe('confirmed');
      await finish();
    },
  );

  it('applies a network fault to a link from the System view and clears it', async (context) => {
    const { page, finish } = await pageForTest(session, context, FILE);
    const control = labControlClient(lab);
    await openView(page, consoleUrl, '#/system', 'Network links');
    const links = table(page, 'Network links');
    await rowsWith(links, 'payment-postgres').first().waitFor();

    await page.getByLabel('Link', { exact: true }).selectOption('smtp');
    await page.getByLabel('Fault', { exact: true }).selectOption('latency');
    await page.getByLabel('Delay (ms)', { exact: true }).fill('250');
    await page.getByLabel('For (s)', { exact: true }).fill('60');
    await page.getByRole('button', { name: 'Apply fault' }).click();
    await viewStatus(page).getByText('Applied latency to smtp').waitFor();
    await rowsWith(links, 'smtp', 'latency 250 ms until').first().waitFor();
    // What the page says is what the supervisor's proxy has in force.
    expect((await control.link('smtp')).active).toMatchObject([{ kind: 'latency', delayMs: 250 }]);

    await page.getByRole('button', { name: 'Clear smtp' }).click();
    await viewStatus(page).getByText('Cleared smtp').waitFor();
    expect((await control.link('smtp')).active).toEqual([]);
    await finish();
  });
});
