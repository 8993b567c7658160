// Embedded-store behaviour beyond the contract: what a graceful close does to
// messages this consumer leased but never handed to its handler, that an
// uncounted retry spares only the failure it reports, and the port's
// deliveries settled through the idempotency package's ack rule.
import { retryableFailure, settleDelivery } from '@effectively-once/idempotency';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { describe, expect, it } from 'vitest';
import { newEvents, uniqueName } from '../testing/contract/harness.js';
import { receive, waitUntil } from '../testing/receiver.js';
import { eventStoreMigrations } from './migrations/index.js';
import { createPostgresEventStore } from './postgres-event-store.js';

const { url } = await createTestDatabase(eventStoreMigrations);

describe('closing a persistent subscription', () => {
  it('returns leased but unseen messages without counting a delivery, so none is parked', async () => {
    const store = createPostgresEventStore({ url, pollIntervalMs: 100 });
    try {
      const prefix = uniqueName('close');
      const group = uniqueName('group');
      await store.createSubscriptionGroup(group, {
        filter: { kind: 'stream_prefix', prefixes: [prefix] },
        maxRetryCount: 0,
        maxInFlight: 10,
      });
      const events = newEvents(3);
      await store.appendToStream(`${prefix}-1`, events, { expectedRevision: 'no_stream' });

      // One consumer leases all three, hands one to its handler, and closes.
      const first = store.subscribeToGroup(group);
      const handled = await first[Symbol.asyncIterator]().next();
      if (handled.done === true) throw new Error('the subscription ended early');
      await handled.value.ack();
      await first.close();

      // The next consumer gets the other two as first deliveries.
      const second = store.subscribeToGroup(group);
      const received = await receive(second).atLeast(2);
      for (const delivery of received) await delivery.ack();
      await second.close();

      expect(received.map((d) => d.event.id).sort()).toEqual(
        events
          .slice(1)
          .map((e) => e.id)
          .sort(),
      );
      expect(received.map((d) => d.retryCount)).toEqual([0, 0]);
      expect(await store.listParkedMessages(group)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe('an uncounted retry', () => {
  it('does not spare a later delivery that is never settled: its timeout counts and parks the message', async () => {
    const store = createPostgresEventStore({ url, pollIntervalMs: 100 });
    try {
      const prefix = uniqueName('uncounted');
      const group = uniqueName('group');
      await store.createSubscriptionGroup(group, {
        filter: { kind: 'stream_prefix', prefixes: [prefix] },
        maxRetryCount: 0,
        messageTimeoutMs: 300,
      });
      const [event] = newEvents(1);
      await store.appendToStream(`${prefix}-1`, [event!], { expectedRevision: 'no_stream' });
      const subscription = store.subscribeToGroup(group);
      const deliveries = receive(subscription);

      // Given a failure the consumer reported, uncounted
      const failed = await deliveries.next();
      await failed.nack('retry', 'provider unavailable', { retryAfterMs: 0, counted: false });
      // When the redelivery is never settled (as if its process hung)
      const hung = await deliveries.next();
      // Then its timeout counts: with maxRetryCount 0 the message is parked
      const parked = await waitUntil(async () => {
        const [message] = await store.listParkedMessages(group);
        return message;
      }, 'the timed-out message is parked');
      await subscription.close();

      expect([failed.retryCount, hung.retryCount]).toEqual([0, 0]);
      expect(parked.event.id).toBe(event!.id);
      expect(parked.reason).toMatch(/delivered 1 times.*message timeout/);
    } finally {
      await store.close();
    }
  });
});

describe('settling deliveries with settleDelivery', () => {
  it('acknowledges a processed delivery and hands a failed one back with its retry count', async () => {
    const store = createPostgresEventStore({ url, pollIntervalMs: 100 });
    try {
      const prefix = uniqueName('settle');
      const group = uniqueName('group');
      await store.createSubscriptionGroup(group, {
        filter: { kind: 'stream_prefix', prefixes: [prefix] },
      });
      const [event] = newEvents(1);
      await store.appendToStream(`${prefix}-1`, [event!], { expectedRevision: 'no_stream' });
      const subscription = store.subscribeToGroup(group);
      const deliveries = receive(subscription);
      const waitedFor: number[] = [];
      const retryAfterMs = (retryCount: number) => {
        waitedFor.push(retryCount);
        return 0;
      };

      const first = await deliveries.next();
      const failed = await settleDelivery(
        first,
        () => Promise.reject(retryableFailure('database restarting')),
        { retryAfterMs },
      );
      const second = await deliveries.next();
      const applied = await settleDelivery(second, () => Promise.resolve('applied'), {
        retryAfterMs,
      });
      await subscription.close();

      expect(failed.action).toBe('retry');
      expect(applied).toEqual({ action: 'ack', result: 'applied' });
      expect([first.retryCount, second.retryCount]).toEqual([0, 1]);
      expect(second.event.id).toBe(event!.id);
      expect(waitedFor).toEqual([0]);
      expect(await store.listParkedMessages(group)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
