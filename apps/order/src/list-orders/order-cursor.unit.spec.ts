import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './order-cursor.js';

describe('the GET /orders cursor', () => {
  it('decodes to the listing key it was made from', () => {
    const key = { createdAt: new Date('2026-11-30T10:00:00.123Z'), orderId: randomUUID() };

    expect(decodeCursor(encodeCursor(key))).toEqual(key);
  });

  it.each([
    ['not base64url JSON', 'not-a-cursor'],
    ['JSON of another shape', Buffer.from('{"page":2}').toString('base64url')],
    [
      'an order id that is no uuid',
      Buffer.from('{"createdAt":"2026-11-30T10:00:00.000Z","orderId":"x"}').toString('base64url'),
    ],
  ])('refuses %s', (_what, cursor) => {
    expect(decodeCursor(cursor)).toBeUndefined();
  });
});
