import { describe, expect, it } from 'vitest';
import { announce, wakesFor } from './append-announcement.js';

describe('append announcements', () => {
  const payment = announce([{ streamName: 'payment-7', types: ['PaymentAuthorized'] }]);

  it('given an append of types a group does not filter for, it does not wake that group', () => {
    expect(wakesFor({ kind: 'event_type', types: ['OrderPlaced'] }, payment)).toBe(false);
    expect(wakesFor({ kind: 'stream_prefix', prefixes: ['order-'] }, payment)).toBe(false);
  });

  it('given an append its filter matches, it wakes the group', () => {
    expect(wakesFor({ kind: 'event_type', types: ['PaymentAuthorized'] }, payment)).toBe(true);
    expect(wakesFor({ kind: 'stream_prefix', prefixes: ['payment-'] }, payment)).toBe(true);
    expect(wakesFor({ kind: 'all' }, payment)).toBe(true);
  });

  it('given an empty or unreadable payload, it wakes everyone rather than miss an event', () => {
    const filter = { kind: 'event_type', types: ['OrderPlaced'] } as const;
    expect(wakesFor(filter, '')).toBe(true);
    expect(wakesFor(filter, 'not json')).toBe(true);
    expect(wakesFor(filter, '{"streams":1}')).toBe(true);
  });

  it('given more names than a NOTIFY can carry, it announces "everything"', () => {
    const many = Array.from({ length: 500 }, (_, index) => ({
      streamName: `order-${'x'.repeat(20)}-${String(index)}`,
      types: ['OrderPlaced'],
    }));
    expect(announce(many)).toBe('');
  });

  it('names each stream and type once', () => {
    const payload = announce([
      { streamName: 'order-1', types: ['OrderPlaced', 'OrderPlaced'] },
      { streamName: 'order-1', types: ['OrderConfirmed'] },
    ]);
    expect(JSON.parse(payload)).toEqual({
      streams: ['order-1'],
      types: ['OrderPlaced', 'OrderConfirmed'],
    });
  });
});
