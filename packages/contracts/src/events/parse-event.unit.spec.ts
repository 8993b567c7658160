import { describe, expect, it } from 'vitest';
import {
  ContractViolationError,
  isKnownEventType,
  parseEvent,
  serializeEvent,
} from './parse-event.js';

const orderId = '6f1c2f4e-3b7a-4c55-9d0e-2a9f0c1b7e11';
const placed = {
  orderId,
  customerEmail: 'ada@example.com',
  items: [{ sku: 'SKU-MUG', quantity: 2 }],
  paymentToken: 'tok_approve',
  amountCents: 2_000,
  placedAt: '2026-11-30T10:00:00.000Z',
};

function violationOf(run: () => unknown): ContractViolationError {
  try {
    run();
  } catch (error) {
    if (error instanceof ContractViolationError) return error;
    throw error;
  }
  throw new Error('expected a contract violation');
}

describe('parseEvent', () => {
  it('given a valid OrderPlaced, when parsed, then it is typed by its type name', () => {
    const event = parseEvent({ type: 'OrderPlaced', data: placed });
    expect(event.type).toBe('OrderPlaced');
    if (event.type === 'OrderPlaced') expect(event.data.items[0]?.sku).toBe('SKU-MUG');
  });

  it('given an OrderPlaced stored before the saga had deadlines, when parsed, then its deadlines are null', () => {
    const event = parseEvent({ type: 'OrderPlaced', data: placed });
    expect(event.data).toMatchObject({ deadlines: null });
  });

  it('given an OrderPlaced with deadlines, when parsed, then it keeps them', () => {
    const deadlines = {
      inventoryBy: '2026-11-30T10:00:30.000Z',
      paymentBy: '2026-11-30T10:02:00.000Z',
      completeBy: '2026-11-30T10:05:00.000Z',
    };
    const event = parseEvent({ type: 'OrderPlaced', data: { ...placed, deadlines } });
    expect(event.data).toMatchObject({ deadlines });
  });

  it('given an unknown type, when parsed, then it is an UNKNOWN_EVENT_TYPE violation', () => {
    const violation = violationOf(() => parseEvent({ type: 'OrderTeleported', data: {} }));
    expect(violation.code).toBe('UNKNOWN_EVENT_TYPE');
    expect(violation.message).toContain('OrderTeleported');
  });

  it('given a newer schema version, when parsed, then it is refused rather than misread', () => {
    const violation = violationOf(() =>
      parseEvent({ type: 'OrderPlaced', data: placed, schemaVersion: 2 }),
    );
    expect(violation.code).toBe('UNSUPPORTED_SCHEMA_VERSION');
  });

  it('given a payload that breaks its schema, when parsed, then the violation names the field, not the payload', () => {
    const violation = violationOf(() =>
      parseEvent({
        type: 'OrderPlaced',
        data: { ...placed, items: [{ sku: 'SKU-MUG', quantity: 0 }] },
      }),
    );
    expect(violation.code).toBe('INVALID_PAYLOAD');
    expect(violation.message).toContain('items.0.quantity');
    expect(violation.message).not.toContain('ada@example.com');
  });

  it('given the same sku twice, when parsed, then the order lines are refused', () => {
    const items = [
      { sku: 'SKU-MUG', quantity: 1 },
      { sku: 'SKU-MUG', quantity: 1 },
    ];
    expect(
      violationOf(() => parseEvent({ type: 'OrderPlaced', data: { ...placed, items } })).code,
    ).toBe('INVALID_PAYLOAD');
  });
});

describe('serializeEvent and isKnownEventType', () => {
  it('given a typed event, when serialized, then it carries its schema version', () => {
    const event = parseEvent({ type: 'OrderPlaced', data: placed });
    expect(serializeEvent(event)).toEqual({
      type: 'OrderPlaced',
      data: { ...placed, deadlines: null },
      schemaVersion: 1,
    });
  });

  it('tells the contracts’ types from foreign ones', () => {
    expect(isKnownEventType('PaymentVoided')).toBe(true);
    expect(isKnownEventType('SomethingElse')).toBe(false);
  });
});
