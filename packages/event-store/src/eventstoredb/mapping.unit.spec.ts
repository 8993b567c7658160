import { describe, expect, it } from 'vitest';
import { parseGroupSettings } from '../port/subscription.js';
import { applyEsdbChanges, matchesFilter, toEsdbFilter, toEsdbSettings } from './mapping.js';

describe('EventStoreDB mapping', () => {
  it('maps event-type filters to an anchored, escaped regex', () => {
    expect(toEsdbFilter({ kind: 'event_type', types: ['Order.Placed', 'Paid'] })).toMatchObject({
      filterOn: 'eventType',
      regex: '^(?:Order\\.Placed|Paid)$',
    });
    expect(toEsdbFilter({ kind: 'stream_prefix', prefixes: ['order-'] })).toMatchObject({
      filterOn: 'streamName',
      prefixes: ['order-'],
    });
  });

  it('maps group settings and keeps unchanged ones on update', () => {
    const settings = toEsdbSettings(
      parseGroupSettings({
        maxRetryCount: 3,
        messageTimeoutMs: 5000,
        consumerStrategy: 'dispatch_to_single',
      }),
    );
    expect(settings).toMatchObject({
      startFrom: 'end',
      maxRetryCount: 3,
      messageTimeout: 5000,
      consumerStrategyName: 'DispatchToSingle',
    });
    expect(applyEsdbChanges(settings, { maxRetryCount: 7 })).toMatchObject({
      maxRetryCount: 7,
      messageTimeout: 5000,
    });
  });

  it('filters $all reads on the client side and never returns system events', () => {
    const event = { type: 'OrderPlaced', streamName: 'order-1' } as Parameters<
      typeof matchesFilter
    >[1];
    expect(matchesFilter({ kind: 'stream_prefix', prefixes: ['order-'] }, event)).toBe(true);
    expect(matchesFilter({ kind: 'event_type', types: ['Paid'] }, event)).toBe(false);
    expect(matchesFilter(undefined, { ...event, type: '$metadata' })).toBe(false);
  });
});
