// The supervisor's own lab API (lab mode only): what no single service can do
// for itself, because it acts on the world around the processes.
//
// Layout, one job per file:
// - server.ts (this file): the Fastify server, the FAULTS_TOKEN check, `GET /lab`.
// - <topic>.routes.ts: one route module per topic, a `LabControlRoutes` value
//   under `/lab/<topic>` (links.routes.ts: the fault proxy's links).
// - main.ts lists the modules it passes to `openLabControl`: adding a
//   topic (postgres.routes.ts, processes.routes.ts) is one more entry there.
import {
  createHttpServer,
  toProblem,
  type FastifyZodInstance,
} from '@effectively-once/service-kit';
import { requireLabToken } from '@effectively-once/fault-injection/lab-token';
import { z } from 'zod';

/**
 * One topic of the lab API. `register` adds its routes to a scope where every
 * request already carries a valid FAULTS_TOKEN.
 *
 * @example
 * const links: LabControlRoutes = { topic: 'links', register: (app) => app.get('/lab/links', () => proxy.links()) };
 */
export interface LabControlRoutes {
  /** The path segment its routes live under (`/lab/<topic>`); listed by `GET /lab`. */
  readonly topic: string;
  register(app: FastifyZodInstance): void;
}

/** `GET /lab`: which topics this supervisor serves, so a client can tell what it may ask. */
export const LabControlStatus = z.object({ topics: z.array(z.string()) });
export type LabControlStatus = z.infer<typeof LabControlStatus>;

export interface LabControlInput {
  readonly token: string;
  readonly routes: readonly LabControlRoutes[];
  /** Where a request that failed with a server error is reported (the supervisor's log). */
  readonly onServerError?: (message: string) => void;
}

/**
 * The lab-control app without a socket: tests call `inject` on it.
 *
 * @example
 * const app = buildLabControlApp({ token, routes: [linkRoutes(proxy)] });
 */
export function buildLabControlApp(input: LabControlInput): FastifyZodInstance {
  // No pino: the supervisor prints its own lines, and JSON lines would break its log.
  const app = createHttpServer({ service: 'supervisor-lab-control', logger: false });
  app.get('/ready', () => ({ status: 'ready' }));
  void app.register((scope: FastifyZodInstance, _options, done) => {
    // Before the body is parsed: a caller without the token learns nothing else.
    scope.addHook('onRequest', requireLabToken(input.token));
    scope.get('/lab', { schema: { response: { 200: LabControlStatus } } }, () => ({
      topics: input.routes.map((routes) => routes.topic),
    }));
    for (const routes of input.routes) routes.register(scope);
    done();
  });
  app.addHook('onError', (request, reply, error, done) => {
    if (toProblem(error).status >= 500) {
      input.onServerError?.(
        `lab-control ${request.method} ${request.url} failed: ${error.message}`,
      );
    }
    done();
  });
  return app;
}

export interface LabControlServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Listens on `host:port` (the stack's `labControl` port) until `close`.
 *
 * @example
 * const labControl = await openLabControl({ host, port: ports.labControl, token, routes: [linkRoutes(proxy)] });
 */
export async function openLabControl(
  input: LabControlInput & { readonly host: string; readonly port: number },
): Promise<LabControlServer> {
  const app = buildLabControlApp(input);
  await app.listen({ host: input.host, port: input.port });
  return {
    url: `http://${input.host}:${String(input.port)}`,
    close: () => app.close(),
  };
}
