import {
  DeliveryOutcomeMessage,
  type DeliveryOutcomeReport,
} from '@effectively-once/stack-protocol';
import { describe, expect, it } from 'vitest';
import { outcomeForConsole } from './delivery-outcomes.js';

const ORDER_ID = '6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e2f';
/** What service-kit's reportSettlement sends for an acknowledged delivery. */
const REPORT: DeliveryOutcomeReport = {
  type: 'delivery-outcome',
  pid: 48213,
  at: '2026-11-30T09:53:22.990Z',
  messageId: '0b7e4c1a-5d2f-4e3a-8b9c-1d2e3f4a5b6c',
  consumer: 'inventory-reservation-v1',
  eventType: 'OrderPlaced',
  streamName: `order-${ORDER_ID}`,
  orderId: ORDER_ID,
  traceId: ORDER_ID,
  retryCount: 0,
  outcome: 'applied',
  settlement: 'ack',
  durationMs: 12,
  reason: null,
};

describe('outcomeForConsole', () => {
  it('given a delivery outcome from inventory-2, then the console message names the process, not the app', () => {
    // When inventory-2 reports a settled delivery
    const message = outcomeForConsole('inventory-2', REPORT);

    // Then the console gets it, labelled with the process that settled it
    expect(message).toEqual({ ...REPORT, service: 'inventory-2' });
    expect(DeliveryOutcomeMessage.safeParse(message).success).toBe(true);
  });

  it('given a handed-back delivery whose work was applied, then its settlement is kept as sent', () => {
    const handedBack = {
      ...REPORT,
      settlement: 'retry',
      reason: 'handed back by the delivery hooks',
    };
    expect(outcomeForConsole('inventory', handedBack)).toMatchObject({
      outcome: 'applied',
      settlement: 'retry',
    });
  });

  it('given any other message, or a malformed outcome, then nothing', () => {
    expect(outcomeForConsole('order', { type: 'something-else' })).toBeUndefined();
    expect(outcomeForConsole('order', { ...REPORT, outcome: 'exploded' })).toBeUndefined();
    expect(outcomeForConsole('order', 'delivery acknowledged')).toBeUndefined();
  });
});
