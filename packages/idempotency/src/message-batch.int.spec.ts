// processOnce inside a batch (ADR 0036) against PostgreSQL: several messages,
// one transaction, a savepoint each. What must hold is what holds alone: each
// effect at most once, a failing message takes back only its own work, a
// crash before the COMMIT leaves nothing, one after it leaves duplicates.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql, type Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  inventoryMigrations,
  inventoryReservation,
  newSku,
  orderLinePlaced,
  reserveStock,
  restock,
  stockOf,
  type InventoryDatabase,
  type OrderLinePlaced,
} from '../examples/inventory/index.js';
import { attemptOnce } from './attempt-once.js';
import type { ProcessingPoint } from './hooks/points.js';
import { withProcessingHooks, type ProcessingHooks } from './hooks/processing-hooks.js';
import { findMarker } from './markers.js';
import { MessageLeftBatchError, openMessageBatch } from './message-batch.js';
import { processOnce, type ProcessResult } from './process-once.js';
import { markerCount } from './testing/consumer-check.js';

const { db } = await createTestDatabase<InventoryDatabase>(inventoryMigrations);

type Work = (trx: Transaction<InventoryDatabase>, line: OrderLinePlaced) => Promise<unknown>;

const reserve = (line: OrderLinePlaced, work: Work = reserveStock) =>
  processOnce({
    db,
    consumer: inventoryReservation,
    message: line,
    work: (trx) => work(trx, line),
  });

/** Runs each line's processOnce in one batch, as the consumer loop does, then commits. */
async function inOneBatch(lines: readonly OrderLinePlaced[], workFor: (n: number) => Work) {
  const batch = openMessageBatch();
  const results = await Promise.allSettled(
    lines.map((line, n) => batch.run(() => reserve(line, workFor(n)))),
  );
  const committed = await batch.commit().then(
    () => true,
    () => false,
  );
  return { results, committed };
}

const txidOf = async (trx: Transaction<InventoryDatabase>): Promise<string> => {
  const { rows } = await sql<{ txid: string }>`SELECT txid_current()::text AS txid`.execute(trx);
  return rows[0]!.txid;
};

async function threeLinesOfOneSku(available = 10) {
  const sku = newSku();
  await restock(db, sku, available);
  return { sku, lines: [1, 2, 3].map(() => orderLinePlaced({ sku, quantity: 1 })) };
}

describe('processOnce inside a batch', () => {
  it('runs every message of the batch in one transaction and commits them together', async () => {
    const { sku, lines } = await threeLinesOfOneSku();
    const txids: string[] = [];

    const { results, committed } = await inOneBatch(lines, () => async (trx, line) => {
      txids.push(await txidOf(trx));
      return reserveStock(trx, line);
    });

    expect(committed).toBe(true);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(new Set(txids).size).toBe(1);
    expect(await stockOf(db, sku)).toMatchObject({ available: 7, reserved: 3 });
  });

  it('a failing message in the middle takes back only its own work; the others commit; alone it applies', async () => {
    // Given three lines, the second failing after its update
    const { sku, lines } = await threeLinesOfOneSku();
    const failing = lines[1]!;

    // When they are processed in one batch
    const { results, committed } = await inOneBatch(lines, (n) =>
      n === 1
        ? async (trx, line) => {
            await reserveStock(trx, line);
            throw new Error('the work fell over after its update');
          }
        : reserveStock,
    );

    // Then the batch commits the first and third, and the second left it with nothing kept
    expect(committed).toBe(true);
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { outcome: 'applied' } });
    expect(results[2]).toMatchObject({ status: 'fulfilled', value: { outcome: 'applied' } });
    expect(results[1]).toMatchObject({ status: 'rejected' });
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(MessageLeftBatchError);
    expect(await findMarker(db, inventoryReservation.name, failing.id)).toBeUndefined();
    expect(await stockOf(db, sku)).toMatchObject({ available: 8, reserved: 2 });

    // And handled alone afterwards, it applies once
    expect(await reserve(failing)).toMatchObject({ outcome: 'applied' });
    expect(await stockOf(db, sku)).toMatchObject({ available: 7, reserved: 3 });
  });

  it('a crash before the COMMIT leaves nothing; the redelivered batch applies each effect once', async () => {
    // Given a batch whose connection dies after two messages were done in it
    const { sku, lines } = await threeLinesOfOneSku();
    const crashed = await inOneBatch(lines, (n) =>
      n === 2
        ? async (trx) => {
            const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(
              trx,
            );
            await sql`SELECT pg_terminate_backend(${rows[0]!.pid})`.execute(db);
            return txidOf(trx);
          }
        : reserveStock,
    );
    expect(crashed.committed).toBe(false);
    for (const line of lines) {
      expect(await findMarker(db, inventoryReservation.name, line.id)).toBeUndefined();
    }
    expect(await stockOf(db, sku)).toMatchObject({ available: 10, reserved: 0 });

    // When the whole batch is delivered again
    const redelivered = await inOneBatch(lines, () => reserveStock);

    // Then each line is applied once
    expect(redelivered.committed).toBe(true);
    expect(await stockOf(db, sku)).toMatchObject({ available: 7, reserved: 3 });
    for (const line of lines) {
      expect(await markerCount(db, inventoryReservation.name, line.id)).toBe(1);
    }
  });

  it('a crash after the COMMIT, before the acks: the redelivered batch is all duplicates', async () => {
    const { sku, lines } = await threeLinesOfOneSku();
    expect((await inOneBatch(lines, () => reserveStock)).committed).toBe(true);

    const again = await inOneBatch(lines, () => reserveStock);

    expect(again.committed).toBe(true);
    expect(again.results.map((r) => r.status === 'fulfilled' && r.value)).toEqual(
      lines.map(() => ({ outcome: 'duplicate', detectedBy: 'marker', attempts: 1 })),
    );
    expect(await stockOf(db, sku)).toMatchObject({ available: 7, reserved: 3 });
  });

  it('a batch holding a duplicate: the marker answers inside the batch, also for a copy in the same batch', async () => {
    // Given a line already processed alone
    const { sku, lines } = await threeLinesOfOneSku();
    const [done, fresh] = lines;
    await reserve(done!);

    // When a batch holds it, a new line, and the new line again
    const { results, committed } = await inOneBatch([done!, fresh!, fresh!], () => reserveStock);

    // Then the first and the copy are duplicates by marker, and only the new line applied
    expect(committed).toBe(true);
    const outcomes = results.map(
      (r) => (r as PromiseFulfilledResult<ProcessResult<unknown>>).value,
    );
    expect(outcomes).toMatchObject([
      { outcome: 'duplicate', detectedBy: 'marker' },
      { outcome: 'applied' },
      { outcome: 'duplicate', detectedBy: 'marker' },
    ]);
    expect(await stockOf(db, sku)).toMatchObject({ available: 8, reserved: 2 });
  });
});

