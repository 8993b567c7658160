import { expect, it } from 'vitest';
import { EventStoreError, WrongExpectedRevisionError } from '../../port/errors.js';
import type { EventStore } from '../../port/event-store.js';
import { newEvent, newEvents, uniqueName, type ContractHarness } from './harness.js';

/** Appends, optimistic concurrency, idempotence, reads, bad input. */
export function appendContract(context: {
  harness: () => ContractHarness;
  store: () => EventStore;
}): void {
  it('two writers with the same expected revision: exactly one wins', async () => {
    const [writerA, writerB] = await Promise.all([
      context.harness().openStore(),
      context.harness().openStore(),
    ]);
    try {
      const stream = uniqueName('race');
      await writerA.appendToStream(stream, [newEvent()], { expectedRevision: 'no_stream' });
      const results = await Promise.allSettled([
        writerA.appendToStream(stream, [newEvent('WriterAWrote')], { expectedRevision: 0n }),
        writerB.appendToStream(stream, [newEvent('WriterBWrote')], { expectedRevision: 0 }),
      ]);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.find((result) => result.status === 'rejected');
      expect(rejected?.reason).toBeInstanceOf(WrongExpectedRevisionError);
      expect(rejected?.reason).toMatchObject({
        code: 'WRONG_EXPECTED_REVISION',
        expected: 0n,
        actual: 1n,
      });
      expect(await context.store().readStream(stream)).toHaveLength(2);
    } finally {
      await Promise.all([writerA.close(), writerB.close()]);
    }
  });

  it('a conflicting append says what was expected and what was found, and writes nothing', async () => {
    const stream = uniqueName('conflict');
    await context.store().appendToStream(stream, newEvents(2), { expectedRevision: 'no_stream' });
    await expect(
      context.store().appendToStream(stream, [newEvent()], { expectedRevision: 'no_stream' }),
    ).rejects.toMatchObject({
      code: 'WRONG_EXPECTED_REVISION',
      expected: 'no_stream',
      actual: 1n,
    });
    const missing = uniqueName('missing');
    await expect(
      context.store().appendToStream(missing, [newEvent()], { expectedRevision: 'stream_exists' }),
    ).rejects.toMatchObject({
      actual: 'no_stream',
    });
    expect(await context.store().readStream(stream)).toHaveLength(2);
    expect(await context.store().readStream(missing)).toEqual([]);
  });

  it('appending the same event ids at the same expected revision succeeds and writes nothing new', async () => {
    const stream = uniqueName('idempotent');
    const first = newEvents(2);
    const once = await context
      .store()
      .appendToStream(stream, first, { expectedRevision: 'no_stream' });
    const again = await context
      .store()
      .appendToStream(stream, first, { expectedRevision: 'no_stream' });
    expect(again.nextExpectedRevision).toBe(once.nextExpectedRevision);
    const next = [newEvent()];
    await context.store().appendToStream(stream, next, { expectedRevision: 1n });
    await context.store().appendToStream(stream, next, { expectedRevision: 1n });
    const stored = await context.store().readStream(stream);
    expect(stored.map((event) => event.id)).toEqual([...first, ...next].map((event) => event.id));
  });

  it('keeps order within a stream, forwards and backwards, from a revision', async () => {
    const stream = uniqueName('order');
    const events = newEvents(5);
    await context
      .store()
      .appendToStream(stream, events.slice(0, 2), { expectedRevision: 'no_stream' });
    await context.store().appendToStream(stream, events.slice(2, 3), { expectedRevision: 1 });
    await context.store().appendToStream(stream, events.slice(3), { expectedRevision: 'any' });
    const forwards = await context.store().readStream(stream);
    expect(forwards.map((event) => event.id)).toEqual(events.map((event) => event.id));
    expect(forwards.map((event) => event.revision)).toEqual([0n, 1n, 2n, 3n, 4n]);
    expect(forwards[4]).toMatchObject({
      streamName: stream,
      type: 'ThingHappened',
      data: { index: 4 },
      metadata: { schemaVersion: 1 },
    });
    const backwards = await context
      .store()
      .readStream(stream, { direction: 'backwards', fromRevision: 3, maxCount: 2 });
    expect(backwards.map((event) => event.revision)).toEqual([3n, 2n]);
    const fromTwo = await context.store().readStream(stream, { fromRevision: 2n, maxCount: 2 });
    expect(fromTwo.map((event) => event.revision)).toEqual([2n, 3n]);
  });

  it('reads every stream in global order after a position', async () => {
    const prefix = uniqueName('all');
    const a = await context
      .store()
      .appendToStream(`${prefix}-a`, [newEvent()], { expectedRevision: 'no_stream' });
    await context
      .store()
      .appendToStream(`${prefix}-b`, [newEvent()], { expectedRevision: 'no_stream' });
    await context.store().appendToStream(`${prefix}-a`, [newEvent()], { expectedRevision: 0n });
    // The embedded store reads the global order only below the server's xmin:
    // a transaction another test file runs meanwhile would hold these back.
    await context.harness().inversion?.olderTransactionsEnded();
    const filter = { kind: 'stream_prefix', prefixes: [prefix] } as const;
    const all = await context.store().readAll({ filter, maxCount: 10 });
    expect(all.map((event) => event.streamName)).toEqual([
      `${prefix}-a`,
      `${prefix}-b`,
      `${prefix}-a`,
    ]);
    const after = await context.store().readAll({ after: a.position, filter, maxCount: 10 });
    expect(after.map((event) => event.streamName)).toEqual([`${prefix}-b`, `${prefix}-a`]);
  });

  it('refuses bad input with a typed error and writes nothing', async () => {
    const store = context.store();
    const stream = uniqueName('bad');
    const cases: [() => Promise<unknown>, string][] = [
      [
        () => store.appendToStream('', [newEvent()], { expectedRevision: 'any' }),
        'INVALID_STREAM_NAME',
      ],
      [
        () => store.appendToStream('$system', [newEvent()], { expectedRevision: 'any' }),
        'INVALID_STREAM_NAME',
      ],
      [
        () => store.appendToStream('with space', [newEvent()], { expectedRevision: 'any' }),
        'INVALID_STREAM_NAME',
      ],
      [
        () =>
          store.appendToStream(stream, [newEvent('Big', { blob: 'x'.repeat(1024 * 1024) })], {
            expectedRevision: 'any',
          }),
        'EVENT_TOO_LARGE',
      ],
      [
        () =>
          store.appendToStream(stream, [newEvent(), newEvent('Bad', { total: Number.NaN })], {
            expectedRevision: 'any',
          }),
        'INVALID_EVENT',
      ],
      [
        () =>
          store.appendToStream(stream, [newEvent('Bad', { at: new Date() } as never)], {
            expectedRevision: 'any',
          }),
        'INVALID_EVENT',
      ],
      [
        () =>
          store.appendToStream(stream, [newEvent('Bad', { n: 1n } as never)], {
            expectedRevision: 'any',
          }),
        'INVALID_EVENT',
      ],
      [
        () =>
          store.appendToStream(stream, [newEvent()], { expectedRevision: 'no-stream' as never }),
        'INVALID_EXPECTED_REVISION',
      ],
      [
        () => store.appendToStream(stream, [newEvent()], { expectedRevision: -1 }),
        'INVALID_EXPECTED_REVISION',
      ],
      [
        () => store.appendToStream(stream, [newEvent()], { expectedRevision: 1.5 }),
        'INVALID_EXPECTED_REVISION',
      ],
    ];
    for (const [append, code] of cases) {
      const error: unknown = await append().then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(EventStoreError);
      expect(error).toMatchObject({ code });
    }
    expect(await store.readStream(stream)).toEqual([]);
  });
}

