import { DeliveryOutcomeReport } from '@effectively-once/stack-protocol';
import { describe, expect, it } from 'vitest';
import { outcomeReport } from './delivery-report.js';

const ORDER_ID = '6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e2f';
/** The fields of a settlement's log line, as reportSettlement builds them. */
const LINE = {
  messageId: '0b7e4c1a-5d2f-4e3a-8b9c-1d2e3f4a5b6c',
  consumer: 'inventory-reservation-v1',
  eventType: 'OrderPlaced',
  streamName: `order-${ORDER_ID}`,
  orderId: ORDER_ID,
  traceId: ORDER_ID,
  retryCount: 1,
  outcome: 'applied' as const,
  durationMs: 12,
  reason: undefined,
};

describe('outcomeReport', () => {
  it('given an acknowledged delivery, then the message the supervisor passes to the console', () => {
    // When the settlement is reported
    const report = outcomeReport(LINE, 'ack', new Date('2026-11-30T09:53:22.990Z'));

    // Then it carries the log line's fields, this process's pid and the settlement
    expect(report).toEqual({
      type: 'delivery-outcome',
      pid: process.pid,
      at: '2026-11-30T09:53:22.990Z',
      messageId: LINE.messageId,
      consumer: LINE.consumer,
      eventType: 'OrderPlaced',
      streamName: `order-${ORDER_ID}`,
      orderId: ORDER_ID,
      traceId: ORDER_ID,
      retryCount: 1,
      outcome: 'applied',
      settlement: 'ack',
      durationMs: 12,
      reason: null,
    });
    expect(DeliveryOutcomeReport.safeParse(report).success).toBe(true);
  });

  it('given a delivery handed back after its work was applied, then the settlement says retry and the reason stays', () => {
    const reason = 'handed back by the delivery hooks after the commit, before the ack';
    expect(outcomeReport({ ...LINE, reason }, 'retry', new Date())).toMatchObject({
      outcome: 'applied',
      settlement: 'retry',
      reason,
    });
  });

  it('given a delivery without a trace id, then null, as the contract has it', () => {
    const withoutTrace = { ...LINE, orderId: null, traceId: undefined };
    expect(outcomeReport(withoutTrace, 'park', new Date())).toMatchObject({
      orderId: null,
      traceId: null,
    });
  });
});
