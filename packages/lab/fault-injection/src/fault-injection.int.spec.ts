// The lab inside a real processOnce on a real database: a held claim keeps its
// transaction (and a rival's claim waits on it) until released; a hold
// released with `fail` and an injected 40001 roll the transaction back; every
// step is journaled in order; mistakes survive a restart of the lab.
import { randomUUID } from 'node:crypto';
import {
  ConsumerFailure,
  defineConsumer,
  findMarker,
  idempotencyMigrations,
  processOnce,
  retryableFailure,
  withProcessingHooks,
  type IdempotencyTables,
} from '@effectively-once/idempotency';
import { MISTAKEN_ATTEMPTS } from './mistakes/index.js';
import { recordingDelivery } from '@effectively-once/idempotency/testing';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { readJournal } from './journal.repository.js';
import { type Hold, LabStatus, Released, type ArmFault } from './lab.schemas.js';
import type { LabTables } from './lab.tables.js';
import { BEARER, deliveryOf, openTestLab, waitUntil, type TestLab } from './testing/lab-harness.js';

type Database = IdempotencyTables & LabTables;
const testDatabase = await createTestDatabase<Database>(idempotencyMigrations);
const { db } = testDatabase;
const opened: TestLab[] = [];
const open = async () => {
  const testLab = await openTestLab(db, 'probe-test');
  opened.push(testLab);
  return testLab;
};
afterAll(async () => {
  for (const testLab of opened) await testLab.close();
});
const { lab, app } = await open();

const consumerNamed = (name: string) => defineConsumer({ name: `${name}-v1` });

async function arm(fault: ArmFault): Promise<void> {
  const response = await app.inject({
    method: 'POST',
    url: '/admin/lab/faults',
    headers: BEARER,
    payload: fault,
  });
  expect(response.statusCode).toBe(201);
}

async function status(): Promise<LabStatus> {
  return LabStatus.parse((await app.inject({ url: '/admin/lab', headers: BEARER })).json());
}

async function waitForHold(messageId: string): Promise<Hold> {
  let held: Hold | undefined;
  await waitUntil(async () => {
    held = (await status()).holds.find((hold) => hold.messageId === messageId);
    return held !== undefined;
  }, `a hold of message ${messageId}`);
  if (held === undefined) throw new Error('unreachable');
  return held;
}

async function release(holdId: string, then: 'continue' | 'fail'): Promise<number> {
  const response = await app.inject({
    method: 'POST',
    url: '/admin/lab/holds/release',
    headers: BEARER,
    payload: { holdId, then },
  });
  return Released.parse(response.json()).released;
}

/** One delivery through the lab's hooks, as startConsumer drives them, with processOnce inside. */
async function deliver(input: { consumer: ReturnType<typeof consumerNamed>; orderId: string }) {
  const delivery = deliveryOf(input.consumer.name, { orderId: input.orderId });
  await lab.onDelivery(delivery);
  const result = await withProcessingHooks(lab, () =>
    processOnce({
      db,
      consumer: input.consumer,
      message: { id: delivery.messageId, type: delivery.eventType },
      work: () => Promise.resolve('tallied'),
    }),
  );
  const next = await lab.afterCommit(delivery, result);
  await lab.settled(delivery, {
    action: next === 'ack' ? 'ack' : 'retry',
    outcome: result.outcome,
    attempts: result.attempts,
  });
  return { delivery, result };
}