describe('processOnce inside a batch, under processing hooks (the failure lab)', () => {
  /** Hooks that note each point inside its transaction and kill the batch's connection at one. */
  function crashingAt(crash: { point: ProcessingPoint; messageId: string } | undefined) {
    const heard: { point: ProcessingPoint; messageId: string; txid: string }[] = [];
    const hooks: ProcessingHooks = {
      async reached(point, { message, trx }) {
        const { rows } = await sql<{ txid: string; pid: number }>`
          SELECT txid_current()::text AS txid, pg_backend_pid() AS pid`.execute(trx!);
        heard.push({ point, messageId: message.id, txid: rows[0]!.txid });
        // The process dying here: its connection goes, and the batch never commits.
        if (crash?.point === point && crash.messageId === message.id) {
          await sql`SELECT pg_terminate_backend(${rows[0]!.pid})`.execute(db);
        }
      },
    };
    return { hooks, heard };
  }

  const underHooks = (hooks: ProcessingHooks, lines: readonly OrderLinePlaced[]) =>
    withProcessingHooks(hooks, () => inOneBatch(lines, () => reserveStock));

  it('a crash at the second message of three kills the batch; redelivered, each effect applies once', async () => {
    // Given a batch of three whose process dies after the second message's business work
    const { sku, lines } = await threeLinesOfOneSku();
    const crash = crashingAt({ point: 'after-business', messageId: lines[1]!.id });
    const crashed = await underHooks(crash.hooks, lines);

    // Then each message passed its points in order, all in the batch's one transaction, and nothing committed
    expect(crashed.committed).toBe(false);
    expect(crash.heard.slice(0, 5).map(({ point, messageId }) => [point, messageId])).toEqual([
      ['before-claim', lines[0]!.id],
      ['after-claim', lines[0]!.id],
      ['after-business', lines[0]!.id],
      ['before-claim', lines[1]!.id],
      ['after-claim', lines[1]!.id],
    ]);
    expect(new Set(crash.heard.map(({ txid }) => txid)).size).toBe(1);
    expect(await stockOf(db, sku)).toMatchObject({ available: 10, reserved: 0 });

    // When the whole batch is delivered again, the crash point passed
    const again = crashingAt(undefined);
    const redelivered = await underHooks(again.hooks, lines);

    // Then it commits in one transaction and each line is applied once
    expect(redelivered.committed).toBe(true);
    expect(new Set(again.heard.map(({ txid }) => txid)).size).toBe(1);
    expect(again.heard).toHaveLength(9);
    expect(await stockOf(db, sku)).toMatchObject({ available: 7, reserved: 3 });
    for (const line of lines) {
      expect(await markerCount(db, inventoryReservation.name, line.id)).toBe(1);
    }
  });

  it('a mistaken attempt flow leaves the batch, to run alone as it opens transactions of its own', async () => {
    const { lines } = await threeLinesOfOneSku();
    const hooks: ProcessingHooks = {
      reached: () => Promise.resolve(),
      attemptFor: () => attemptOnce,
    };

    const { results } = await underHooks(hooks, lines);

    for (const result of results) {
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(MessageLeftBatchError);
    }
  });
});
