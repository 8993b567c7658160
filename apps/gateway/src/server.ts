// The composition root: read the configuration, build the gateway, listen,
// and close gracefully on SIGTERM or SIGINT, as the services do. The signal
// handler comes before listen: a SIGTERM while it starts still closes it.
// Not runService: the gateway owns no database, event store, consumer or
// outbox, which is what runService wires (ADR 0038).
import { onShutdownSignal } from '@effectively-once/service-kit/http-edge';
import { buildApp } from './app.js';
import { loadGatewayConfig } from './config.js';
// lab:begin
import { labGateway } from './lab/lab-gateway.js';
// lab:end

/** In-flight requests finish; one that outlives this does not hold the exit. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

const config = loadGatewayConfig();
const app = buildApp({
  upstreams: config.upstreams,
  upstreamTimeoutMs: config.upstreamTimeoutMs,
  healthTimeoutMs: config.healthTimeoutMs,
  requestTimeoutMs: config.requestTimeoutMs,
  logLevel: config.logLevel,
  // lab:begin
  extension: labGateway(),
  // lab:end
});

onShutdownSignal({ log: app.log, close: () => app.close(), timeoutMs: SHUTDOWN_TIMEOUT_MS });
await app.listen({ host: config.host, port: config.port });
app.log.info(`gateway listening on http://${config.host}:${String(config.port)}`);
