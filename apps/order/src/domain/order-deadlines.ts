// When each step of an order must have happened, counted from its placement.
// The HTTP adapter computes them once, from the configuration and the time of
// the request's key row, and both OrderPlaced and the timer rows carry them.
import type { OrderDeadlineName, OrderDeadlines } from '@effectively-once/contracts';

/** How long after placement each step may take; each measured from placement, so inventory <= payment <= complete. */
export interface DeadlineDurations {
  readonly inventoryMs: number;
  readonly paymentMs: number;
  readonly completeMs: number;
}

/** Every deadline of an order, in the order they come due. */
export const DEADLINE_NAMES: readonly OrderDeadlineName[] = ['inventory', 'payment', 'complete'];

/**
 * The deadlines of an order placed at `placedAt`.
 *
 * @example
 * orderDeadlines(new Date('2026-11-30T10:00:00Z'), { inventoryMs: 30_000, paymentMs: 120_000, completeMs: 300_000 });
 * // { inventoryBy: '2026-11-30T10:00:30.000Z', paymentBy: '2026-11-30T10:02:00.000Z', completeBy: '2026-11-30T10:05:00.000Z' }
 */
export function orderDeadlines(placedAt: Date, durations: DeadlineDurations): OrderDeadlines {
  const after = (ms: number): string => new Date(placedAt.getTime() + ms).toISOString();
  return {
    inventoryBy: after(durations.inventoryMs),
    paymentBy: after(durations.paymentMs),
    completeBy: after(durations.completeMs),
  };
}

/** The time one deadline falls due. */
export function dueAt(deadlines: OrderDeadlines, name: OrderDeadlineName): Date {
  switch (name) {
    case 'inventory':
      return new Date(deadlines.inventoryBy);
    case 'payment':
      return new Date(deadlines.paymentBy);
    case 'complete':
      return new Date(deadlines.completeBy);
    default: {
      const unexpected: never = name;
      throw new Error(`Unknown deadline ${JSON.stringify(unexpected)}`);
    }
  }
}
