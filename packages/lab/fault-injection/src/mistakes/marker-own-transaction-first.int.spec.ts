// marker-own-transaction-first against the correct path: the work fails after
// the marker was claimed, then the message is delivered again.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { describe, expect, it } from 'vitest';
import type { OutcomeReport } from '@effectively-once/idempotency';
import type { MarkerMistake } from './index.js';
import { markerCount } from '@effectively-once/idempotency/testing';
import {
  bump,
  deliver,
  newMessage,
  tallyConsumer as consumer,
  type TallyDatabase,
  tallyMigrations,
  tallyOf,
  labHooks,
} from './tally.fixtures.js';

const { db } = await createTestDatabase<TallyDatabase>(tallyMigrations);

async function failThenRedeliver(mistake: MarkerMistake | undefined) {
  const message = newMessage();
  const probe = labHooks({
    mistakes: mistake === undefined ? {} : { [consumer.name]: mistake },
  });
  const reports: OutcomeReport[] = [];
  const onOutcome = (report: OutcomeReport) => reports.push(report);
  const failed = await deliver(probe, {
    db,
    consumer,
    message,
    work: async (trx, msg) => {
      await bump(message.id)(trx, msg);
      throw new Error('the process fell over during the work');
    },
    onOutcome,
  }).catch((error: unknown) => error);
  const afterFailure = {
    tally: await tallyOf(db, message.id),
    markers: await markerCount(db, consumer.name, message.id),
  };
  const redelivered = await deliver(probe, {
    db,
    consumer,
    message,
    work: bump(message.id),
    onOutcome,
  });
  return {
    failed,
    afterFailure,
    redelivered,
    tally: await tallyOf(db, message.id),
    probe,
    reports,
  };
}

describe('marker-own-transaction-first', () => {
  it('the work fails after the marker committed: the redelivery is a "duplicate" and the counter stays 0', async () => {
    const run = await failThenRedeliver('marker-own-transaction-first');

    expect(run.failed).toMatchObject({ name: 'ConsumerFailure', kind: 'retryable' });
    // A marker without its effect: the message is lost.
    expect(run.afterFailure).toEqual({ tally: 0, markers: 1 });
    expect(run.redelivered).toMatchObject({ outcome: 'duplicate', detectedBy: 'marker' });
    expect(run.tally).toBe(0);
    // The window the lab crashes in: after-claim, with no transaction open.
    expect(run.probe.visits[0]).toMatchObject({
      point: 'after-claim',
      attempt: 1,
      inTransaction: false,
    });
    // Reported as processOnce reports any failure and any duplicate.
    expect(run.reports.map((report) => report.outcome)).toEqual(['retryable_failure', 'duplicate']);
  });

  it('the correct path rolls the marker back with the work: the redelivery applies, the counter reads 1', async () => {
    const run = await failThenRedeliver(undefined);

    expect(run.failed).toMatchObject({ name: 'ConsumerFailure', kind: 'retryable' });
    expect(run.afterFailure).toEqual({ tally: 0, markers: 0 });
    expect(run.redelivered).toMatchObject({ outcome: 'applied', result: 1 });
    expect(run.tally).toBe(1);
  });
});
