// Two deliveries of one message on separate connections: what PostgreSQL's
// unique index does when the claims collide. None of this can be shown with a
// mocked database: the waiting and the visibility after rollback are the point.
import {
  createTestDatabase,
  findLockWaiter,
  waitForLockWaiter,
} from '@effectively-once/postgres/testing';
import type { Kysely, Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  newSku,
  orderLinePlaced,
  type InventoryDatabase,
  inventoryMigrations,
  inventoryReservation,
  reserveStock,
  restock,
  stockOf,
} from '../examples/inventory/index.js';
import type { OutcomeReport } from './outcome.js';
import { processOnce } from './process-once.js';
import { markerCount } from './testing/consumer-check.js';

const testDb = await createTestDatabase<InventoryDatabase>(inventoryMigrations);
const { db } = testDb;

/** A gate the first delivery waits at, after its claim, until the test opens it. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

function consumerConnection(name: string): Kysely<InventoryDatabase> {
  return testDb.connect({ maxConnections: 1, applicationName: name });
}

describe('claims racing on separate connections', () => {
  it('2. two deliveries released together: exactly one applies', async () => {
    const sku = newSku();
    await restock(db, sku, 10);
    const line = orderLinePlaced({ sku, quantity: 4 });
    const start = gate();
    const deliver = async (connection: Kysely<InventoryDatabase>) => {
      await start.wait;
      return processOnce({
        db: connection,
        consumer: inventoryReservation,
        message: line,
        work: (trx) => reserveStock(trx, line),
      });
    };

    const racing = Promise.all([
      deliver(consumerConnection('race2-a')),
      deliver(consumerConnection('race2-b')),
    ]);
    start.open();
    const outcomes = (await racing).map((result) => result.outcome);

    expect(outcomes.sort()).toEqual(['applied', 'duplicate']);
    expect(await stockOf(db, sku)).toMatchObject({ available: 6, reserved: 4 });
    expect(await markerCount(db, inventoryReservation.name, line.id)).toBe(1);
  });

  describe('READ COMMITTED, the first transaction paused after its claim', () => {
    async function raceWithPausedWinner(winnerEnds: 'commit' | 'rollback') {
      const sku = newSku();
      await restock(db, sku, 10);
      const line = orderLinePlaced({ sku, quantity: 2 });
      const claimed = gate();
      const release = gate();
      const loserReports: OutcomeReport[] = [];

      const winner = processOnce({
        db: consumerConnection(`winner-${winnerEnds}`),
        consumer: inventoryReservation,
        message: line,
        work: async (trx: Transaction<InventoryDatabase>) => {
          await reserveStock(trx, line);
          claimed.open();
          await release.wait;
          if (winnerEnds === 'rollback') throw new Error('the winner fails after its claim');
          return 'reserved';
        },
      }).catch((error: unknown) => error);
      await claimed.wait;

      const loser = processOnce({
        db: consumerConnection(`loser-${winnerEnds}`),
        consumer: inventoryReservation,
        message: line,
        work: (trx) => reserveStock(trx, line),
        onOutcome: (report) => loserReports.push(report),
        // The release below follows the observed wait within milliseconds;
        // a low threshold lets the report show that short wait.
        claimWaitThresholdMs: 1,
      });
      const waiter = await waitForLockWaiter(db as Kysely<unknown>, `loser-${winnerEnds}`);
      const stillWaiting = await findLockWaiter(db as Kysely<unknown>, `loser-${winnerEnds}`);
      release.open();
      return {
        sku,
        line,
        winner: await winner,
        loser: await loser,
        waiter,
        stillWaiting,
        loserReports,
      };
    }

    it('4. the second claim waits for the first, then reports a duplicate when the first commits', async () => {
      const race = await raceWithPausedWinner('commit');

      expect(race.waiter.blockedBy).toHaveLength(1);
      expect(race.stillWaiting).toBeDefined();
      expect(race.winner).toMatchObject({ outcome: 'applied' });
      expect(race.loser).toMatchObject({ outcome: 'duplicate', detectedBy: 'marker' });
      expect(race.loserReports[0]).toMatchObject({ outcome: 'duplicate', claimWaited: true });
      expect(await stockOf(db, race.sku)).toMatchObject({ available: 8, reserved: 2 });
    });

    it('5. when the first rolls back, the waiting claim takes over and applies exactly once', async () => {
      const race = await raceWithPausedWinner('rollback');

      expect(race.waiter.blockedBy).toHaveLength(1);
      expect(race.winner).toMatchObject({ name: 'ConsumerFailure', kind: 'retryable' });
      expect(race.loser).toMatchObject({ outcome: 'applied', result: 'reserved' });
      expect(await stockOf(db, race.sku)).toMatchObject({ available: 8, reserved: 2 });
      expect(await markerCount(db, inventoryReservation.name, race.line.id)).toBe(1);
    });
  });
});
