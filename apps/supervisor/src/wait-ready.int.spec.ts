// waitUntilReady against a real local HTTP server that answers 503 until told
// otherwise: how often it asks before and after the process says it listens.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntilReady } from './wait-ready.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A /ready that counts its requests and answers 200 once `ready` is set. */
async function readyEndpoint(): Promise<{
  url: string;
  requests: () => number;
  ready: () => void;
}> {
  let count = 0;
  let isReady = false;
  server = createServer((_request, response) => {
    count += 1;
    response.statusCode = isReady ? 200 : 503;
    response.end();
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}/ready`,
    requests: () => count,
    ready: () => {
      isReady = true;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('waitUntilReady', () => {
  it('given no word that the process listens, then it asks seldom, and is ready once /ready answers 200', async () => {
    const endpoint = await readyEndpoint();
    const waiting = waitUntilReady({
      name: 'order',
      url: endpoint.url,
      timeoutMs: 10_000,
      listening: new Promise(() => undefined),
    });

    await sleep(1_200);
    const asked = endpoint.requests();
    endpoint.ready();
    await waiting;

    // Every 250 ms: about five; at the quick pace (25 ms) it would be over forty.
    expect(asked).toBeGreaterThanOrEqual(2);
    expect(asked).toBeLessThanOrEqual(8);
  });

  it('given the word that it listens, then it asks at the quick pace', async () => {
    const endpoint = await readyEndpoint();
    const waiting = waitUntilReady({
      name: 'order',
      url: endpoint.url,
      timeoutMs: 10_000,
      listening: Promise.resolve(),
    });

    await sleep(1_000);
    const asked = endpoint.requests();
    endpoint.ready();
    await waiting;

    // Every 25 ms: over thirty; at the slow pace it would be four or five.
    expect(asked).toBeGreaterThanOrEqual(6);
  });

  it('given the word in the middle of a long pause, then it asks at once', async () => {
    const endpoint = await readyEndpoint();
    let heard: () => void = () => undefined;
    const listening = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const waiting = waitUntilReady({
      name: 'order',
      url: endpoint.url,
      timeoutMs: 30_000,
      listening,
      unheardIntervalMs: 20_000,
    });

    // Its first question came (and was answered 503): now it pauses for 20 s.
    while (endpoint.requests() < 1) await sleep(10);
    await sleep(50);
    endpoint.ready();
    heard();
    const ended = await Promise.race([
      waiting.then(() => 'ready'),
      sleep(10_000).then(() => 'still waiting'),
    ]);

    // Without the word it would ask again only after the 20 s pause.
    expect(ended).toBe('ready');
    expect(endpoint.requests()).toBe(2);
  });
});
