// processOnce under processing hooks: the points come in order, with the
// attempt number, inside the claiming transaction; a 40001 raised at a point
// is retried like any other.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { AttemptStrategy } from '../attempt-once.js';
import { findMarker } from '../markers.js';
import {
  bump,
  deliver,
  newMessage,
  tallyConsumer as consumer,
  type TallyDatabase,
  tallyMigrations,
  tallyOf,
} from '../testing/tally.fixtures.js';
import type { OutcomeReport } from '../outcome.js';
import { recordingHooks } from '../testing/recording-hooks.js';

const { db } = await createTestDatabase<TallyDatabase>(tallyMigrations);

const visitInTransaction = (point: string, attempt: number) => ({
  point,
  attempt,
  inTransaction: true,
});

describe('processOnce with processing hooks', () => {
  it('reaches before-claim, after-claim and after-business in order, in the transaction, on attempt 1', async () => {
    const message = newMessage();
    const hooks = recordingHooks();

    const result = await deliver(hooks, { db, consumer, message, work: bump(message.id) });

    expect(result).toMatchObject({ outcome: 'applied', result: 1, attempts: 1 });
    expect(hooks.visits).toEqual(
      ['before-claim', 'after-claim', 'after-business'].map((point) => ({
        ...visitInTransaction(point, 1),
        consumer: consumer.name,
        messageId: message.id,
      })),
    );
  });

  it('a duplicate reaches before-claim only: the claim did not win', async () => {
    const message = newMessage();
    await deliver(undefined, { db, consumer, message, work: bump(message.id) });
    const hooks = recordingHooks();

    const result = await deliver(hooks, { db, consumer, message, work: bump(message.id) });

    expect(result).toMatchObject({ outcome: 'duplicate', detectedBy: 'marker' });
    expect(hooks.visits).toMatchObject([visitInTransaction('before-claim', 1)]);
    expect(await tallyOf(db, message.id)).toBe(1);
  });

  it('a 40001 raised at after-claim on attempt 1 restarts the whole transaction: applied on attempt 2, once', async () => {
    const message = newMessage();
    const seenByWork: string[] = [];
    const hooks = recordingHooks({
      onReached: async (point, { attempt, trx }) => {
        if (point !== 'after-claim' || attempt !== 1 || trx === undefined) return;
        // What the lab's serialization-failure fault does in the open transaction.
        await sql`DO $$ BEGIN RAISE EXCEPTION 'injected serialization failure' USING ERRCODE = 'serialization_failure'; END $$`.execute(
          trx,
        );
      },
    });
    const reports: OutcomeReport[] = [];

    const result = await deliver(hooks, {
      db,
      consumer,
      message,
      work: (trx, msg) => {
        seenByWork.push(msg.id);
        return bump(message.id)(trx, msg);
      },
      onOutcome: (report) => reports.push(report),
    });

    expect(result).toMatchObject({ outcome: 'applied', result: 1, attempts: 2 });
    expect(hooks.visits).toMatchObject([
      visitInTransaction('before-claim', 1),
      visitInTransaction('after-claim', 1),
      visitInTransaction('before-claim', 2),
      visitInTransaction('after-claim', 2),
      visitInTransaction('after-business', 2),
    ]);
    expect(new Set(hooks.visits.map((visit) => visit.messageId))).toEqual(new Set([message.id]));
    // The first attempt rolled back before the work: it ran once, with the same id.
    expect(seenByWork).toEqual([message.id]);
    expect(reports).toMatchObject([{ outcome: 'applied', attempts: 2 }]);
    expect(await tallyOf(db, message.id)).toBe(1);
    expect(await findMarker(db, consumer.name, message.id)).toBeDefined();
  });

  it('a hook that throws at after-business rolls back the marker and the work together', async () => {
    const message = newMessage();
    const hooks = recordingHooks({
      onReached: (point) =>
        point === 'after-business'
          ? Promise.reject(new Error('held, then failed'))
          : Promise.resolve(),
    });

    const failed = deliver(hooks, { db, consumer, message, work: bump(message.id) });

    await expect(failed).rejects.toMatchObject({ name: 'ConsumerFailure', kind: 'retryable' });
    expect(await tallyOf(db, message.id)).toBe(0);
    expect(await findMarker(db, consumer.name, message.id)).toBeUndefined();
  });

  it('outside withProcessingHooks nothing is reported to the hooks', async () => {
    const message = newMessage();
    const hooks = recordingHooks();
    await deliver(hooks, { db, consumer, message, work: bump(message.id) });
    const heard = hooks.visits.length;

    const other = newMessage();
    await deliver(undefined, { db, consumer, message: other, work: bump(other.id) });

    expect(hooks.visits).toHaveLength(heard);
  });

  it('runs the flow the hooks choose for the consumer instead of the correct one, with the hooks bound to it', async () => {
    // Given hooks that choose, for this consumer only, a flow that claims nothing and says so
    const message = newMessage();
    const chosenFor: string[] = [];
    const skipEverything: AttemptStrategy = async (attempt) => {
      await attempt.reach('after-claim', undefined);
      return { outcome: 'duplicate', detectedBy: 'marker' };
    };
    const hooks = {
      ...recordingHooks(),
      attemptFor: (name: string) => {
        chosenFor.push(name);
        return name === consumer.name ? skipEverything : undefined;
      },
    };

    // When a message is processed under them
    const result = await deliver(hooks, { db, consumer, message, work: bump(message.id) });

    // Then the chosen flow ran: asked once, its point heard outside a transaction, no work, no marker
    expect(chosenFor).toEqual([consumer.name]);
    expect(result).toMatchObject({ outcome: 'duplicate', detectedBy: 'marker', attempts: 1 });
    expect(hooks.visits).toMatchObject([
      { point: 'after-claim', attempt: 1, inTransaction: false },
    ]);
    expect(await tallyOf(db, message.id)).toBe(0);
    expect(await findMarker(db, consumer.name, message.id)).toBeUndefined();
  });
});
