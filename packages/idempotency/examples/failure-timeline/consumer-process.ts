// A consumer as its own OS process: delivers one OrderPlaced line through
// processOnce and the acknowledgment rule, and reports each step as a JSON line
// on stdout. With --crash-before-ack it kills itself with SIGKILL at the exact
// moment it would acknowledge: after COMMIT returned, before the broker heard.
import { connect } from '@effectively-once/postgres';
import { z } from 'zod';
import { processOnce, settleDelivery, type Delivery } from '../../src/index.js';
import type { InventoryDatabase } from '../inventory/inventory.tables.js';
import { inventoryReservation, reserveStock } from '../inventory/reserve-stock.js';

const Args = z.object({
  databaseUrl: z.url(),
  crashBeforeAck: z.boolean(),
  line: z.object({
    id: z.string().min(1),
    type: z.literal('OrderPlaced'),
    orderId: z.string().min(1),
    sku: z.string().min(1),
    quantity: z.number().int().positive(),
  }),
});
export type ConsumerProcessArgs = z.infer<typeof Args>;

export type Step =
  | { step: 'delivered' | 'committed' | 'acknowledged'; pid: number; outcome?: string }
  | { step: 'crashing'; pid: number; signal: 'SIGKILL' }
  | { step: 'not-acknowledged'; pid: number; reason: string };

function say(step: Step): void {
  process.stdout.write(`${JSON.stringify(step)}\n`);
}

const args = Args.parse(JSON.parse(process.argv[2] ?? 'null'));
const db = connect<InventoryDatabase>(args.databaseUrl, { maxConnections: 1 });
const { pid } = process;

const delivery: Delivery = {
  ack: () => {
    if (args.crashBeforeAck) {
      say({ step: 'crashing', pid, signal: 'SIGKILL' });
      process.kill(pid, 'SIGKILL');
    }
    say({ step: 'acknowledged', pid });
    return Promise.resolve();
  },
  nack: (_action, reason) => {
    say({ step: 'not-acknowledged', pid, reason });
    return Promise.resolve();
  },
};

say({ step: 'delivered', pid });
await settleDelivery(delivery, async () => {
  const result = await processOnce({
    db,
    consumer: inventoryReservation,
    message: args.line,
    work: (trx) => reserveStock(trx, args.line),
  });
  say({ step: 'committed', pid, outcome: result.outcome });
  return result;
});
await db.destroy();
