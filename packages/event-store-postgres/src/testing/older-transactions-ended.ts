// For the contract tests that depend on the horizon: the embedded store never
// starts a group, nor reads the global order, above the snapshot's xmin, so a
// transaction still running anywhere on the server (another test file's, in
// another database: transaction ids are server-wide) makes a group created now
// start before older events too, and holds back what readAll returns. Those
// tests wait for that to be over first.
import { connect } from '@effectively-once/postgres';
import { sql } from 'kysely';
import type { EventStoreTables } from '../event-store.tables.js';

const POLL_MS = 20;
const GIVE_UP_MS = 30_000;

/**
 * Resolves once every transaction that began before the newest stored event's
 * was written has ended, so the server's xmin is above every stored event.
 *
 * @example
 * await olderTransactionsEnded(url);
 */
export async function olderTransactionsEnded(url: string): Promise<void> {
  const db = connect<EventStoreTables>(url, {
    maxConnections: 1,
    applicationName: 'event-store-contract-settle',
  });
  try {
    const deadline = Date.now() + GIVE_UP_MS;
    for (;;) {
      const { rows } = await sql<{ ended: boolean }>`
        SELECT coalesce(es_horizon() > max(transaction_id), true) AS ended
          FROM es_event`.execute(db);
      if (rows[0]?.ended === true) return;
      if (Date.now() > deadline)
        throw new Error(
          `A transaction older than the newest event was still running after ${String(GIVE_UP_MS)} ms.`,
        );
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    await db.destroy();
  }
}
