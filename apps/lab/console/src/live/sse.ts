// Server-sent events over a hijacked Fastify reply: the framing of section 2.6
// (retry, id + data, named events, keep-alive comments) and the bookkeeping of
// a stream that never ends on its own.
import type { Server } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface SseChannel {
  /** One message: `id:` when given, `event:` when named (else EventSource.onmessage gets it), `data:` the JSON. */
  send(data: unknown, options?: { id?: number; event?: string }): void;
  readonly closed: boolean;
  /** Runs once, when the client goes away or close() is called; at once if already closed. */
  onClose(listener: () => void): void;
  close(): void;
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
} as const;

/** How long the browser waits before reconnecting a dropped stream. */
export const SSE_RETRY_MS = 2_000;

/**
 * A client that stops reading would make the server buffer without bound;
 * past this much unsent data the stream is closed, and EventSource reconnects
 * and gets a fresh catch-up.
 */
export const SSE_MAX_BUFFERED_BYTES = 1024 * 1024;

/** Formats one message. JSON.stringify never emits a raw newline, so `data:` stays one line. */
export function formatSseMessage(
  data: unknown,
  options: { id?: number; event?: string } = {},
): string {
  const lines: string[] = [];
  if (options.id !== undefined) lines.push(`id: ${String(options.id)}`);
  if (options.event !== undefined) lines.push(`event: ${options.event}`);
  lines.push(`data: ${JSON.stringify(data)}`);
  return `${lines.join('\n')}\n\n`;
}

export const SSE_KEEP_ALIVE = ': keep-alive\n\n';

// Open streams per HTTP server: Fastify's close waits for every connection,
// and a stream's connection is never idle, so the app ends them in preClose.
const openChannels = new WeakMap<Server, Set<SseChannel>>();

/** Ends every stream of this server (called from the app's preClose hook). */
export function closeSseChannels(server: Server): void {
  for (const channel of [...(openChannels.get(server) ?? [])]) channel.close();
}

/**
 * Takes the response over from Fastify (reply.hijack) and opens the stream:
 * status 200, the SSE headers (plus the headers already set on the reply,
 * such as x-request-id), `retry:`, and a keep-alive comment every `heartbeatMs`
 * so that proxies and the gateway see traffic on a quiet stream.
 *
 * @example
 * const channel = openSse(request, reply, { heartbeatMs: 5_000 });
 * const unsubscribe = feed.subscribe((item) => channel.send(item, { id: item.seq }));
 * channel.onClose(unsubscribe);
 */
export function openSse(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { heartbeatMs: number },
): SseChannel {
  reply.hijack();
  const response = reply.raw;
  const listeners: (() => void)[] = [];
  let closed = false;

  const registry = openChannels.get(request.server.server) ?? new Set<SseChannel>();
  openChannels.set(request.server.server, registry);

  const write = (chunk: string): void => {
    if (closed) return;
    response.write(chunk);
    if (response.writableLength > SSE_MAX_BUFFERED_BYTES) {
      request.log.warn(
        { buffered: response.writableLength },
        'event stream client too slow; closing',
      );
      channel.close();
    }
  };

  const finish = (): void => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    registry.delete(channel);
    for (const listener of listeners.splice(0)) listener();
  };

  const channel: SseChannel = {
    send(data, messageOptions) {
      write(formatSseMessage(data, messageOptions));
    },
    get closed() {
      return closed;
    },
    onClose(listener) {
      if (closed) listener();
      else listeners.push(listener);
    },
    close() {
      if (closed) return;
      response.end();
      finish();
    },
  };

  const heartbeat = setInterval(() => {
    write(SSE_KEEP_ALIVE);
  }, options.heartbeatMs);
  heartbeat.unref();
  // The response's close fires when the client goes away (or after end()).
  response.on('close', finish);
  registry.add(channel);

  const inherited = Object.fromEntries(
    Object.entries(reply.getHeaders()).filter(
      (entry): entry is [string, string | number | string[]] => entry[1] !== undefined,
    ),
  );
  response.writeHead(200, { ...inherited, ...SSE_HEADERS });
  response.write(`retry: ${String(SSE_RETRY_MS)}\n\n`);
  return channel;
}
