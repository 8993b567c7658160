import { describe, expect, it } from 'vitest';
import { assertConsumerName, defineConsumer, InvalidConsumerError } from './consumer.js';
import { DEFAULT_RETRY_POLICY } from './retry-policy.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const EXPECTED = 'such as "inventory-reservation-v1"';

/** A well-formed name of exactly `length` characters, free of per-instance parts. */
function nameOfLength(length: number): string {
  const [prefix, suffix] = ['inventory-', '-v1'];
  return `${prefix}${'x'.repeat(length - prefix.length - suffix.length)}${suffix}`;
}

describe('assertConsumerName', () => {
  it.each([
    'inventory-reservation-v1',
    'payment-authorization-v12',
    'notification-worker-v1',
    'orders-2024-v1',
    nameOfLength(100),
  ])('given the stable logical name %s, it is accepted', (name) => {
    expect(() => {
      assertConsumerName(name);
    }).not.toThrow();
  });

  it.each([
    // [why it is refused, the name, what the refusal says]
    ['an empty name', '', 'ending in "-v<number>"'],
    ['a missing version', 'inventory-reservation', 'ending in "-v<number>"'],
    ['version zero', 'inventory-reservation-v0', 'ending in "-v<number>"'],
    ['upper case', 'Inventory-Reservation-v1', 'lower-case words'],
    ['underscores', 'inventory_reservation_v1', 'joined by "-"'],
    ['a pod name', 'inventory-reservation-pod-3-v1', 'names an instance'],
    ['a host name', 'inventory-host-ip-10-0-0-12-v1', 'names an instance'],
    ['a hex hash', 'inventory-reservation-7d9f8b6c5d-v1', 'contains a hex id'],
    ['a pid', 'inventory-reservation-48213-v1', 'contains a number such as a pid'],
    ['a numbered worker', 'notification-worker-2-v1', 'names an instance'],
    ['101 characters', nameOfLength(101), 'at most 100 characters'],
  ])('given %s ("%s"), it is refused and says what is expected', (_why, name, says) => {
    // When
    const assertion = () => {
      assertConsumerName(name);
    };

    // Then
    expect(assertion).toThrow(InvalidConsumerError);
    expect(assertion).toThrow(says);
    expect(assertion).toThrow(EXPECTED);
  });

  it('given a per-instance name, the refusal explains that every restart would replay history', () => {
    expect(() => {
      assertConsumerName('inventory-reservation-pod-3-v1');
    }).toThrow('every restart would look like a new consumer');
  });
});

describe('defineConsumer', () => {
  it('given only a name, it defaults to read committed, the default retry policy and 30 days of replay', () => {
    // When
    const consumer = defineConsumer({ name: 'inventory-reservation-v1' });

    // Then
    expect(consumer).toEqual({
      name: 'inventory-reservation-v1',
      businessKeys: new Set(),
      replayHorizonMs: 30 * DAY_MS,
      isolation: 'read committed',
      retry: DEFAULT_RETRY_POLICY,
    });
    expect(Object.isFrozen(consumer)).toBe(true);
  });

  it('given business keys, isolation and a partial retry policy, it keeps them and fills the rest', () => {
    // When
    const consumer = defineConsumer({
      name: 'payment-authorization-v12',
      businessKeys: ['payment_attempt_pkey'],
      replayHorizonMs: 90 * DAY_MS,
      isolation: 'serializable',
      retry: { maxAttempts: 8 },
    });

    // Then
    expect(consumer.businessKeys.has('payment_attempt_pkey')).toBe(true);
    expect(consumer.replayHorizonMs).toBe(90 * DAY_MS);
    expect(consumer.isolation).toBe('serializable');
    expect(consumer.retry).toEqual({ ...DEFAULT_RETRY_POLICY, maxAttempts: 8 });
  });

  it('given an invalid name, it fails at definition time, not on the first message', () => {
    // eslint-disable-next-line effectively-once/consumer-name-has-version -- the case under test: defineConsumer must refuse it at run time too.
    expect(() => defineConsumer({ name: 'inventory-reservation' })).toThrow(InvalidConsumerError);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])(
    'given replayHorizonMs %s, it is refused',
    (replayHorizonMs) => {
      expect(() => defineConsumer({ name: 'inventory-reservation-v1', replayHorizonMs })).toThrow(
        'replayHorizonMs must be a positive number of milliseconds',
      );
    },
  );

  it.each([0, -1, 1.5, Number.NaN])('given retry.maxAttempts %s, it is refused', (maxAttempts) => {
    expect(() =>
      defineConsumer({ name: 'inventory-reservation-v1', retry: { maxAttempts } }),
    ).toThrow('retry.maxAttempts must be a whole number of at least 1');
  });

  it('given retry.maxAttempts 1, it is accepted: one attempt and no in-process retry', () => {
    const consumer = defineConsumer({
      name: 'inventory-reservation-v1',
      retry: { maxAttempts: 1 },
    });

    expect(consumer.retry.maxAttempts).toBe(1);
  });
});
