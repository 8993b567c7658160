import { ConsumerFailure } from '@effectively-once/idempotency';
import { describe, expect, it } from 'vitest';
import { parseDeliveredEvent } from './parse-delivered-event.js';

const orderId = 'b1f4c1de-0c1e-4d9b-9a43-0f8e7c2e7a10';

function failureOf(run: () => unknown): ConsumerFailure {
  try {
    run();
  } catch (error) {
    if (error instanceof ConsumerFailure) return error;
    throw error;
  }
  throw new Error('expected a ConsumerFailure');
}

describe('parseDeliveredEvent', () => {
  it('returns the typed event of a delivery that meets its contract', () => {
    const event = parseDeliveredEvent({
      type: 'OrderCancellationRequested',
      data: { orderId, reason: 'customer_request', requestedAt: '2026-11-30T10:00:00.000Z' },
      metadata: { schemaVersion: 1 },
    });

    expect(event).toEqual({
      type: 'OrderCancellationRequested',
      data: { orderId, reason: 'customer_request', requestedAt: '2026-11-30T10:00:00.000Z' },
    });
  });

  it('makes an unknown type a terminal failure that names the type', () => {
    const failure = failureOf(() =>
      parseDeliveredEvent({ type: 'OrderTeleported', data: {}, metadata: { schemaVersion: 1 } }),
    );

    expect(failure.kind).toBe('terminal');
    expect(failure.reason).toMatch(/^contract violation UNKNOWN_EVENT_TYPE: .*OrderTeleported/);
  });

  it('makes an invalid payload a terminal failure that names the field, not its value', () => {
    const failure = failureOf(() =>
      parseDeliveredEvent({
        type: 'OrderCancellationRequested',
        data: { orderId: 'secret-value', reason: 'customer_request', requestedAt: 'now' },
        metadata: { schemaVersion: 1 },
      }),
    );

    expect(failure.kind).toBe('terminal');
    expect(failure.reason).toMatch(/^contract violation INVALID_PAYLOAD: .*orderId/);
    expect(failure.reason).not.toContain('secret-value');
  });

  it('makes an unknown schema version a terminal failure', () => {
    const failure = failureOf(() =>
      parseDeliveredEvent({
        type: 'OrderCancellationRequested',
        data: { orderId, reason: 'customer_request', requestedAt: '2026-11-30T10:00:00.000Z' },
        metadata: { schemaVersion: 2 },
      }),
    );

    expect(failure.kind).toBe('terminal');
    expect(failure.reason).toMatch(/UNSUPPORTED_SCHEMA_VERSION/);
  });
});
