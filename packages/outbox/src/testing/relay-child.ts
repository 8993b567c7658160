// A relay in a process of its own, for the tests that kill one (does the lock
// pass on?) or watch one exit (did close() leave anything running?).
// Prints one JSON line per step on stdout; logs go to stderr.
import { createPostgresEventStore } from '@effectively-once/event-store-postgres';
import { connect } from '@effectively-once/postgres';
import { z } from 'zod';
import { startOutboxRelay } from '../outbox-relay.js';
import type { OutboxTables } from '../outbox.table.js';

const RelayChildArgsSchema = z.object({
  databaseUrl: z.string().min(1),
  storeUrl: z.string().min(1),
  lock: z.enum(['session', 'transaction']),
  /** `hold`: keep running until killed; `close`: close everything, then end by itself. */
  then: z.enum(['hold', 'close']),
});
export type RelayChildArgs = z.infer<typeof RelayChildArgsSchema>;

const args = RelayChildArgsSchema.parse(JSON.parse(process.argv[2] ?? 'null'));
const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
const toStderr = (message: string) => process.stderr.write(`relay-child: ${message}\n`);

const db = connect<OutboxTables>(args.databaseUrl, { maxConnections: 2 });
const store = createPostgresEventStore({ url: args.storeUrl, maxConnections: 2 });
const relay = startOutboxRelay({
  db,
  store,
  ...(args.lock === 'session' ? { databaseUrl: args.databaseUrl } : {}),
  log: { info: toStderr, warn: toStderr, error: toStderr },
});
say({ step: 'flushed', published: await relay.flush(), pid: process.pid });
if (args.then === 'close') {
  await relay.close();
  await store.close();
  await db.destroy();
  say({ step: 'closed' });
}
