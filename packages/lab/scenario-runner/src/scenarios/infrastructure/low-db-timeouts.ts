// statement_timeout and idle_in_transaction_session_timeout set low on every
// database of the stack, as a DBA guarding a shared server would: a statement
// queued behind a lock is cancelled, a transaction that sits idle loses its
// session. Both are failures a later delivery gets past, so the message is
// handed back and redelivered, never parked, and nothing is applied twice.
import { connect } from '@effectively-once/postgres';
import { sql, type Kysely } from 'kysely';
import type { Scenario, ScenarioContext } from '../../scenario.js';
import { serviceDatabase } from '../../stack/lab-stack.js';
import { RESERVATION, entry } from '../support.js';
import {
  reconnectServices,
  resetDatabaseDefaults,
  setDatabaseDefaults,
} from './database-settings.js';
import {
  placeSteadyOrders,
  waitForLastEffects,
  waitForServicesReady,
  waitForTerminal,
} from './order-load.js';
import { expectNoRestart, processStarts } from './process-starts.js';
import { databaseNameOf, openAdmin } from './stack-sessions.js';

/** The settings this scenario sets; the soak's `db-timeouts-low` fault sets the same. */
export const LOW_DB_TIMEOUTS = {
  statement_timeout: '500ms',
  idle_in_transaction_session_timeout: '1s',
} as const;
const LOW = LOW_DB_TIMEOUTS;
/** LOW's idle_in_transaction_session_timeout ('1s') in ms, for the runner's own waits: change both together. */
const IDLE_TIMEOUT_MS = 1_000;
/** How long the runner keeps the stock table locked: well past the statement timeout. */
const LOCK_HELD_MS = 2_000;
const LOAD_ORDERS = 6;

/**
 * Locks inventory's stock table against writers from a session of the
 * runner's own, which lifts both timeouts for itself: its lock must outlive
 * the services' statements. A table lock, not a row lock (SELECT ... FOR
 * UPDATE): a row lock gives the transaction an xid, and an open xid anywhere
 * on the server holds back every event delivery of the embedded store until
 * it ends (docs/event-store.md, held-back events), so the reservation would
 * never be delivered while the lock stands.
 */
async function lockStockTable(context: ScenarioContext, heldMs: number) {
  const db = connect<unknown>(serviceDatabase(context.stack, 'inventory'), {
    maxConnections: 1,
    applicationName: 'lab-faults-lock',
  });
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const transaction = db.transaction().execute(async (trx) => {
    await sql`SET LOCAL statement_timeout = 0`.execute(trx);
    await sql`SET LOCAL idle_in_transaction_session_timeout = 0`.execute(trx);
    await sql`LOCK TABLE inventory IN EXCLUSIVE MODE`.execute(trx);
    locked();
    await new Promise((resolve) => setTimeout(resolve, heldMs));
  });
  await Promise.race([isLocked, transaction]);
  return { unlocked: transaction.finally(() => db.destroy()) };
}

/** A reservation waits on the locked table until statement_timeout cancels it. */
async function statementTimeoutFires(context: ScenarioContext, sku: string): Promise<void> {
  const { unlocked } = await lockStockTable(context, LOCK_HELD_MS);
  context.step(
    `the runner locks inventory's stock table against writes for ${String(LOCK_HELD_MS)} ms`,
  );
  const orderId = await context.placeOrder({ sku, quantity: 1 });
  const handedBack = await context.waitForJournal(
    'the reservation queued on the lock to be cancelled and handed back',
    entry({ kind: 'handed-back', consumer: RESERVATION, orderId }),
  );
  const reason = handedBack.detail['reason'] ?? '';
  context.expect(
    'statement_timeout cancelled the reservation that waited on the lock (SQLSTATE 57014)',
    reason.includes('57014'),
    reason,
  );
  await unlocked;
  context.step('the lock is released');
  // Its redeliveries are over before the next step arms a hold they could meet.
  await context.waitForOrder(orderId, ['awaiting_payment', 'confirmed']);
}

/**
 * Sessions of the database the server ended with a FATAL error, as
 * idle_in_transaction_session_timeout does (pg_terminate_backend counts as
 * sessions_killed instead, statement_timeout ends no session).
 */
async function fatalSessions(admin: Kysely<unknown>, database: string): Promise<number> {
  const { rows } = await sql<{ fatal: number }>`
    SELECT sessions_fatal::int AS fatal FROM pg_stat_database WHERE datname = ${database}`.execute(
    admin,
  );
  return rows[0]?.fatal ?? 0;
}

/**
 * Sessions of the database idle in a transaction for longer than the idle
 * timeout: none once the server has ended them.
 */
