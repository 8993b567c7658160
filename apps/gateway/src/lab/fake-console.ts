// A stand-in for the console behind the gateway: records what reached it,
// answers plain requests with what it got, and serves an event stream that
// sends a comment at once and an event after `lateMs`, noting when the
// stream's connection closes.
import Fastify from 'fastify';
import { z } from 'zod';
import type { ReceivedRequest } from '../testing/fake-service.js';

export interface FakeConsole {
  url: string;
  received: ReceivedRequest[];
  /** Resolves when the connection of the event stream opened last has closed. */
  lastStreamClosed(): Promise<void>;
  close(): Promise<void>;
}

const StreamQuery = z.object({ lateMs: z.coerce.number().int().nonnegative().default(0) });

export async function startFakeConsole(): Promise<FakeConsole> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const received: ReceivedRequest[] = [];
  let lastStreamClosed: Promise<void> | undefined;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    done(null, body);
  });
  app.get('/api/console/stream', (request, reply) => {
    const { lateMs } = StreamQuery.parse(request.query);
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    reply.raw.write(': open\n\n');
    const late = setTimeout(() => reply.raw.write('data: {"late":true}\n\n'), lateMs);
    lastStreamClosed = new Promise((resolve) => {
      reply.raw.once('close', () => {
        clearTimeout(late);
        resolve();
      });
    });
  });
  app.all('/*', (request, reply) => {
    const body = typeof request.body === 'string' ? request.body : '';
    received.push({ method: request.method, url: request.url, headers: request.headers, body });
    return reply.send({ console: true, method: request.method, url: request.url, body });
  });

  await app.listen({ host: '127.0.0.1', port: 0 });
  const [address] = app.addresses();
  if (address === undefined || typeof address === 'string') throw new Error('no TCP address');
  return {
    url: `http://127.0.0.1:${String(address.port)}`,
    received,
    lastStreamClosed: () => {
      if (lastStreamClosed === undefined) throw new Error('no event stream was opened yet');
      return lastStreamClosed;
    },
    close: () => app.close(),
  };
}
