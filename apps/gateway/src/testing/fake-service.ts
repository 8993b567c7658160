// A stand-in for one service behind the gateway: a real HTTP server on a free
// port that records what reached it and answers as the request asks it to,
// through x-fake-* headers (status, a hung answer, a dropped connection).
import { connect } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type Readiness = 'ready' | 'not_ready' | 'hang';

export interface FakeService {
  name: string;
  url: string;
  received: ReceivedRequest[];
  /** What its GET /ready does: answer 200, answer 503, or never answer. */
  setReadiness(readiness: Readiness): void;
  close(): Promise<void>;
}

function header(
  request: { headers: ReceivedRequest['headers'] },
  name: string,
): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

async function listenOnFreePort(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const [address] = app.addresses();
  if (address === undefined || typeof address === 'string') throw new Error('no TCP address');
  return `http://127.0.0.1:${String(address.port)}`;
}

export async function startFakeService(name: string): Promise<FakeService> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const received: ReceivedRequest[] = [];
  const hung: (() => void)[] = [];
  let readiness: Readiness = 'ready';

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    done(null, body);
  });
  const hang = (): Promise<void> => new Promise<void>((resolve) => hung.push(resolve));
  app.get('/ready', async (_request, reply) => {
    if (readiness === 'hang') await hang();
    return readiness === 'ready'
      ? reply.send({ status: 'ready', checks: { database: 'ok' } })
      : reply.code(503).type('application/problem+json').send({ code: 'NOT_READY' });
  });
  app.get('/health', () => ({ status: 'ok' }));
  app.all('/*', async (request, reply) => {
    const body = typeof request.body === 'string' ? request.body : '';
    received.push({ method: request.method, url: request.url, headers: request.headers, body });
    const behaviour = header(request, 'x-fake-behaviour');
    if (behaviour === 'hang') await hang();
    if (behaviour === 'drop') {
      request.raw.socket.destroy();
      return reply;
    }
    const status = Number(header(request, 'x-fake-status') ?? '200');
    if (header(request, 'x-fake-replayed') === 'true') reply.header('idempotent-replayed', 'true');
    const location = header(request, 'x-fake-location');
    if (location !== undefined) reply.header('location', location);
    return reply
      .code(status)
      .header('x-fake-service', name)
      .type(status >= 400 ? 'application/problem+json' : 'application/json')
      .send({ service: name, method: request.method, url: request.url, body });
  });

  return {
    name,
    url: await listenOnFreePort(app),
    received,
    setReadiness: (value) => {
      readiness = value;
    },
    close: async () => {
      hung.forEach((release) => {
        release();
      });
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
    },
  };
}

/**
 * A URL where nothing listens: port 1 of the loopback address, which only a
 * privileged tcpmux server would take. Not a port that was free a moment ago:
 * the next `listen(0)` (a fake service of this very test, or a stack of the
 * e2e run beside it) may be given that port, and the "dead" service answers.
 */
export async function closedServiceUrl(): Promise<string> {
  const url = 'http://127.0.0.1:1';
  await new Promise<void>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: 1 });
    socket.once('connect', () => {
      socket.destroy();
      reject(new Error(`${url} is meant to refuse connections, but something listens there`));
    });
    socket.once('error', () => {
      resolve();
    });
  });
  return url;
}
