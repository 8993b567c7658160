// The framing as bytes, and a real stream over HTTP (no database involved):
// headers, retry, messages, keep-alives, and both ways of ending it.
import { createHttpServer, type FastifyZodInstance } from '@effectively-once/service-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { openSseStream } from './testing/sse-client.js';
import { closeSseChannels, formatSseMessage, openSse, type SseChannel } from './sse.js';

describe('formatSseMessage', () => {
  it('writes a default-event message as one data line and a blank line', () => {
    expect(formatSseMessage({ kind: 'x', text: 'two\nlines' })).toBe(
      'data: {"kind":"x","text":"two\\nlines"}\n\n',
    );
  });

  it('writes id and event before the data when given', () => {
    expect(formatSseMessage({ a: 1 }, { id: 7 })).toBe('id: 7\ndata: {"a":1}\n\n');
    expect(formatSseMessage({}, { event: 'caught-up' })).toBe('event: caught-up\ndata: {}\n\n');
  });
});

describe('openSse', () => {
  let app: FastifyZodInstance | undefined;
  afterEach(async () => {
    // fetch (undici) may leave a fresh, request-less connection behind after an abort,
    // which server.close would wait for until it times out.
    app?.server.closeAllConnections();
    await app?.close();
    app = undefined;
  });

  async function serve(onOpen: (channel: SseChannel) => void): Promise<string> {
    const server = createHttpServer({ service: 'test', logger: false });
    server.get('/stream', (request, reply) => {
      onOpen(openSse(request, reply, { heartbeatMs: 20 }));
    });
    server.addHook('preClose', (done) => {
      closeSseChannels(server.server);
      done();
    });
    await server.listen({ host: '127.0.0.1', port: 0 });
    app = server;
    const address = server.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    return `http://127.0.0.1:${String(address.port)}/stream`;
  }

  it('sends the SSE headers, retry, the messages and keep-alive comments', async () => {
    // Given a route that sends one message when the stream opens
    const url = await serve((channel) => {
      channel.send({ hello: 'world' }, { id: 1 });
    });

    // When a client reads it
    const stream = await openSseStream(url);
    const retry = await stream.until((block) => block.retry !== undefined);
    const message = await stream.until((block) => block.data !== undefined);
    const keepAlive = await stream.until((block) => block.comments.includes('keep-alive'));
    stream.close();

    // Then the headers, the retry, the message with its id, and a keep-alive came
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers.get('cache-control')).toBe('no-store');
    expect(stream.response.headers.get('x-accel-buffering')).toBe('no');
    expect(stream.response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(retry.retry).toBe(2000);
    expect(message).toMatchObject({ id: '1', event: 'message', data: '{"hello":"world"}' });
    expect(keepAlive.data).toBeUndefined();
  });

  it('notices when the client goes away', async () => {
    // Given an open stream whose close the route waits for
    let closed: (() => void) | undefined;
    const whenClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    let opened: SseChannel | undefined;
    const url = await serve((channel) => {
      opened = channel;
      channel.onClose(() => closed?.());
    });
    const stream = await openSseStream(url);
    await stream.until((block) => block.retry !== undefined);

    // When the client aborts
    stream.close();

    // Then the channel is closed and its listeners ran
    await whenClosed;
    expect(opened?.closed).toBe(true);
  });

  it('ends open streams when the server closes, so close does not hang', async () => {
    // Given an open stream
    const url = await serve(() => undefined);
    const stream = await openSseStream(url);
    await stream.until((block) => block.retry !== undefined);

    // When the server closes, then it does, and the client's stream ends
    await app?.close();
    app = undefined;
    await stream.ended;
    expect(stream.blocks.map((block) => block.retry)).toEqual([2000]);
  });
});