describe('holds', () => {
  it('keeps a claim open while held, so a rival claim waits, and lets it commit on continue', async () => {
    // Given a hold armed right after the claim
    const consumer = consumerNamed('held-tally');
    const message = { id: randomUUID(), type: 'OrderPlaced' };
    await arm({ point: 'after-claim', action: 'hold', match: { consumer: consumer.name } });

    // When one call is held there and a rival (another pool, no lab) claims the same message
    const held = withProcessingHooks(lab, () =>
      processOnce({ db, consumer, message, work: () => Promise.resolve('first') }),
    );
    const hold = await waitForHold(message.id);
    const rival = processOnce({
      db: testDatabase.connect({ applicationName: 'rival' }),
      consumer,
      message,
      work: () => Promise.resolve('second'),
    });

    // Then the rival waits on the held claim's row lock, visible in the status
    await waitUntil(async () => (await status()).lockWaits >= 1, 'the rival to wait on a lock');
    expect(hold).toMatchObject({
      point: 'after-claim',
      consumer: consumer.name,
      messageId: message.id,
    });

    // When the hold is released with continue
    expect(await release(hold.id, 'continue')).toBe(1);

    // Then the held call applies and the rival finds it done
    expect(await held).toMatchObject({ outcome: 'applied', result: 'first' });
    expect(await rival).toMatchObject({ outcome: 'duplicate', detectedBy: 'marker' });
    expect((await status()).holds).toEqual([]);
  });

  it('rolls the transaction back when a hold is released with fail', async () => {
    // Given a hold armed after the business change, with a reason
    const consumer = consumerNamed('failed-tally');
    const message = { id: randomUUID(), type: 'OrderPlaced' };
    await arm({
      point: 'after-business',
      action: 'hold',
      match: { consumer: consumer.name },
      reason: 'the operator said no',
    });
    const held = withProcessingHooks(lab, () =>
      processOnce({ db, consumer, message, work: () => Promise.resolve('tallied') }),
    );
    const hold = await waitForHold(message.id);

    // When it is released with fail
    await release(hold.id, 'fail');

    // Then processOnce fails retryably with the reason, and its marker was rolled back
    const failure = await held.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConsumerFailure);
    expect(failure).toMatchObject({ kind: 'retryable', reason: 'the operator said no' });
    expect(await findMarker(db, consumer.name, message.id)).toBeUndefined();
  });

  it('releases every hold and disarms every fault when the lab closes', async () => {
    const second = await open();
    await second.app.inject({
      method: 'POST',
      url: '/admin/lab/faults',
      headers: BEARER,
      payload: { point: 'on-delivery', action: 'hold', times: 2 },
    });
    const waiting = second.lab.onDelivery(deliveryOf('closing-v1'));
    await waitUntil(
      async () =>
        LabStatus.parse((await second.app.inject({ url: '/admin/lab', headers: BEARER })).json())
          .holds.length === 1,
      'the hold',
    );

    await second.lab.close();

    // The held delivery goes on, and a delivery still draining meets no second hold
    expect(await waiting).toBe('process');
    expect(await second.lab.onDelivery(deliveryOf('closing-v1'))).toBe('process');
  });
});

describe('serialization-failure', () => {
  it('raises SQLSTATE 40001 in the open transaction, which rolls back', async () => {
    // Given a consumer that does not retry, and a 40001 armed after its claim
    const consumer = defineConsumer({
      name: 'serial-once-tally-v1',
      retry: { maxAttempts: 1 },
    });
    const message = { id: randomUUID(), type: 'OrderPlaced' };
    await arm({
      point: 'after-claim',
      action: 'serialization-failure',
      match: { consumer: consumer.name },
    });

    // When it processes a message
    const failure = await withProcessingHooks(lab, () =>
      processOnce({ db, consumer, message, work: () => Promise.resolve('tallied') }),
    ).catch((error: unknown) => error);

    // Then PostgreSQL's 40001 reached processOnce, and the claim was rolled back
    expect(failure).toBeInstanceOf(ConsumerFailure);
    expect(failure).toMatchObject({ kind: 'retryable', sqlState: '40001' });
    expect(await findMarker(db, consumer.name, message.id)).toBeUndefined();
  });

  it('is retried by processOnce as a whole transaction, and the journal shows both attempts', async () => {
    // Given one 40001 armed before the commit of one order's message
    const consumer = consumerNamed('serial-retry-tally');
    const orderId = randomUUID();
    await arm({ point: 'after-business', action: 'serialization-failure', match: { orderId } });

    // When the message is delivered
    const { delivery, result } = await deliver({ consumer, orderId });

    // Then the second attempt applied it, and the journal tells the story in order
    expect(result).toMatchObject({ outcome: 'applied', attempts: 2 });
    const steps = (await readJournal(db, { orderId })).map((entry) => [
      entry.kind,
      entry.detail.attempt ?? entry.detail.action ?? entry.detail.outcome ?? null,
    ]);
    expect(steps).toEqual([
      ['delivered', null],
      ['claiming', 1],
      ['claimed', 1],
      ['business-done', 1],
      ['fault', 1],
      ['claiming', 2],
      ['claimed', 2],
      ['business-done', 2],
      ['handled', 'applied'],
      ['acked', 'applied'],
    ]);
    const fault = (await readJournal(db, { orderId })).find((entry) => entry.kind === 'fault');
    expect(fault).toMatchObject({
      service: 'probe-test',
      pid: process.pid,
      consumer: consumer.name,
      messageId: delivery.messageId,
      eventType: 'OrderPlaced',
      orderId,
      detail: { point: 'after-business', action: 'serialization-failure', attempt: 1 },
    });
  });
});

