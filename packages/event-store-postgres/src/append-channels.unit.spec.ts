import { describe, expect, it } from 'vitest';
import { announceOnChannels } from './append-announcement.js';
import { APPENDED_CHANNEL, channelsToListen, typeChannel } from './append-channels.js';

describe('append channels', () => {
  it('gives an event type a channel of its own, under PostgreSQL’s 63 bytes even for a long name', () => {
    expect(typeChannel('OrderPlaced')).toBe('es_type:OrderPlaced');
    const long = 'Ü'.repeat(40);
    expect(Buffer.byteLength(typeChannel(long))).toBeLessThanOrEqual(63);
    expect(typeChannel(long)).toBe(typeChannel(long));
    expect(typeChannel(long)).not.toBe(typeChannel(`${long}x`));
  });

  it('listens to the types’ channels for a type filter, to the general one otherwise or when told', () => {
    const types = { kind: 'event_type', types: ['OrderPlaced', 'OrderCancelled'] } as const;
    expect(channelsToListen(types, 'per-type')).toEqual([
      'es_type:OrderPlaced',
      'es_type:OrderCancelled',
    ]);
    expect(channelsToListen(types, 'one')).toEqual([APPENDED_CHANNEL]);
    expect(channelsToListen({ kind: 'stream_prefix', prefixes: ['order-'] }, 'per-type')).toEqual([
      APPENDED_CHANNEL,
    ]);
    expect(channelsToListen(undefined, 'per-type')).toEqual([APPENDED_CHANNEL]);
  });

  it('announces everything on the general channel and each type with its own streams', () => {
    const sent = announceOnChannels([
      { streamName: 'order-1', types: ['OrderPlaced'] },
      { streamName: 'payment-1', types: ['PaymentAuthorized'] },
    ]);
    expect(sent.map(({ channel, payload }): unknown[] => [channel, JSON.parse(payload)])).toEqual([
      [
        APPENDED_CHANNEL,
        { streams: ['order-1', 'payment-1'], types: ['OrderPlaced', 'PaymentAuthorized'] },
      ],
      ['es_type:OrderPlaced', { streams: ['order-1'], types: ['OrderPlaced'] }],
      ['es_type:PaymentAuthorized', { streams: ['payment-1'], types: ['PaymentAuthorized'] }],
    ]);
  });
});