/** The ids each stream holds, in order. */
async function idsOf(store: EventStore, streams: readonly string[]): Promise<string[][]> {
  return Promise.all(
    streams.map(async (stream) => (await store.readStream(stream)).map((event) => event.id)),
  );
}

/** appendToStreams: each stream decided as its own appendToStream, outcomes in the order given. */
export function appendToStreamsContract(context: { store: () => EventStore }): void {
  it('appends to several streams in one call, one outcome per stream in the order given', async () => {
    // Given three new streams, each with its own number of events
    const streams = [uniqueName('many-a'), uniqueName('many-b'), uniqueName('many-c')];
    const events = [newEvents(1), newEvents(3), newEvents(2)];

    // When they are appended in one call
    const settled = await context.store().appendToStreams(
      streams.map((streamName, index) => ({
        streamName,
        events: events[index] ?? [],
        expectedRevision: 'no_stream',
      })),
    );

    // Then each stream holds its events, and each outcome is its own stream's
    expect(settled.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(
      settled.map((outcome) =>
        outcome.status === 'fulfilled' ? outcome.value.nextExpectedRevision : undefined,
      ),
    ).toEqual([0n, 2n, 1n]);
    expect(await idsOf(context.store(), streams)).toEqual(
      events.map((streamEvents) => streamEvents.map((event) => event.id)),
    );
  });

  it('fails only the stream whose expected revision is wrong, and writes the others', async () => {
    // Given a stream at revision 1
    const [before, conflicting, after] = [
      uniqueName('ok-before'),
      uniqueName('conflict'),
      uniqueName('ok-after'),
    ];
    await context
      .store()
      .appendToStream(conflicting, newEvents(2), { expectedRevision: 'no_stream' });
    const [first, wrong, last] = [newEvent(), newEvent(), newEvent()];

    // When a call expects it at 0, between two streams whose appends hold
    const settled = await context.store().appendToStreams([
      { streamName: before, events: [first], expectedRevision: 'no_stream' },
      { streamName: conflicting, events: [wrong], expectedRevision: 0n },
      { streamName: after, events: [last], expectedRevision: 'any' },
    ]);

    // Then that stream alone is refused as appendToStream refuses, and nothing of it is written
    expect(settled.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(settled[1]).toMatchObject({
      reason: { code: 'WRONG_EXPECTED_REVISION', expected: 0n, actual: 1n },
    });
    expect(settled[1]?.status === 'rejected' && settled[1].reason).toBeInstanceOf(
      WrongExpectedRevisionError,
    );
    const [beforeIds, conflictingIds, afterIds] = await idsOf(context.store(), [
      before,
      conflicting,
      after,
    ]);
    expect({ beforeIds, afterIds }).toEqual({ beforeIds: [first.id], afterIds: [last.id] });
    expect(conflictingIds).toHaveLength(2);
    expect(conflictingIds).not.toContain(wrong.id);
  });

  it('accepts the same call again as an idempotent retry, writing nothing new', async () => {
    // Given a call that appended to two streams
    const appends = [uniqueName('retry-a'), uniqueName('retry-b')].map((streamName) => ({
      streamName,
      events: newEvents(2),
      expectedRevision: 'no_stream' as const,
    }));
    const once = await context.store().appendToStreams(appends);

    // When the very same call is made again (a writer that died before it heard back)
    const again = await context.store().appendToStreams(appends);

    // Then it succeeds with the same revisions, and each stream holds its events once
    expect(again.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled']);
    const revisions = (outcomes: typeof once) =>
      outcomes.map((outcome) =>
        outcome.status === 'fulfilled' ? outcome.value.nextExpectedRevision : undefined,
      );
    expect(revisions(again)).toEqual(revisions(once));
    expect(
      await idsOf(
        context.store(),
        appends.map((append) => append.streamName),
      ),
    ).toEqual(appends.map((append) => append.events.map((event) => event.id)));
  });

  it('refuses bad input for its own stream only, and decides a stream named twice in the order given', async () => {
    // Given a stream named twice, with a bad append between
    const [stream, other] = [uniqueName('twice'), uniqueName('other')];
    const [first, second] = [newEvent(), newEvent()];

    // When they are appended in one call
    const settled = await context.store().appendToStreams([
      { streamName: stream, events: [first], expectedRevision: 'no_stream' },
      { streamName: 'with space', events: [newEvent()], expectedRevision: 'any' },
      { streamName: other, events: [], expectedRevision: 'any' },
      { streamName: stream, events: [second], expectedRevision: 0n },
    ]);

    // Then the second append of the stream saw the first, and the bad ones failed alone
    expect(settled).toMatchObject([
      { status: 'fulfilled', value: { nextExpectedRevision: 0n } },
      { status: 'rejected', reason: { code: 'INVALID_STREAM_NAME' } },
      { status: 'rejected', reason: { code: 'INVALID_EVENT' } },
      { status: 'fulfilled', value: { nextExpectedRevision: 1n } },
    ]);
    expect(await idsOf(context.store(), [stream, other])).toEqual([[first.id, second.id], []]);
    await expect(context.store().appendToStreams([])).resolves.toEqual([]);
  });
}
