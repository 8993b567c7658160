// The composition root: read the configuration, build the gateway, listen,
// and close gracefully on SIGTERM or SIGINT.
import { buildApp } from './app.js';
import { loadGatewayConfig } from './config.js';

const SHUTDOWN_TIMEOUT_MS = 10_000;

const config = loadGatewayConfig();
const app = buildApp({
  upstreams: config.upstreams,
  consoleUrl: config.consoleUrl,
  upstreamTimeoutMs: config.upstreamTimeoutMs,
  healthTimeoutMs: config.healthTimeoutMs,
  requestTimeoutMs: config.requestTimeoutMs,
  logLevel: config.logLevel,
});

let closing = false;
function shutdown(signal: NodeJS.Signals): void {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'gateway closing');
  // In-flight requests finish; a request that outlives the timeout does not hold the exit.
  const forceExit = setTimeout(() => {
    app.log.error('gateway did not close in time; exiting');
    process.exit(1);
  }, SHUTDOWN_TIMEOUT_MS);
  forceExit.unref();
  app.close().then(
    () => process.exit(0),
    (error: unknown) => {
      app.log.error({ err: error }, 'gateway failed to close');
      process.exit(1);
    },
  );
}
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
// Started by the supervisor with an IPC channel: if the supervisor dies, even by SIGKILL, stop too.
process.once('disconnect', () => {
  shutdown('SIGTERM');
});

await app.listen({ host: config.host, port: config.port });
app.log.info(`gateway listening on http://${config.host}:${String(config.port)}`);
