// The composition root as the supervisor runs it: a child process with an IPC
// channel and the stack in CONSOLE_STACK, on a real event store. Outcomes sent
// over the channel reach a page's stream; closing the channel stops it.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { CONSUMERS, orderStream } from '@effectively-once/contracts';
import { type DeliveryOutcomeMessage } from '@effectively-once/stack-protocol';
import {
  createPostgresEventStore,
  eventStoreMigrations,
} from '@effectively-once/event-store-postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConsoleStatus, OrderTrace } from './api/console.api.js';
import { openSseStream } from './live/testing/sse-client.js';
import { oneDatabaseForAll, testStackTarget } from './testing/stack-target.fixtures.js';
import { exportRequest, span } from './traces/testing/otlp.fixtures.js';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const LogLine = z.looseObject({ msg: z.string() });

const { url } = await createTestDatabase(eventStoreMigrations);
const stack = testStackTarget({ databases: oneDatabaseForAll(url) });

const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
  cwd: REPO_ROOT,
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', CONSOLE_STACK: JSON.stringify(stack) },
});
const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});
const baseUrl = await new Promise<string>((resolve, reject) => {
  let pending = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (pending + chunk).split('\n');
    pending = parts.pop() ?? '';
    for (const part of parts.filter((text) => text.trim() !== '')) {
      const { msg } = LogLine.parse(JSON.parse(part));
      const listening = /^console listening on (http:\/\/\S+)$/.exec(msg);
      if (listening?.[1] !== undefined) resolve(listening[1]);
    }
  });
  child.once('exit', (code) => reject(new Error(`The console exited with ${String(code)}.`)));
});

describe('server.ts', () => {
  it('is ready, and says outcomes come from the delivery log when it has a channel', async () => {
    const ready = await fetch(`${baseUrl}/ready`);
    const status = ConsoleStatus.parse(await (await fetch(`${baseUrl}/api/console/status`)).json());

    expect(ready.status).toBe(200);
    expect(status).toMatchObject({
      labMode: false,
      operatorActions: false,
      outcomeSource: 'delivery-log',
      eventStore: 'postgres',
    });
  });

  it('streams an outcome the supervisor sends over IPC to the order\u2019s page', async () => {
    // Given a page watching an order
    const orderId = randomUUID();
    const stream = await openSseStream(`${baseUrl}/api/console/events?orderId=${orderId}`);
    await stream.until((block) => block.event === 'caught-up');

    // When the supervisor forwards a delivery outcome of that order
    const outcome: DeliveryOutcomeMessage = {
      type: 'delivery-outcome',
      service: 'inventory',
      pid: 1,
      at: new Date().toISOString(),
      messageId: randomUUID(),
      consumer: CONSUMERS.inventoryReservation,
      eventType: 'OrderPlaced',
      streamName: orderStream(orderId),
      orderId,
      traceId: null,
      retryCount: 0,
      outcome: 'applied',
      settlement: 'ack',
      durationMs: 1,
      reason: null,
    };
    child.send(outcome);

    // Then the page gets it
    const delivered = await stream.until(
      (block) => block.data?.includes(outcome.messageId) ?? false,
    );
    stream.close();
    expect(delivered.id).toMatch(/^\d+$/);
  });

  it('receives the stack’s spans on /v1/traces and shows them as the trace of the order whose events carry it', async () => {
    // Given an order whose event carries trace T
    const orderId = randomUUID();
    const traceId = randomUUID().replaceAll('-', '');
    const store = createPostgresEventStore({ url, pollIntervalMs: 100 });
    await store.appendToStream(
      orderStream(orderId),
      [
        {
          id: randomUUID(),
          type: 'OrderPlaced',
          data: { orderId },
          metadata: { correlationId: orderId, traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    await store.close();

    // When a process exports a span of T to the console, as the supervisor points it to
    const exported = await fetch(`${baseUrl}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(exportRequest([{ ...span('1', { name: 'POST /orders' }), traceId }])),
    });

    // Then the order's trace shows it
    expect(exported.status).toBe(200);
    const trace = OrderTrace.parse(
      await (await fetch(`${baseUrl}/api/console/orders/${orderId}/trace`)).json(),
    );
    expect(trace).toMatchObject({ traceId, emptyReason: null, rows: [{ name: 'POST /orders' }] });
  });

  // Keep this test last: it ends the child process every test above talks to.
  it('stops, exit code 0, when the supervisor\u2019s channel closes', async () => {
    child.disconnect();

    expect(await exited).toBe(0);
  });
});
