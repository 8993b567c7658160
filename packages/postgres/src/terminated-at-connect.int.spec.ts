// A session the server ends in the same breath as it accepts it: the FATAL
// arrives in the same TCP chunk as the connection's first ReadyForQuery. The
// pool then hands the new client out (its idle listener removed) and the
// 'error' is emitted before the borrower's code has run: with no listener of
// anyone's, an unhandled 'error' event kills the process (found by the
// backend-terminated scenario, which terminates sessions as they appear). A
// byte-level proxy in front of the real server makes that chunk on purpose.
import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from './kysely.js';
import { createTestDatabase } from './testing/test-database.js';

const { url } = await createTestDatabase<unknown>({});

/** An ErrorResponse as the server sends it for pg_terminate_backend. */
function fatalAdminShutdown(): Buffer {
  const fields = Buffer.concat([
    ...[
      ['S', 'FATAL'],
      ['V', 'FATAL'],
      ['C', '57P01'],
      ['M', 'terminating connection due to administrator command'],
    ].map(([code, value]) => Buffer.from(`${code ?? ''}${value ?? ''}\0`)),
    Buffer.from([0]),
  ]);
  const header = Buffer.alloc(5);
  header.write('E', 0);
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
}

/**
 * Forwards bytes both ways; in the server's first chunk that holds a
 * ReadyForQuery ('Z', length 5), appends the FATAL and closes: the client's
 * parser reads both in one go.
 */
function terminatingProxy(target: URL): Promise<net.Server> {
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    let injected = false;
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      const ready = chunk.indexOf(Buffer.from([0x5a, 0, 0, 0, 5]));
      if (injected || ready === -1) {
        client.write(chunk);
        return;
      }
      injected = true;
      client.end(Buffer.concat([chunk, fatalAdminShutdown()]));
      upstream.destroy();
    });
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const proxy = await terminatingProxy(new URL(url));
afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

describe('a session ended as it is accepted', () => {
  it('fails the query that got it, the process lives, and the pool opens another', async () => {
    const viaProxy = new URL(url);
    const address = proxy.address();
    if (address === null || typeof address === 'string') throw new Error('no proxy port');
    viaProxy.port = String(address.port);
    const db = connect<unknown>(viaProxy.toString(), { maxConnections: 1 });
    try {
      const failed = await sql`SELECT 1`.execute(db).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failed).toBeInstanceOf(Error);
      // Every connection through this proxy is ended the same way: the pool
      // must keep opening new ones, not hand out the dead one again.
      const again = await sql`SELECT 1`.execute(db).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(again).toBeInstanceOf(Error);
    } finally {
      await db.destroy();
    }
  });
});
