// Replaying a selection of parked messages on EventStoreDB, with the fake
// client: the server replays a parked stream only from its oldest entry, up
// to a revision, so a selection must be a run from the front of each list.
import type { EventStoreDBClient, RecordedEvent as EsdbRecordedEvent } from '@eventstore/db-client';
import { describe, expect, it } from 'vitest';
import { eventStoreDBEventStoreOn } from './eventstoredb-event-store.js';
import { esdbEvent, fakeEsdbClient } from './fake-esdb-client.js';
import { retryRecordEvent, retryStreamOf } from './retry-schedule.js';
import { fromEsdbEvent } from './mapping.js';

const GROUP = 'billing-v1';
const OWN_PARKED = `$persistentsubscription-$all::${GROUP}-parked`;
const RETRY_PARKED = `$persistentsubscription-${retryStreamOf(GROUP)}::${GROUP}-parked`;

function given() {
  const fake = fakeEsdbClient();
  const store = eventStoreDBEventStoreOn(fake.client as unknown as EventStoreDBClient);
  const replayCalls = () => fake.calls.filter((call) => call.startsWith('replayParked'));
  return { ...fake, store, replayCalls };
}

/** Parks three events in the group's own list, the first two at revisions 4 and 5 (a replay truncated 0-3). */
function parkThree(fake: ReturnType<typeof given>): EsdbRecordedEvent[] {
  const events = [esdbEvent(), esdbEvent(), esdbEvent()];
  events.forEach((event, index) => {
    fake.park(OWN_PARKED, event, BigInt(4 + index));
  });
  return events;
}

describe('EventStoreDB parked replay', () => {
  it('replays every parked message of both lists when no ids are given', async () => {
    const fake = given();
    parkThree(fake);

    await fake.store.replayParkedMessages(GROUP);

    expect(fake.replayCalls()).toEqual([
      'replayParkedMessagesToAll stopAt=none',
      `replayParkedMessagesToStream ${retryStreamOf(GROUP)} stopAt=none`,
    ]);
  });

  it('replays a run of selected messages from the front, up to the last one selected', async () => {
    // Given three parked messages
    const fake = given();
    const [first, second] = parkThree(fake);
    // When the first two are selected
    await fake.store.replayParkedMessages(GROUP, { eventIds: [first?.id ?? '', second?.id ?? ''] });
    // Then the server replays up to the second's revision, not the third
    expect(fake.replayCalls()).toEqual(['replayParkedMessagesToAll stopAt=6']);
  });

  it('refuses a selection that skips an older parked message, replaying nothing', async () => {
    // Given three parked messages
    const fake = given();
    const [, second] = parkThree(fake);
    // When only the second is selected
    const replay = fake.store.replayParkedMessages(GROUP, { eventIds: [second?.id ?? ''] });
    // Then
    await expect(replay).rejects.toMatchObject({ code: 'PARKED_REPLAY_OUT_OF_ORDER' });
    expect(fake.replayCalls()).toEqual([]);
  });

  it('replays a message parked from the retry stream by its original id, and ignores ids not parked', async () => {
    // Given a message whose retry record was parked
    const fake = given();
    const original = fake.append('order-1', {
      id: crypto.randomUUID(),
      type: 'OrderPlaced',
      data: {},
    } as never);
    const record = fake.append(
      retryStreamOf(GROUP),
      retryRecordEvent({
        event: fromEsdbEvent(original),
        retryCount: 3,
        notBefore: new Date('2026-12-01T00:00:00Z'),
        reason: 'provider down',
      }),
    );
    fake.park(RETRY_PARKED, record);
    // When it is selected, with an id that is not parked at all
    await fake.store.replayParkedMessages(GROUP, {
      eventIds: [original.id, crypto.randomUUID()],
    });
    // Then only the retry stream's list is replayed, up to that record
    expect(fake.replayCalls()).toEqual([
      `replayParkedMessagesToStream ${retryStreamOf(GROUP)} stopAt=1`,
    ]);
    expect((await fake.store.listParkedMessages(GROUP)).map(({ event }) => event.id)).toEqual([
      original.id,
    ]);
  });
});
