// The console through the gateway: its three prefixes reach it as they came,
// and an event stream lives as long as the browser keeps it open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeConsole, type FakeConsole } from './fake-console.js';
import { startGatewayUnderTest, type GatewayUnderTest } from '../testing/gateway-under-test.js';
import { labGateway } from './lab-gateway.js';

const UPSTREAM_TIMEOUT_MS = 300;
/**
 * The quiet gap in the test streams. undici checks its body timeout on a
 * coarse clock (a tick about every half second), so the gap is well beyond
 * the timeout for the cut to be certain when the timeout applies.
 */
const QUIET_MS = 3_000;
const EVENT_STREAM = { accept: 'text/event-stream' };

let fakeConsole: FakeConsole;
let gateway: GatewayUnderTest;
beforeAll(async () => {
  fakeConsole = await startFakeConsole();
  gateway = await startGatewayUnderTest({
    options: { extension: labGateway({ consoleUrl: fakeConsole.url }) },
    upstreamTimeoutMs: UPSTREAM_TIMEOUT_MS,
  });
});
afterAll(async () => {
  // The console first: the streams it still holds end, and the gateway can close.
  await fakeConsole.close();
  await gateway.close();
});

/** Reads the body until `marker` shows up, the stream ends, or it breaks. */
async function readUntil(
  response: Response,
  marker: string,
): Promise<{ text: string; broken: boolean }> {
  if (response.body === null) throw new Error('no body');
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (!text.includes(marker)) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return { text, broken: true };
  } finally {
    reader.releaseLock();
  }
  return { text, broken: false };
}

describe('the gateway forwards the console', () => {
  it.each([
    ['GET', '/', '/'],
    ['GET', '/assets/app.js', '/assets/app.js'],
    ['GET', '/api/console/orders/o-1?limit=5', '/api/console/orders/o-1?limit=5'],
    ['POST', '/api/console/parked/replay', '/api/console/parked/replay'],
  ] as const)('%s %s → the console’s %s', async (method, path, upstreamPath) => {
    // When the browser calls the gateway
    const body = method === 'POST' ? JSON.stringify({ consumer: 'order-payment-v1' }) : null;
    const response = await fetch(gateway.url + path, {
      method,
      headers: {
        'content-type': 'application/json',
        origin: gateway.url,
        // A client cannot choose the host the console trusts: the gateway replaces this one.
        'x-forwarded-host': 'evil.example',
      },
      body,
    });

    // Then the console got the same request, body and Origin, and the Host the browser used
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ console: true, method, url: upstreamPath });
    const received = fakeConsole.received.at(-1);
    expect(received).toMatchObject({ method, url: upstreamPath, body: body ?? '' });
    expect(received?.headers['x-forwarded-host']).toBe(new URL(gateway.url).host);
    expect(received?.headers['origin']).toBe(gateway.url);
  });

  it('keeps the JSON index at /api', async () => {
    const response = await fetch(`${gateway.url}/api`);
    expect(await response.json()).toMatchObject({ links: { health: '/api/health' } });
    expect(fakeConsole.received.some((request) => request.url === '/api')).toBe(false);
  });

  it('answers 503 UPSTREAM_UNAVAILABLE when the console is down', async () => {
    const down = await startGatewayUnderTest({
      options: { extension: labGateway({ consoleUrl: 'http://127.0.0.1:9' }) },
    });
    try {
      const response = await fetch(`${down.url}/`);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({
        code: 'UPSTREAM_UNAVAILABLE',
        detail: expect.stringContaining('console') as unknown,
      });
    } finally {
      await down.close();
    }
  });
});

describe('an event stream through the gateway', () => {
  it('stays open longer than the upstream timeout', async () => {
    // Given a stream whose first event comes long after the upstream timeout
    const started = performance.now();
    const response = await fetch(`${gateway.url}/api/console/stream?lateMs=${String(QUIET_MS)}`, {
      headers: EVENT_STREAM,
    });

    // When the browser waits for it
    const { text, broken } = await readUntil(response, '"late":true');

    // Then it arrives through the same response
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(broken).toBe(false);
    expect(text).toBe(': open\n\ndata: {"late":true}\n\n');
    expect(performance.now() - started).toBeGreaterThanOrEqual(QUIET_MS - 50);
    await response.body?.cancel();
  });

  it('is cut after the upstream timeout when the request did not ask for an event stream', async () => {
    const response = await fetch(`${gateway.url}/api/console/stream?lateMs=${String(QUIET_MS)}`);
    const { text, broken } = await readUntil(response, '"late":true');
    expect(text).toBe(': open\n\n');
    expect(broken).toBe(true);
  });

  it('closes the console’s stream when the browser goes away', async () => {
    // Given an open stream that would stay quiet for a minute
    const browser = new AbortController();
    const response = await fetch(`${gateway.url}/api/console/stream?lateMs=60000`, {
      headers: EVENT_STREAM,
      signal: browser.signal,
    });
    await readUntil(response, ': open');
    const closed = fakeConsole.lastStreamClosed();

    // When the browser closes it
    browser.abort();

    // Then the console's end of the stream closes too
    await expect(closed).resolves.toBeUndefined();
  });
});
