// `pnpm timeline`: plays the pattern's failure timeline
// against a real PostgreSQL server and prints each step and the final state.
//
//   delivery A claims the message and commits, then its process is killed
//   before it can acknowledge; the broker redelivers it as delivery B, which
//   finds the marker, skips the work and acknowledges.
import { randomUUID } from 'node:crypto';
import {
  connect,
  createDatabase,
  migrateToLatest,
  startPostgres,
} from '@effectively-once/postgres';
import type { Kysely } from 'kysely';
import { findMarker } from '../../src/index.js';
import type { InventoryDatabase } from '../inventory/inventory.tables.js';
import { inventoryMigrations } from '../inventory/migrations.js';
import {
  inventoryReservation,
  restock,
  stockOf,
  type OrderLinePlaced,
} from '../inventory/reserve-stock.js';
import type { ConsumerProcessArgs, Step } from './consumer-process.js';
import { runConsumerProcess } from './run-consumer-process.js';
import { parseCommandLine } from '../../../../tooling/command-line/command-line.js';

parseCommandLine({
  name: 'timeline',
  usage: `usage: pnpm timeline

Plays the pattern's failure timeline against a real PostgreSQL server (embedded
unless DATABASE_URL is set): delivery A commits and is killed before its ack, the
redelivery B finds the marker and skips the work. Prints each step and the state.`,
});

const startedAt = performance.now();
const say = (text: string) => {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(2).padStart(6);
  console.log(`+${seconds}s  ${text}`);
};

function narrate(label: string) {
  return (step: Step): void => {
    switch (step.step) {
      case 'delivered':
        say(`${label} (pid ${String(step.pid)}) receives the message and opens a transaction`);
        break;
      case 'committed':
        say(
          `${label}: claim ${step.outcome === 'applied' ? 'returned a row: work done' : 'returned no row: duplicate, work skipped'}; COMMIT returned`,
        );
        break;
      case 'crashing':
        say(`${label}: killed with ${step.signal} before acknowledging`);
        break;
      case 'acknowledged':
        say(`${label}: acknowledged to the broker`);
        break;
      case 'not-acknowledged':
        say(`${label}: NOT acknowledged: ${step.reason}`);
        break;
    }
  };
}

async function deliver(label: string, args: ConsumerProcessArgs): Promise<void> {
  const run = await runConsumerProcess(args, narrate(label));
  say(`${label}: process ended (${run.signal ?? `exit code ${String(run.exitCode)}`})`);
}

async function showState(
  db: Kysely<InventoryDatabase>,
  line: OrderLinePlaced,
): Promise<{ available: number; reserved: number; markers: number }> {
  const stock = await stockOf(db, line.sku);
  const marker = await findMarker(db, inventoryReservation.name, line.id);
  const markers = marker === undefined ? 0 : 1;
  say(
    `state: ${line.sku} available=${String(stock.available)} reserved=${String(stock.reserved)}; marker (${inventoryReservation.name}, ${line.id.slice(0, 8)}…) ${markers ? 'exists' : 'absent'}`,
  );
  return { available: stock.available, reserved: stock.reserved, markers };
}

say('starting PostgreSQL (embedded unless DATABASE_URL is set)');
const server = await startPostgres();
let verdictHolds: boolean;
try {
  const url = await createDatabase(server.adminUrl, 'effectively_once_timeline');
  const db = connect<InventoryDatabase>(url, { maxConnections: 2 });
  await migrateToLatest(db as Kysely<unknown>, inventoryMigrations);
  const line: OrderLinePlaced = {
    id: randomUUID(),
    type: 'OrderPlaced',
    orderId: `order-${randomUUID().slice(0, 8)}`,
    sku: `widget-${randomUUID().slice(0, 8)}`,
    quantity: 1,
  };
  await restock(db, line.sku, 10);
  say(
    `PostgreSQL ${server.kind}; stocked 10 × ${line.sku}; message ${line.id} (OrderPlaced, 1 unit)`,
  );
  await showState(db, line);

  await deliver('delivery A', { databaseUrl: url, line, crashBeforeAck: true });
  await showState(db, line);
  say('the broker never heard an acknowledgment, so it redelivers the same message id');
  await deliver('delivery B', { databaseUrl: url, line, crashBeforeAck: false });
  const final = await showState(db, line);

  verdictHolds = final.available === 9 && final.reserved === 1 && final.markers === 1;
  say(
    verdictHolds
      ? 'verdict: two deliveries, one committed effect (stock fell once, one marker). The invariant holds.'
      : 'verdict: the invariant is BROKEN: expected available=9 reserved=1 with one marker.',
  );
  await db.destroy();
} finally {
  await server.stop();
  say('PostgreSQL stopped');
}
process.exitCode = verdictHolds ? 0 : 1;
