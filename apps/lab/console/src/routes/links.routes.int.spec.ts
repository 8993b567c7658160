// The network panel's routes where no lab-control server answers them: the
// whole path through the supervisor runs in e2e/lab/console/console-lab.e2e.spec.ts.
import { createServer } from 'node:net';
import { createHttpServer } from '@effectively-once/service-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { testStackTarget, TEST_STACK_PORTS } from '../testing/stack-target.fixtures.js';
import { registerLinkRoutes } from './links.routes.js';

const LAB_TOKEN = 'lab-token-held-by-the-console-22';

/** A port nothing listens on: found free, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

function appFor(stack: ReturnType<typeof testStackTarget>) {
  const app = createHttpServer({ service: 'console', logger: false });
  registerLinkRoutes(app, { config: { stack } });
  return app;
}

const withoutLab = appFor(testStackTarget());
const labControlDown = appFor(
  testStackTarget({
    faults: { enabled: true, token: LAB_TOKEN },
    ports: { ...TEST_STACK_PORTS, inventory2: 3012, labControl: await closedPort() },
  }),
);
afterAll(async () => {
  await withoutLab.close();
  await labControlDown.close();
});

describe('the console’s network links routes', () => {
  it('given a stack without the lab, when the links are asked for, then 409 LAB_MODE_OFF', async () => {
    const response = await withoutLab.inject({ method: 'GET', url: '/api/console/links' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'LAB_MODE_OFF' });
  });

  it('given a stack without the lab, when a fault is posted, then 409 and nothing is called', async () => {
    const response = await withoutLab.inject({
      method: 'POST',
      url: '/api/console/links/smtp/faults',
      payload: { kind: 'reset', durationMs: 1_000 },
    });
    expect(response.statusCode).toBe(409);
  });

  it('given a fault the schema refuses, then 400 before the supervisor is asked', async () => {
    const response = await labControlDown.inject({
      method: 'POST',
      url: '/api/console/links/smtp/faults',
      payload: { kind: 'latency', durationMs: 1_000 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('given a lab stack whose lab-control server does not answer, then 502 LAB_CONTROL_FAILED, without the token', async () => {
    const response = await labControlDown.inject({ method: 'GET', url: '/api/console/links' });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ code: 'LAB_CONTROL_FAILED' });
    expect(response.body).not.toContain(LAB_TOKEN);
  });
});