async function overdueIdleSessions(admin: Kysely<unknown>, database: string): Promise<number> {
  const { rows } = await sql<{ overdue: number }>`
    SELECT count(*)::int AS overdue FROM pg_stat_activity
     WHERE datname = ${database} AND state = 'idle in transaction'
       AND state_change < now() - ${LOW.idle_in_transaction_session_timeout}::interval`.execute(
    admin,
  );
  return rows[0]?.overdue ?? 0;
}

/**
 * A delivery held by the lab right after its claim sits idle in its
 * transaction: the server ends that session after the idle timeout.
 */
async function idleTimeoutFires(context: ScenarioContext, sku: string): Promise<void> {
  const admin = openAdmin(context.stack);
  const inventory = databaseNameOf(serviceDatabase(context.stack, 'inventory'));
  try {
    const fatalBefore = await fatalSessions(admin, inventory);
    await context.lab.armInventory({
      point: 'after-claim',
      action: 'hold',
      match: { consumer: RESERVATION, eventType: 'OrderPlaced' },
      times: 1,
    });
    const orderId = await context.placeOrder({ sku, quantity: 1 });
    await context.waitForJournal(
      'the reservation to be held after its claim, in its transaction',
      entry({ kind: 'held', consumer: RESERVATION, orderId }),
    );
    // Another inventory session idle in a transaction (a relay's, the other
    // consumer's) can be ended first and raise the count alone: so the held
    // session is waited for by age too. Past twice the timeout it has been idle
    // longer than the timeout, and it is gone only once nothing that old is left.
    await new Promise((resolve) => setTimeout(resolve, 2 * IDLE_TIMEOUT_MS));
    const ended = await context.waitUntil(
      'the server to end the session idle in the held transaction',
      async () => {
        const fatal = (await fatalSessions(admin, inventory)) - fatalBefore;
        const overdue = await overdueIdleSessions(admin, inventory);
        return fatal > 0 && overdue === 0 ? fatal : undefined;
      },
      10_000,
    );
    context.expect(
      'idle_in_transaction_session_timeout ended the held transaction’s session (pg_stat_database.sessions_fatal rose)',
      ended > 0,
      `${String(ended)} session(s)`,
    );
    await context.lab.release('inventory', { then: 'continue' });
    await context.lab.release('inventory-2', { then: 'continue' });
    // The other inventory process's hold, if it never caught a message, goes too.
    await context.lab.disarm('inventory');
    await context.lab.disarm('inventory-2');
    await context.waitForJournal(
      'the held reservation to fail on its lost session and be handed back',
      entry({ kind: 'handed-back', consumer: RESERVATION, orderId }),
    );
  } finally {
    await admin.destroy();
  }
}

export const lowDbTimeouts: Scenario = {
  name: 'low-db-timeouts',
  title: 'statement_timeout and idle_in_transaction_session_timeout set low on every database',
  summary: `ALTER DATABASE sets statement_timeout to ${LOW.statement_timeout} and idle_in_transaction_session_timeout to ${LOW.idle_in_transaction_session_timeout} on every database of the stack, and the services' sessions are ended so their pools reconnect with them. A reservation queued behind a table lock the runner holds is cancelled, a reservation held by the lab inside its transaction loses its session; both are handed back and redelivered, orders keep flowing, and the settings are reset at the end.`,
  infrastructure: true,
  async run(context) {
    const sku = await context.freshSku(2 + LOAD_ORDERS);
    const starts = await processStarts(context);
    const admin = openAdmin(context.stack);
    try {
      await setDatabaseDefaults(admin, context.stack, LOW);
      const ended = await reconnectServices(admin, context.stack);
      context.step(
        `set ${Object.entries(LOW)
          .map(([name, value]) => `${name}=${value}`)
          .join(
            ', ',
          )} on every database; ended ${String(ended)} sessions so the pools reconnect with them`,
      );
      await waitForServicesReady(context);
      await statementTimeoutFires(context, sku);
      await idleTimeoutFires(context, sku);
      const load = await placeSteadyOrders(context, { sku, count: LOAD_ORDERS, intervalMs: 200 });
      context.step(`placed ${String(LOAD_ORDERS)} more orders under the low timeouts`);
      const confirmed = await waitForTerminal(context, context.orderIds);
      context.expect(
        `all ${String(context.orderIds.length)} orders were confirmed`,
        confirmed === context.orderIds.length,
        `${String(confirmed)} confirmed, ${String(load.retried)} POSTs retried`,
      );
      await waitForLastEffects(context, context.orderIds);
    } finally {
      await resetDatabaseDefaults(admin, context.stack, Object.keys(LOW));
      await reconnectServices(admin, context.stack);
      await admin.destroy();
      context.step('reset both settings and ended the sessions that had them');
      // The runner's lab reset comes next, also after a failure: services first.
      await waitForServicesReady(context);
    }
    await expectNoRestart(context, starts);
  },
};
