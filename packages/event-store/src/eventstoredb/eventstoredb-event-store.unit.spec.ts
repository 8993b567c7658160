import { randomUUID } from 'node:crypto';
import { EventStoreDBClient } from '@eventstore/db-client';
// The client's own parser (not exported from its index): what it makes of each string.
import { parseConnectionString } from '@eventstore/db-client/dist/Client/parseConnectionString.js';
import { describe, expect, it, vi } from 'vitest';
import {
  createEventStoreDBEventStore,
  eventStoreDBEventStoreOn,
} from './eventstoredb-event-store.js';
import { fakeEsdbClient } from './fake-esdb-client.js';
import { groupOptionsStreamOf } from './group-options.js';

// The fake covers the calls these tests make; the cast says so once.
const storeOn = (fake: ReturnType<typeof fakeEsdbClient>) =>
  eventStoreDBEventStoreOn(fake.client as unknown as EventStoreDBClient);

describe('EventStoreDB event store', () => {
  describe('the server version', () => {
    it.each([
      [
        '21.10.9.0',
        /EventStoreDB 21\.10\.9\.0 is too old: this adapter needs EventStoreDB 22\.10 or later/,
      ],
      ['unknown', /does not report its version \(it is older than 21\.10\)/],
    ])('refuses %s, saying which version is needed', async (serverVersion, message) => {
      // Given
      const store = storeOn(fakeEsdbClient({ serverVersion }));
      // When / Then
      await expect(store.readStream('order-1')).rejects.toThrow(message);
      await expect(store.readStream('order-1')).rejects.toMatchObject({
        code: 'UNSUPPORTED_SERVER_VERSION',
      });
    });

    it('accepts 22.10 and later', async () => {
      const store = storeOn(fakeEsdbClient({ serverVersion: '22.10.0.0' }));
      await expect(store.readStream('order-1')).resolves.toEqual([]);
    });
  });

  describe('appendToStreams', () => {
    it('appends one stream after another, in the order given, and a refused stream fails alone', async () => {
      // Given
      const fake = fakeEsdbClient();
      const store = storeOn(fake);
      const event = () => ({ id: randomUUID(), type: 'ThingHappened', data: {} });
      // When
      const settled = await store.appendToStreams([
        { streamName: 'thing-2', events: [event(), event()], expectedRevision: 'any' },
        { streamName: 'with space', events: [event()], expectedRevision: 'any' },
        { streamName: 'thing-1', events: [event()], expectedRevision: 'any' },
      ]);
      // Then
      expect(settled).toMatchObject([
        { status: 'fulfilled', value: { nextExpectedRevision: 1n } },
        { status: 'rejected', reason: { code: 'INVALID_STREAM_NAME' } },
        { status: 'fulfilled', value: { nextExpectedRevision: 0n } },
      ]);
      expect(fake.log).toEqual(['append thing-2', 'append thing-1']);
    });
  });

  describe('updateSubscriptionGroup', () => {
    it('sends nothing when no setting differs from the server: old servers would clear the filter', async () => {
      // Given
      const fake = fakeEsdbClient({ groupSettings: { maxRetryCount: 3 } });
      // When
      await storeOn(fake).updateSubscriptionGroup('billing-v1', { maxRetryCount: 3 });
      // Then
      expect(fake.calls).not.toContain('updatePersistentSubscriptionToAll');
    });

    it('sends the update when a setting differs', async () => {
      const fake = fakeEsdbClient({ groupSettings: { maxRetryCount: 3 } });
      await storeOn(fake).updateSubscriptionGroup('billing-v1', { maxRetryCount: 5 });
      expect(fake.calls).toContain('updatePersistentSubscriptionToAll');
    });

    it('records a new ordering key, and only when it changes', async () => {
      // Given a group already Pinned, as a stream key makes it
      const fake = fakeEsdbClient({ groupSettings: { consumerStrategyName: 'Pinned' } });
      const store = storeOn(fake);
      const orderingKey = { source: { from: 'stream' as const }, supersedeParkedWith: [] };
      // When the same key is declared twice
      await store.updateSubscriptionGroup('billing-v1', { orderingKey });
      await store.updateSubscriptionGroup('billing-v1', { orderingKey });
      // Then it is written once, and the server's settings are left alone
      expect(fake.streams.get(groupOptionsStreamOf('billing-v1'))).toHaveLength(1);
      expect(fake.calls).not.toContain('updatePersistentSubscriptionToAll');
    });
  });

  describe('the consumer strategy on the server follows the ordering key', () => {
    const orderingKey = { source: { from: 'stream' as const }, supersedeParkedWith: [] };

    it('creates a group keyed by stream as Pinned, and one without a key as RoundRobin', async () => {
      // Given
      const fake = fakeEsdbClient();
      const store = storeOn(fake);
      // When
      await store.createSubscriptionGroup('keyed-v1', { orderingKey });
      await store.createSubscriptionGroup('unkeyed-v1', {});
      // Then
      expect(
        fake.created.map(({ group, settings }) => [group, settings.consumerStrategyName]),
      ).toEqual([
        ['keyed-v1', 'Pinned'],
        ['unkeyed-v1', 'RoundRobin'],
      ]);
    });

    it('an update that declares a key turns a RoundRobin group into Pinned, and back when removed', async () => {
      // Given a group created before its consumer declared a key
      const fake = fakeEsdbClient({ groupSettings: { consumerStrategyName: 'RoundRobin' } });
      const store = storeOn(fake);
      // When the key is declared
      await store.updateSubscriptionGroup('billing-v1', { orderingKey });
      // Then
      expect(fake.updated.map((settings) => settings.consumerStrategyName)).toEqual(['Pinned']);
      // When it is removed again
      await store.updateSubscriptionGroup('billing-v1', { orderingKey: null });
      expect(fake.updated.map((settings) => settings.consumerStrategyName)).toEqual([
        'Pinned',
        'RoundRobin',
      ]);
    });

    it('an update of another setting keeps the key the group has (read from its options stream)', async () => {
      const fake = fakeEsdbClient({ groupSettings: { consumerStrategyName: 'Pinned' } });
      const store = storeOn(fake);
      await store.updateSubscriptionGroup('billing-v1', { orderingKey });
      await store.updateSubscriptionGroup('billing-v1', { maxRetryCount: 4 });
      expect(fake.updated.map((settings) => settings.consumerStrategyName)).toEqual(['Pinned']);
    });
  });

  describe('cluster connection strings', () => {
    const discover = 'esdb+discover://cluster.example.com:2113?tls=true&nodePreference=follower';
    const nodes =
      'esdb://node1:2113,node2:2113,node3:2113?tls=true&tlsCAFile=/certs/ca/ca.crt&nodePreference=leader';

    it.each([discover, nodes])(
      'creates the client from the whole string: %s',
      (connectionString) => {
        // Given
        const fake = fakeEsdbClient();
        const created = vi
          .spyOn(EventStoreDBClient, 'connectionString')
          .mockReturnValue(fake.client as unknown as EventStoreDBClient);
        try {
          // When
          createEventStoreDBEventStore({ connectionString });
          // Then
          expect(created).toHaveBeenCalledWith(connectionString);
        } finally {
          created.mockRestore();
        }
      },
    );

    it('the client reads DNS discovery, every seed node, TLS, its CA file and the node preference', () => {
      expect(parseConnectionString(discover)).toMatchObject({
        dnsDiscover: true,
        hosts: [{ address: 'cluster.example.com', port: 2113 }],
        tls: true,
        nodePreference: 'follower',
      });
      expect(parseConnectionString(nodes)).toMatchObject({
        dnsDiscover: false,
        hosts: [
          { address: 'node1', port: 2113 },
          { address: 'node2', port: 2113 },
          { address: 'node3', port: 2113 },
        ],
        tls: true,
        tlsCAFile: '/certs/ca/ca.crt',
        nodePreference: 'leader',
      });
    });
  });

  it('lists no blocked messages for a group without open connections', async () => {
    await expect(storeOn(fakeEsdbClient()).listBlockedMessages('billing-v1')).resolves.toEqual([]);
  });
});
