import { describe, expect, it } from 'vitest';
import { parseGroupSettings } from '../port/subscription.js';
import { retryGroupSettings } from './retry-schedule.js';
import {
  applyEsdbChanges,
  matchesFilter,
  toEsdbFilter,
  toEsdbSettings,
  toEsdbStrategy,
} from './mapping.js';

const byStream = { source: { from: 'stream' as const }, supersedeParkedWith: [] };
const byField = (from: 'metadata' | 'data', field: string) => ({
  source: { from, field },
  supersedeParkedWith: [],
});

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
    expect(applyEsdbChanges(settings, { maxRetryCount: 7 }, undefined)).toMatchObject({
      maxRetryCount: 7,
      messageTimeout: 5000,
      consumerStrategyName: 'DispatchToSingle',
    });
  });

  describe('the consumer strategy follows the ordering key', () => {
    it.each([
      ['by stream', byStream, 'Pinned'],
      // PinnedByCorrelation is wanted, but this client cannot send it (see toEsdbStrategy).
      ['by correlation id', byField('metadata', 'correlationId'), 'Pinned'],
      ['by another metadata field', byField('metadata', 'tenantId'), 'RoundRobin'],
      ['by a data field', byField('data', 'correlationId'), 'RoundRobin'],
      ['none', undefined, 'RoundRobin'],
    ])('%s: %s', (_, orderingKey, strategy) => {
      expect(toEsdbStrategy({ consumerStrategy: 'round_robin', orderingKey })).toBe(strategy);
      expect(
        toEsdbSettings(parseGroupSettings({ ...(orderingKey && { orderingKey }) })),
      ).toMatchObject({ consumerStrategyName: strategy });
    });

    it('an explicit dispatch_to_single stays DispatchToSingle, with or without a key', () => {
      expect(
        toEsdbStrategy({ consumerStrategy: 'dispatch_to_single', orderingKey: byStream }),
      ).toBe('DispatchToSingle');
    });

    it('an update takes the strategy from the key it leaves the group with', () => {
      const roundRobin = toEsdbSettings(parseGroupSettings({}));
      expect(applyEsdbChanges(roundRobin, {}, byStream).consumerStrategyName).toBe('Pinned');
      const pinned = toEsdbSettings(parseGroupSettings({ orderingKey: byStream }));
      expect(applyEsdbChanges(pinned, {}, undefined).consumerStrategyName).toBe('RoundRobin');
      expect(
        applyEsdbChanges(pinned, { consumerStrategy: 'dispatch_to_single' }, byStream)
          .consumerStrategyName,
      ).toBe('DispatchToSingle');
    });

    it("a pinned group's retry group is RoundRobin: all its records are in one stream", () => {
      const pinned = toEsdbSettings(parseGroupSettings({ orderingKey: byStream }));
      expect(retryGroupSettings(pinned).consumerStrategyName).toBe('RoundRobin');
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
