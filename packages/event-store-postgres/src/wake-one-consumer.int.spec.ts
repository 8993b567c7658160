// An append wakes one consumer of each group, not all (wake-choice.ts, ADR
// 0039): two consumers of one group, as two replicas of a service would hold,
// each in a store of its own. Rounds are counted per store with onGroupPumped.
// The choice saves rounds only: a chosen consumer that is gone leaves the
// message to the others' polls.
import { connect } from '@effectively-once/postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventStore } from '@effectively-once/event-store/port/event-store';
import type { Delivery } from '@effectively-once/event-store/port/subscription';
import { newEvent, uniqueName } from '@effectively-once/event-store/testing';
import { receive, waitUntil } from '@effectively-once/event-store/testing';
import type { EventStoreTables } from './event-store.tables.js';
import { MEMBER_LOCK_NAMESPACE } from './leases.js';
import { eventStoreMigrations } from './migrations/index.js';
import { createPostgresEventStore } from './postgres-event-store.js';
import { isChosenToWake } from './wake-choice.js';

const { url } = await createTestDatabase(eventStoreMigrations);
const db = connect<EventStoreTables>(url);
afterAll(() => db.destroy());

const A_MINUTE = 60_000;

/** The backend pids of the sessions that hold the group's member lock. */
async function membersOf(group: string): Promise<number[]> {
  const { rows } = await sql<{ pid: number }>`
    SELECT l.pid FROM pg_locks l JOIN es_subscription_group g ON l.objid::bigint = g.group_id
     WHERE g.group_name = ${group} AND l.locktype = 'advisory' AND l.granted
       AND l.objsubid = 2 AND l.classid::bigint = ${MEMBER_LOCK_NAMESPACE}
       AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
     ORDER BY l.pid`.execute(db);
  return rows.map((row) => row.pid);
}

/** One consumer of `group` in a store of its own, as one replica would run it. */
async function replica(group: string, pollIntervalMs: number) {
  let rounds = 0;
  const store: EventStore = createPostgresEventStore({
    url,
    pollIntervalMs,
    onGroupPumped: () => rounds++,
  });
  const subscription = store.subscribeToGroup(group);
  const deliveries = receive(subscription);
  await waitUntil(() => (rounds > 0 ? true : undefined), 'the first round');
  return {
    store,
    deliveries,
    rounds: () => rounds,
    close: async () => {
      await subscription.close();
      await store.close();
    },
  };
}

/** A group on a fresh prefix, and a writer for it. */
async function freshGroup() {
  const writer = createPostgresEventStore({ url });
  const prefix = uniqueName('wake');
  const group = uniqueName('group');
  await writer.createSubscriptionGroup(group, {
    filter: { kind: 'stream_prefix', prefixes: [prefix] },
    startFrom: 'start',
  });
  const append = async (stream: string) => {
    const event = newEvent();
    await writer.appendToStream(stream, [event], { expectedRevision: 'any' });
    return event.id;
  };
  return { writer, prefix, group, append };
}

type Replica = Awaited<ReturnType<typeof replica>>;

/** The delivery of event `id`, by whichever replica has it, and that replica's index. */
function deliveredBy(replicas: readonly Replica[], id: string): Promise<[number, Delivery]> {
  return waitUntil(() => {
    for (const [index, one] of replicas.entries()) {
      const delivery = one.deliveries.items.find((item) => item.event.id === id);
      if (delivery !== undefined) return [index, delivery];
    }
    return undefined;
  }, `event ${id} is delivered`);
}

describe('an append to a group with two consumers', () => {
  it('wakes one of them: each append costs the round that leases it and the one its ack rides with', async () => {
    // Given two consumers of one group that look only when woken
    const { writer, prefix, group, append } = await freshGroup();
    const replicas = [await replica(group, A_MINUTE), await replica(group, A_MINUTE)];
    await waitUntil(
      async () => ((await membersOf(group)).length === 2 ? true : undefined),
      'both consumers are members',
    );
    const roundsBefore = replicas.map((one) => one.rounds());

    // When twenty events are appended, each to a stream of its own, one after
    // the other once the last was acknowledged
    const appends = 20;
    const deliveriesPerReplica = [0, 0];
    for (let index = 0; index < appends; index++) {
      const id = await append(`${prefix}-${String(index)}`);
      const [by, delivery] = await deliveredBy(replicas, id);
      deliveriesPerReplica[by] = (deliveriesPerReplica[by] ?? 0) + 1;
      await delivery.ack();
    }

    // Then each append cost two rounds (its lease; its ack), where waking both
    // consumers cost a third that found nothing; and both consumers had a share.
    const rounds = replicas.reduce(
      (sum, one, index) => sum + one.rounds() - (roundsBefore[index] ?? 0),
      0,
    );
    // A little room: on a shared server an event can be held back for a moment.
    expect(rounds).toBeLessThanOrEqual(2 * appends + 2);
    expect(deliveriesPerReplica.every((count) => count > 0)).toBe(true);
    await Promise.all(replicas.map((one) => one.close()));
    await writer.close();
  });

  it('still delivers a message whose chosen consumer was killed: the other one finds it by its poll', async () => {
    // Given a consumer A that looks only when woken, and a consumer B that
    // also polls, both members of the group
    const { writer, prefix, group, append } = await freshGroup();
    const a = await replica(group, A_MINUTE);
    const [pidOfA] = await membersOf(group);
    const b = await replica(group, 300);
    const members = await waitUntil(async () => {
      const both = await membersOf(group);
      return both.length === 2 ? both : undefined;
    }, 'both consumers are members');
    if (pidOfA === undefined) throw new Error('A is not a member.');
    // and a stream the choice gives to A
    const stream = Array.from({ length: 100 }, (_, index) => `${prefix}-${String(index)}`).find(
      (name) => isChosenToWake({ streams: [name], members, self: pidOfA }),
    );
    if (stream === undefined) throw new Error('No stream of 100 went to A.');
    // (a first append, so that B has read the members while A was one)
    const [, warmUp] = await deliveredBy([a, b], await append(`${prefix}-warm-up`));
    await warmUp.ack();

    // When A's connection is killed, as its process's would be, and an event
    // is appended to that stream
    await sql`SELECT pg_terminate_backend(${pidOfA})`.execute(db);
    await waitUntil(
      async () => ((await membersOf(group)).includes(pidOfA) ? undefined : true),
      "A's member lock is gone",
    );
    const id = await append(stream);

    // Then B delivers it
    const [by, delivery] = await deliveredBy([a, b], id);
    expect(by).toBe(1);
    await delivery.ack();
    await Promise.all([a.close(), b.close()]);
    await a.deliveries.ended;
    await writer.close();
  });
});
