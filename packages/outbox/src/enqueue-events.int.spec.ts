import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { enqueueEvents, InvalidOutgoingEventError, type OutgoingEvent } from './enqueue-events.js';
import { startOutboxRelay } from './outbox-relay.js';
import { newStream, outboxFixture, streamEventIds } from './testing/fixtures.js';

const { db, store } = await outboxFixture();

const rowsOf = (streamName: string) =>
  db
    .selectFrom('outbox')
    .selectAll()
    .where('stream_name', '=', streamName)
    .orderBy('position')
    .execute();

describe('enqueueEvents', () => {
  it('writes one row per event in the caller transaction and returns the event ids', async () => {
    // Given an event with an id of its own and one without
    const streamName = newStream();
    const ownId = randomUUID();

    // When both are enqueued in a committed transaction
    const ids = await db.transaction().execute((trx) =>
      enqueueEvents(trx, [
        { streamName, type: 'ThingHappened', data: { n: 1 }, id: ownId },
        {
          streamName,
          type: 'ThingFollowed',
          data: [1, 'two', null],
          metadata: { correlationId: 'c-1' },
        },
      ]),
    );

    // Then the given id is kept, the other is a fresh uuid, and the rows hold the events
    expect(ids[0]).toBe(ownId);
    expect(ids[1]).toMatch(/^[0-9a-f-]{36}$/);
    const rows = await rowsOf(streamName);
    expect(rows).toMatchObject([
      { event_id: ownId, event_type: 'ThingHappened', data: { n: 1 }, sent_at: null },
      {
        event_id: ids[1],
        event_type: 'ThingFollowed',
        data: [1, 'two', null],
        metadata: { correlationId: 'c-1', schemaVersion: 1 },
      },
    ]);
    expect(rows[0]!.position).toBeLessThan(rows[1]!.position);
  });

  it('never publishes the events of a transaction that rolled back', async () => {
    // Given events enqueued in a transaction that then fails
    const streamName = newStream();
    const failure = new Error('the business change failed');
    const outcome = db
      .transaction()
      .execute(async (trx) => {
        await enqueueEvents(trx, [{ streamName, type: 'ThingHappened', data: {} }]);
        throw failure;
      })
      .catch((error: unknown) => error);
    expect(await outcome).toBe(failure);

    // When a relay publishes everything pending
    const relay = startOutboxRelay({ db, store });
    try {
      await relay.flush();
    } finally {
      await relay.close();
    }

    // Then there is no row and no event
    expect(await rowsOf(streamName)).toEqual([]);
    expect(await streamEventIds(store, streamName)).toEqual([]);
  });

  it('returns no ids and writes nothing for no events', async () => {
    expect(await enqueueEvents(db, [])).toEqual([]);
  });

  const invalid: [string, OutgoingEvent, RegExp][] = [
    ['an empty stream name', { streamName: '', type: 'T', data: {} }, /Invalid stream name ""/],
    ['a $ stream name', { streamName: '$all', type: 'T', data: {} }, /"\$" is reserved/],
    ['an empty type', { streamName: 's-1', type: '', data: {} }, /type "" must be/],
    ['NaN in the data', { streamName: 's-1', type: 'T', data: { n: Number.NaN } }, /data.n is NaN/],
    [
      'a Date in the data',
      {
        streamName: 's-1',
        type: 'T',
        data: { at: new Date() } as unknown as OutgoingEvent['data'],
      },
      /data.at is a Date/,
    ],
    ['an id that is no uuid', { streamName: 's-1', type: 'T', data: {}, id: '42' }, /not a uuid/],
    [
      'a bad traceparent',
      { streamName: 's-1', type: 'T', data: {}, metadata: { traceparent: 'x' } },
      /metadata.traceparent/,
    ],
  ];

  it.each(invalid)('refuses %s and enqueues nothing of the call', async (_, bad, message) => {
    // Given a valid event and a bad one in one call
    const streamName = newStream();
    const call = enqueueEvents(db, [{ streamName, type: 'ThingHappened', data: {} }, bad]);

    // Then the call fails naming the bad event and the rule, before writing anything
    await expect(call).rejects.toThrow(InvalidOutgoingEventError);
    await expect(call).rejects.toThrow(message);
    await expect(call).rejects.toThrow(/^Outgoing event 1 .*Nothing was enqueued\.$/);
    expect(await rowsOf(streamName)).toEqual([]);
  });

  it('refuses two events with one id', async () => {
    const id = randomUUID();
    const streamName = newStream();
    const call = enqueueEvents(db, [
      { streamName, type: 'A', data: {}, id },
      { streamName, type: 'B', data: {}, id },
    ]);
    await expect(call).rejects.toThrow(/share an id/);
    expect(await rowsOf(streamName)).toEqual([]);
  });
});
