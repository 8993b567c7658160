// The order service's settings: the kit's common ones plus the saga's
// deadlines and how often their timer looks for due ones. The only reader of
// process.env in this app.
import { loadServiceConfig, type ServiceConfig } from '@effectively-once/service-kit';
import { z } from 'zod';
import type { DeadlineDurations } from './domain/order-deadlines.js';

export const ORDER_SERVICE = 'order';
export const DEFAULT_ORDER_PORT = 3001;

const milliseconds = (fallback: number) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 3_600_000)
    .default(fallback);

const orderEnv = {
  /** From placement until the stock must be reserved. */
  ORDER_INVENTORY_DEADLINE_MS: milliseconds(30_000),
  /** From placement until the card must be authorized. */
  ORDER_PAYMENT_DEADLINE_MS: milliseconds(120_000),
  /** From placement until the order must be confirmed or on its way to cancelled. */
  ORDER_COMPLETE_DEADLINE_MS: milliseconds(300_000),
  /** How often the deadline timer looks for due timers. */
  ORDER_TIMER_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(500),
};

export interface OrderConfig extends ServiceConfig {
  readonly deadlines: DeadlineDurations;
  readonly timerPollMs: number;
}

/**
 * HOST (127.0.0.1), PORT (3001), DATABASE_URL (required), EVENT_STORE_DATABASE_URL
 * (required unless EVENTSTORE_CONNECTION_STRING), LOG_LEVEL (info),
 * ORDER_INVENTORY_DEADLINE_MS (30 000), ORDER_PAYMENT_DEADLINE_MS (120 000),
 * ORDER_COMPLETE_DEADLINE_MS (300 000), ORDER_TIMER_POLL_MS (500). Each deadline
 * is measured from placement, so they must not decrease in that order.
 *
 * @example
 * const config = loadOrderConfig();
 * config.deadlines.paymentMs; // 120_000 unless ORDER_PAYMENT_DEADLINE_MS is set
 */
export function loadOrderConfig(env: NodeJS.ProcessEnv = process.env): OrderConfig {
  const {
    ORDER_INVENTORY_DEADLINE_MS: inventoryMs,
    ORDER_PAYMENT_DEADLINE_MS: paymentMs,
    ORDER_COMPLETE_DEADLINE_MS: completeMs,
    ORDER_TIMER_POLL_MS: timerPollMs,
    ...config
  } = loadServiceConfig({
    service: ORDER_SERVICE,
    defaultPort: DEFAULT_ORDER_PORT,
    extra: orderEnv,
    env,
  });
  if (inventoryMs > paymentMs || paymentMs > completeMs) {
    throw new Error(
      `Invalid configuration of ${ORDER_SERVICE}: the deadlines are measured from placement, so ORDER_INVENTORY_DEADLINE_MS (${String(inventoryMs)}) <= ORDER_PAYMENT_DEADLINE_MS (${String(paymentMs)}) <= ORDER_COMPLETE_DEADLINE_MS (${String(completeMs)}) must hold.`,
    );
  }
  return { ...config, deadlines: { inventoryMs, paymentMs, completeMs }, timerPollMs };
}
