// What the lab's own tests share: a lab opened on a test database with its
// routes on an in-process Fastify app, delivery facts with fresh ids, and a
// wait for a named state instead of a sleep.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createHttpServer,
  type DeliveryFacts,
  type FastifyZodInstance,
} from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import { openFaultInjection, type FaultInjection } from '../open-fault-injection.js';

export const LAB_TOKEN = 'a-lab-token-of-sixteen-or-more';
export const BEARER = { authorization: `Bearer ${LAB_TOKEN}` };

export interface TestLab {
  lab: FaultInjection;
  app: FastifyZodInstance;
  close(): Promise<void>;
}

/** Opens the lab in lab mode on `db`, with its routes on an app that `inject` can call. */
export async function openTestLab<Database>(
  db: Kysely<Database>,
  service = 'lab-test',
): Promise<TestLab> {
  const app = createHttpServer({ service, logger: false });
  const lab = await openFaultInjection({
    service,
    config: { enabled: true, token: LAB_TOKEN },
    db,
    log: app.log,
  });
  if (lab === undefined) throw new Error('The lab did not open in lab mode.');
  lab.registerRoutes(app);
  return {
    lab,
    app,
    close: async () => {
      await lab.close();
      await app.close();
    },
  };
}

/** A delivery of a fresh message of a fresh order to `consumer`. */
export function deliveryOf(
  consumer: string,
  overrides: Partial<DeliveryFacts> = {},
): DeliveryFacts {
  return {
    consumer,
    messageId: randomUUID(),
    eventType: 'OrderPlaced',
    streamName: `order-${randomUUID()}`,
    revision: '0',
    retryCount: 0,
    orderId: randomUUID(),
    ...overrides,
  };
}

/** Polls `check` until it holds; fails naming `what` after `timeoutMs`. */
export async function waitUntil(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`Timed out after ${String(timeoutMs)} ms waiting for ${what}.`);
    }
    await sleep(10);
  }
}
