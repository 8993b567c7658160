import { DeliveryOutcomeMessage } from '@effectively-once/contracts';
import { describe, expect, it } from 'vitest';
import { parseDeliveryOutcome } from './delivery-outcome-lines.js';

// Written by service-kit's reportSettlement through a Fastify (pino) logger
// with the services' base fields, copied here verbatim.
const ORDER_ID = '6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e2f';
const LINES = {
  acknowledged:
    '{"level":30,"time":1796032402990,"service":"inventory","pid":48213,"messageId":"0b7e4c1a-5d2f-4e3a-8b9c-1d2e3f4a5b6c","consumer":"inventory-reservation-v1","eventType":"OrderPlaced","streamName":"order-6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e2f","orderId":"6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e2f","traceId":"6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e2f","retryCount":0,"outcome":"applied","durationMs":12,"msg":"delivery acknowledged"}',
  retried:
    '{"level":40,"time":1796032402991,"service":"inventory","pid":48213,"messageId":"0b7e4c1a-5d2f-4e3a-8b9c-1d2e3f4a5b6c","consumer":"inventory-reservation-v1","eventType":"OrderPlaced","streamName":"order-6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e2f","orderId":"6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e2f","traceId":"4bf92f3577b34da6a3ce929d0e0e4736","retryCount":1,"outcome":"retryable_failure","durationMs":12,"reason":"the database is restarting","msg":"delivery handed back for retry"}',
  handedBackAfterApplying:
    '{"level":40,"time":1796032402991,"service":"inventory","pid":48213,"messageId":"0b7e4c1a-5d2f-4e3a-8b9c-1d2e3f4a5b6c","consumer":"inventory-reservation-v1","eventType":"OrderPlaced","streamName":"order-6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e2f","orderId":"6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e2f","traceId":"6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e2f","retryCount":0,"outcome":"applied","durationMs":12,"reason":"handed back by the failure lab at after-commit-before-ack","msg":"delivery handed back for retry"}',
  parked:
    '{"level":50,"time":1796032402991,"service":"inventory","pid":48213,"messageId":"0b7e4c1a-5d2f-4e3a-8b9c-1d2e3f4a5b6c","consumer":"inventory-reservation-v1","eventType":"OrderPlaced","streamName":"order-6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e2f","orderId":"6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e2f","traceId":"6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e2f","retryCount":5,"outcome":"terminal_failure","durationMs":12,"reason":"INVALID_PAYLOAD: orderId must be a uuid","msg":"delivery parked"}',
  parkedWithoutCorrelation:
    '{"level":50,"time":1796032402991,"service":"inventory","pid":48213,"messageId":"a1b2c3d4-0000-4000-8000-000000000001","consumer":"inventory-reservation-v1","eventType":"OrderTeleported","streamName":"order-x","orderId":null,"retryCount":0,"outcome":"terminal_failure","durationMs":12,"reason":"UNKNOWN_EVENT_TYPE: OrderTeleported","msg":"delivery parked"}',
} as const;

describe('parseDeliveryOutcome', () => {
  it('given an acknowledged delivery, then a message with the process name, pid and time of the line', () => {
    // When the line of an inventory-2 process is read
    const message = parseDeliveryOutcome('inventory-2', LINES.acknowledged);

    // Then it names the process that settled it, not the app it runs
    expect(message).toEqual({
      type: 'delivery-outcome',
      service: 'inventory-2',
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
    });
    expect(DeliveryOutcomeMessage.safeParse(message).success).toBe(true);
  });

  it('given a delivery handed back for retry, then its outcome, retry count, trace id and reason', () => {
    expect(parseDeliveryOutcome('inventory', LINES.retried)).toMatchObject({
      service: 'inventory',
      outcome: 'retryable_failure',
      settlement: 'retry',
      retryCount: 1,
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      orderId: ORDER_ID,
      reason: 'the database is restarting',
    });
  });

  it('given a delivery the failure lab handed back after its work was applied, then an applied outcome settled by a retry', () => {
    // Given the line of the redeliver fault: processing concluded "applied", the delivery was handed back
    const line = LINES.handedBackAfterApplying;

    // When it is read
    const message = parseDeliveryOutcome('inventory', line);

    // Then the message keeps both: what processing concluded and what happened to the delivery
    expect(message).toMatchObject({
      outcome: 'applied',
      settlement: 'retry',
      reason: 'handed back by the failure lab at after-commit-before-ack',
    });
  });

  it('given a parked delivery, then a terminal failure with its reason', () => {
    expect(parseDeliveryOutcome('inventory', LINES.parked)).toMatchObject({
      outcome: 'terminal_failure',
      settlement: 'park',
      retryCount: 5,
      reason: 'INVALID_PAYLOAD: orderId must be a uuid',
    });
  });

  it('given a parked message without a correlation id, then no order id and no trace id', () => {
    expect(parseDeliveryOutcome('order', LINES.parkedWithoutCorrelation)).toMatchObject({
      orderId: null,
      traceId: null,
      eventType: 'OrderTeleported',
    });
  });

  it.each([
    ['another message', '{"level":30,"time":1796032402990,"pid":1,"msg":"consumer subscribed"}'],
    [
      'the failed settlement, which is no settlement',
      LINES.parked.replace('"msg":"delivery parked"', '"msg":"could not settle the delivery"'),
    ],
    ['a line that is not JSON', 'delivery acknowledged "msg":"delivery acknowledged"'],
    ['a truncated line', LINES.acknowledged.slice(0, -10)],
    [
      'an outcome the contract does not know',
      LINES.acknowledged.replace('"outcome":"applied"', '"outcome":"lost"'),
    ],
    ['a settlement line without a message id', LINES.acknowledged.replace('"messageId"', '"id"')],
  ])('given %s, then nothing', (_what, line) => {
    expect(parseDeliveryOutcome('order', line)).toBeUndefined();
  });
});
