// A process that opens the lab on the database in argv[2], arms a crash right
// after the claim of the message in argv[3], and processes that message, for
// crash.int.spec.ts. It never exits on its own: the fault kills it.
import {
  defineConsumer,
  processOnce,
  withProcessingHooks,
  type IdempotencyTables,
} from '@effectively-once/idempotency';
import { connect } from '@effectively-once/postgres';
import { createHttpServer } from '@effectively-once/service-kit';
import { sql } from 'kysely';
import type { LabTables } from '../lab.tables.js';
import { openFaultInjection } from '../open-fault-injection.js';

const [databaseUrl, messageId] = process.argv.slice(2);
if (databaseUrl === undefined || messageId === undefined) {
  throw new Error('Usage: crash-child.ts <database url> <message id>');
}
const token = 'a-lab-token-of-sixteen-or-more';
const app = createHttpServer({ service: 'crash-test', logLevel: 'info' });
const db = connect<IdempotencyTables & LabTables & { crash_tally: { message_id: string } }>(
  databaseUrl,
  { applicationName: 'crash-child' },
);
const lab = await openFaultInjection({
  service: 'crash-test',
  config: { enabled: true, token },
  db,
  log: app.log,
});
if (lab === undefined) throw new Error('The lab did not open.');
lab.registerRoutes(app);
const consumer = defineConsumer({ name: 'crash-tally-v1' });
const armed = await app.inject({
  method: 'POST',
  url: '/admin/lab/faults',
  headers: { authorization: `Bearer ${token}` },
  payload: { point: 'after-business', action: 'crash', match: { consumer: consumer.name } },
});
app.log.info({ status: armed.statusCode }, 'crash armed');
await withProcessingHooks(lab, () =>
  processOnce({
    db,
    consumer,
    message: { id: messageId, type: 'OrderPlaced' },
    work: (trx) => sql`INSERT INTO crash_tally (message_id) VALUES (${messageId})`.execute(trx),
  }),
);
app.log.info('still alive after the crash point');
