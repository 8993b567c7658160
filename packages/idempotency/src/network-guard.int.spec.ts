// The network guard of the test kit, proven both ways: a work that opens a
// connection while processOnce's transaction is open fails with a message that
// names the consumer and the rule; the same call outside the transaction, and
// a second PostgreSQL connection inside it, pass.
import { createServer, connect as netConnect, type Server } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inventoryMigrations, type InventoryDatabase } from '../examples/inventory/index.js';
import { defineConsumer } from './consumer.js';
import { processOnce } from './process-once.js';
import { processBatchOnce } from './process-batch-once.js';
import {
  guardNetworkInsideTransactions,
  NETWORK_GUARD_DOC,
  type NetworkGuard,
} from './testing/index.js';
import { randomUUID } from 'node:crypto';

const { db, url, connect } = await createTestDatabase<InventoryDatabase>(inventoryMigrations);
const consumer = defineConsumer({ name: 'network-guard-proof-v1' });
const message = () => ({ id: randomUUID(), type: 'OrderPlaced' });

const http = createHttpServer((_request, response) => response.end('ok'));
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const httpUrl = `http://127.0.0.1:${String(portOf(http))}/`;
afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

function portOf(server: Server | ReturnType<typeof createHttpServer>): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A raw TCP connect that resolves once connected: what an SMTP client does first. */
async function openSocket(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const socket = netConnect({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve();
    });
    socket.on('error', reject);
  });
}

let guard: NetworkGuard;
beforeEach(() => {
  guard = guardNetworkInsideTransactions({ allow: [url] });
});
afterEach(() => guard.uninstall());

const markers = (id: string) =>
  db.selectFrom('processed_message').select('message_id').where('message_id', '=', id).execute();

describe('guardNetworkInsideTransactions', () => {
  it('given a work that fetches over HTTP inside processOnce, then the work fails and the guard names the consumer and the rule', async () => {
    const msg = message();

    // eslint-disable-next-line effectively-once/no-network-in-process-once-work -- the case under test: the runtime guard must catch what the lint rule forbids.
    const run = processOnce({ db, consumer, message: msg, work: () => fetch(httpUrl) });

    await expect(run).rejects.toMatchObject({ name: 'ConsumerFailure' });
    expect(guard.violations).toEqual([
      expect.objectContaining({
        consumer: consumer.name,
        messageId: msg.id,
        target: `127.0.0.1:${String(portOf(http))}`,
      }),
    ]);
    expect(() => guard.assertNone()).toThrow(
      `network call inside processOnce's transaction for consumer ${consumer.name}`,
    );
    expect(() => guard.assertNone()).toThrow(NETWORK_GUARD_DOC);
    expect(await markers(msg.id)).toEqual([]);
  });

  it('given a work that opens a raw TCP connection inside processOnce, then it fails with the clear message itself', async () => {
    const run = processOnce({
      db,
      consumer,
      message: message(),
      work: () => openSocket(portOf(http)),
    });

    await expect(run).rejects.toThrow(
      `network call inside processOnce's transaction for consumer ${consumer.name}`,
    );
    expect(guard.violations).toHaveLength(1);
  });

  it('given a work inside processBatchOnce that connects, then it is flagged the same way', async () => {
    const run = processBatchOnce({
      db,
      consumer,
      messages: [message(), message()],
      work: () => openSocket(portOf(http)),
    });

    await expect(run).rejects.toThrow("network call inside processOnce's transaction");
    expect(guard.violations).toHaveLength(1);
  });

  it('given the same calls before and after processOnce, then nothing is flagged', async () => {
    await (await fetch(httpUrl)).text();

    const result = await processOnce({
      db,
      consumer,
      message: message(),
      work: () => Promise.resolve('no network here'),
    });
    await openSocket(portOf(http));

    expect(result).toMatchObject({ outcome: 'applied' });
    guard.assertNone();
  });

  it('given a work that opens a new connection to the allowed PostgreSQL server, then nothing is flagged', async () => {
    const otherPool = connect({ maxConnections: 1 });

    const result = await processOnce({
      db,
      consumer,
      message: message(),
      work: async () => (await sql<{ one: number }>`select 1 as one`.execute(otherPool)).rows,
    });

    expect(result).toMatchObject({ outcome: 'applied', result: [{ one: 1 }] });
    guard.assertNone();
  });

  it('given a second guard while one is installed, then it is refused', () => {
    expect(() => guardNetworkInsideTransactions()).toThrow('already installed');
  });
});

describe('after uninstall', () => {
  it('given no guard, then a connection inside processOnce is not intercepted', async () => {
    guard.uninstall();
    const server: Server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const result = await processOnce({
        db,
        consumer,
        message: message(),
        work: () => openSocket(portOf(server)),
      });
      expect(result).toMatchObject({ outcome: 'applied' });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
