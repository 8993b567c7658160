// The order's command handler against real PostgreSQL and the embedded event
// store: one read, one append at the loaded revision, and the answer folded
// in memory; a rival append in between is a WrongExpectedRevisionError.
import { orderStream } from '@effectively-once/contracts';
import { WrongExpectedRevisionError } from '@effectively-once/event-store';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appendOrderEvents, loadOrder } from '../adapters/eventStore/order-stream.js';
import { commandCause } from '../domain/loaded-order.js';
import { decide } from '../domain/order.decide.js';
import { orderPlaced, paymentRequested } from '../domain/testing/order.fixtures.js';
import { orderWith } from '../testing/order-history.js';
import { createOrderTestEnv } from '../testing/order-test-env.js';
import { withRivalAppends } from '../testing/rival-writer.js';
import { recordStreamReads } from '../testing/stream-reads.js';
import { handleOrderCommand } from './order-command.handler.js';

const env = await createOrderTestEnv();
const NOW = new Date('2026-11-30T10:06:00.000Z');

const cancelCommand = (orderId: string) => ({
  orderId,
  causeId: commandCause('CancelOrder', orderId),
  decide: (state: Parameters<typeof decide>[1]) =>
    decide({ type: 'CancelOrder', data: { orderId, now: NOW } }, state),
});

describe('handleOrderCommand', () => {
  it('reads the stream once, appends at its revision and answers with what a fresh load returns', async () => {
    const orderId = await orderWith(env.store, (id) => [orderPlaced(id), paymentRequested(id)]);
    const { store, reads } = recordStreamReads(env.store);

    const result = await handleOrderCommand({ ...env, store }, cancelCommand(orderId));

    expect(reads).toEqual([orderStream(orderId)]);
    expect(result).toMatchObject({
      outcome: 'accepted',
      events: [expect.objectContaining({ type: 'OrderCancellationRequested' })],
    });
    expect(result.order.revision).toBe(2n);
    expect(result.order).toEqual(await loadOrder(env.store, orderId));
  });

  it('reads nothing when the caller passes the order it holds', async () => {
    const orderId = await orderWith(env.store, (id) => [orderPlaced(id)]);
    const loaded = await loadOrder(env.store, orderId);
    const { store, reads } = recordStreamReads(env.store);

    const result = await handleOrderCommand(
      { ...env, store },
      { ...cancelCommand(orderId), loaded },
    );

    expect(reads).toEqual([]);
    expect(result.order.state.status).toBe('cancelling');
    expect(result.order).toEqual(await loadOrder(env.store, orderId));
  });

  it('appends nothing for a refusal and answers with the order as loaded', async () => {
    const orderId = randomUUID();

    const result = await handleOrderCommand(env, cancelCommand(orderId));

    expect(result).toMatchObject({ outcome: 'refused', code: 'ORDER_NOT_FOUND' });
    expect(await env.store.readStream(orderStream(orderId))).toEqual([]);
  });

  it('appends nothing when the decision is empty, and answers with the order as it is', async () => {
    const orderId = await orderWith(env.store, (id) => [orderPlaced(id)]);
    await handleOrderCommand(env, cancelCommand(orderId));

    const again = await handleOrderCommand(env, cancelCommand(orderId));

    expect(again).toMatchObject({ outcome: 'accepted', events: [] });
    expect(again.order.revision).toBe(1n);
    expect(await env.store.readStream(orderStream(orderId))).toHaveLength(2);
  });

  it('throws WrongExpectedRevisionError when a rival appended after the load, and writes nothing of its own', async () => {
    const orderId = await orderWith(env.store, (id) => [orderPlaced(id)]);
    const store = withRivalAppends(env.store, {
      times: 1,
      rival: (streamName) =>
        appendOrderEvents(env.store, {
          orderId,
          events: [paymentRequested(orderId)],
          expectedRevision: 0n,
          causeId: `rival:${streamName}`,
        }),
    });

    await expect(handleOrderCommand({ ...env, store }, cancelCommand(orderId))).rejects.toThrow(
      WrongExpectedRevisionError,
    );

    expect((await env.store.readStream(orderStream(orderId))).map((event) => event.type)).toEqual([
      'OrderPlaced',
      'OrderPaymentRequested',
    ]);
  });

  it('lets exactly one of two writers decided on the same revision append', async () => {
    const orderId = await orderWith(env.store, (id) => [orderPlaced(id)]);
    const loaded = await loadOrder(env.store, orderId);
    const cancel = handleOrderCommand(env, { ...cancelCommand(orderId), loaded });
    const expire = handleOrderCommand(env, {
      orderId,
      loaded,
      causeId: commandCause('ExpireOrder', orderId),
      decide: (state) =>
        decide({ type: 'ExpireOrder', data: { orderId, deadline: 'inventory', now: NOW } }, state),
    });

    const [first, second] = await Promise.allSettled([cancel, expire]);

    const outcomes = [first.status, second.status].sort();
    expect(outcomes).toEqual(['fulfilled', 'rejected']);
    const rejected = [first, second].find((settled) => settled.status === 'rejected');
    expect(rejected?.reason).toBeInstanceOf(WrongExpectedRevisionError);
    const stream = await env.store.readStream(orderStream(orderId));
    expect(stream.map((event) => event.type)).toEqual([
      'OrderPlaced',
      'OrderCancellationRequested',
    ]);
  });
});