describe('the consumer points', () => {
  it('fails a delivery with the fault reason, and matches a retry count', async () => {
    const orderId = randomUUID();
    await arm({
      point: 'on-delivery',
      action: 'fail',
      match: { orderId, retryCount: 1 },
      reason: 'poison until disarmed',
    });

    // The first delivery (retryCount 0) passes; the second one fails
    expect(await lab.onDelivery(deliveryOf('poison-v1', { orderId }))).toBe('process');
    const failure = await lab
      .onDelivery(deliveryOf('poison-v1', { orderId, retryCount: 1 }))
      .catch((error: unknown) => error);

    expect(failure).toMatchObject({ kind: 'retryable', reason: 'poison until disarmed' });
  });

  it('hands a committed delivery back instead of acking it', async () => {
    const delivery = deliveryOf('redelivered-v1');
    await arm({
      point: 'after-commit-before-ack',
      action: 'redeliver',
      match: { messageId: delivery.messageId },
    });

    expect(await lab.afterCommit(delivery, { outcome: 'applied', result: 1, attempts: 1 })).toBe(
      'redeliver',
    );
    expect(
      await lab.afterCommit(delivery, { outcome: 'duplicate', detectedBy: 'marker', attempts: 1 }),
    ).toBe('ack');
  });

  it('ties a service point to the delivery being handled, for its order and retry count', async () => {
    // Given a delivery being handled by the payment consumer, and a hold at the provider point
    const delivery = deliveryOf('payment-authorization-v1', { retryCount: 0 });
    await lab.onDelivery(delivery);
    await arm({
      point: 'after-provider-authorized',
      action: 'fail',
      match: { retryCount: 0, orderId: delivery.orderId },
    });

    // When the handler reports its step knowing only the consumer and the message
    const failure = await lab
      .onStep('provider-authorized', {
        consumer: delivery.consumer,
        messageId: delivery.messageId,
      })
      .catch((error: unknown) => error);

    // Then the fault matched on what the delivery knew, and the journal has the whole identity
    expect(failure).toMatchObject({ kind: 'retryable' });
    const journaled = await readJournal(db, { orderId: delivery.orderId });
    expect(journaled.map((entry) => entry.kind)).toEqual([
      'delivered',
      'provider-authorized',
      'fault',
    ]);
    expect(journaled[1]).toMatchObject({ eventType: 'OrderPlaced', messageId: delivery.messageId });
  });
});

describe('the relay point', () => {
  it('journals the step relay-appended with its event and order, and can fail it', async () => {
    // Given a failure armed after the relay's append of one order's event
    const orderId = randomUUID();
    const eventId = randomUUID();
    await arm({ point: 'after-relay-append', action: 'fail', match: { orderId } });
    // When the kit reports the relay's append as a step
    const failure = await lab
      .onStep('relay-appended', { messageId: eventId, eventType: 'OrderPlaced', orderId })
      .catch((error: unknown) => error);

    // Then the append is journaled and the relay sees the failure (so the row stays unsent)
    expect(failure).toMatchObject({ kind: 'retryable' });
    const journaled = await readJournal(db, { orderId });
    expect(journaled.map((entry) => entry.kind)).toEqual(['relay-appended', 'fault']);
    expect(journaled[0]).toMatchObject({
      messageId: eventId,
      eventType: 'OrderPlaced',
      consumer: null,
    });
    expect(journaled[1]?.detail).toMatchObject({ point: 'after-relay-append', action: 'fail' });
  });
});

describe('mistakes', () => {
  it('survive a restart of the lab, and are answered from memory', async () => {
    // Given two mistakes switched on
    const tally = 'restarted-tally-v1';
    const acker = 'restarted-acker-v1';
    for (const [consumer, mistake] of [
      [tally, 'check-then-act'],
      [acker, 'ack-before-commit'],
    ] as const) {
      const response = await app.inject({
        method: 'PUT',
        url: `/admin/lab/mistakes/${consumer}`,
        headers: BEARER,
        payload: { mistake },
      });
      expect(response.statusCode).toBe(200);
    }

    // When the lab starts again (a crashed process restarted)
    const restarted = await open();

    // Then it still reproduces them
    expect(restarted.lab.attemptFor?.(tally)).toBe(MISTAKEN_ATTEMPTS['check-then-act']);
    expect(restarted.lab.flowFor?.(deliveryOf(tally))).toBeUndefined();
    expect(restarted.lab.attemptFor?.(acker)).toBeUndefined();
    const journaled = await readJournal(db, { limit: 1000 });
    expect(
      journaled.filter((entry) => entry.kind === 'mistake-set' && entry.consumer === tally),
    ).toEqual([expect.objectContaining({ detail: { mistake: 'check-then-act' } })]);
    expect(journaled.at(-1)).toMatchObject({ kind: 'process-started', pid: process.pid });

    // And under ack-before-commit, the early ack is journaled when it happens,
    // then the handler's end (here a failure: the message is lost)
    const delivery = deliveryOf(acker);
    const flow = restarted.lab.flowFor?.(delivery);
    const broker = recordingDelivery(delivery.messageId);
    const settled = await flow?.({
      delivery: broker,
      handle: () => Promise.reject(retryableFailure('lost')),
    });
    expect(broker.settlements).toEqual(['ack']);
    expect(settled).toMatchObject({ action: 'ack', outcome: 'retryable_failure', reason: 'lost' });
    await restarted.lab.settled(delivery, settled!);
    expect(await readJournal(db, { orderId: delivery.orderId })).toEqual([
      expect.objectContaining({ kind: 'acked-before-commit', detail: {} }),
      expect.objectContaining({
        kind: 'handled',
        detail: { outcome: 'retryable_failure', reason: 'lost', attempts: 1 },
      }),
    ]);
  });
});
