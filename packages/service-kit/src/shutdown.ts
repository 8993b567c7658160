import type { FastifyBaseLogger } from 'fastify';
import { flushSpans } from './tracing/flush-spans.js';

export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 15_000;

/**
 * On the first SIGTERM or SIGINT, or when the parent's IPC channel closes: runs `close` (stop consumers, then the HTTP
 * server, then pools), and exits 0 once it resolved, or 1 when it failed or
 * took longer than `timeoutMs`. Further signals while closing are ignored,
 * except a repeat of the same one, which ends the process at once (a second
 * Ctrl-C).
 *
 * @example
 * onShutdownSignal({ log: app.log, close: async () => { await consumer.close(); await app.close(); await store.close(); } });
 */
export function onShutdownSignal(input: {
  log: Pick<FastifyBaseLogger, 'info' | 'error'>;
  close: () => Promise<void>;
  timeoutMs?: number;
}): void {
  const { log } = input;
  const timeoutMs = input.timeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  let closing = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) return;
    closing = true;
    log.info({ signal, timeoutMs }, 'shutting down');
    const timer = setTimeout(() => {
      log.error({ timeoutMs }, 'shutdown timed out');
      process.exit(1);
    }, timeoutMs);
    input
      .close()
      .finally(flushSpans)
      .then(
        () => {
          clearTimeout(timer);
          log.info({ signal }, 'shut down');
          process.exit(0);
        },
        (error: unknown) => {
          clearTimeout(timer);
          log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  // Started by the supervisor with an IPC channel: when the supervisor dies,
  // even by SIGKILL, the channel closes, and the service must not outlive it.
  process.once('disconnect', () => {
    shutdown('SIGTERM');
  });
}
