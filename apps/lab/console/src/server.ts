// The console's composition root: `tsx apps/lab/console/src/server.ts`, started by
// the supervisor in the edge group with the stack in CONSOLE_STACK. Users reach
// it through the gateway at `/`; it listens on loopback only.
import { openEventStore } from '@effectively-once/service-kit';
import { onShutdownSignal } from '@effectively-once/service-kit';
import { createConsoleServer, registerConsoleRoutes } from './app.js';
import { buildWebBundle } from './bundle/build-web-bundle.js';
import { stackHostnames } from './http/known-host.js';
import { loadConsoleConfig } from './config.js';
import { listenForDeliveryOutcomes } from './live/delivery-outcomes.js';
import { listenForProcessEvents } from './live/process-events.js';
import { createFeed } from './live/feed.js';
import { tailLabJournals } from './live/lab-steps.js';
import { followSagaEvents } from './live/saga-events.js';
import { registerLineageRoutes } from './lineage/lineage.routes.js';
import { createOrderIndex } from './lineage/order-index.js';
import { createMetricsScraper, metricsTargets } from './metrics/metrics-scraper.js';
import { createScenarioRuns } from './scenarios/scenario-runs.js';
import { registerOtlpReceiver } from './traces/otlp-receiver.routes.js';
import { createSpanStore } from './traces/span-store.js';
import { registerTraceRoutes } from './traces/trace.routes.js';

/** The stack's starts and deaths kept for the system view. */
const RESTARTS_KEPT = 100;

/** How often the lab journals are read while a page is watching. */
const LAB_JOURNAL_POLL_MS = 300;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

const config = loadConsoleConfig();
const app = createConsoleServer({
  logLevel: config.logLevel,
  extraHostnames: stackHostnames({ host: config.host, gatewayUrl: config.stack.gatewayUrl }),
});
const log = app.log;
if (!LOOPBACK_HOSTS.has(config.host)) {
  // It can replay parked messages and run scenarios that kill services, with
  // the stack's tokens: it belongs behind the gateway on this machine.
  log.warn(
    { host: config.host },
    'the console listens beyond loopback; anyone who reaches it acts on the stack',
  );
}

const store = await openEventStore({
  config: config.eventStore,
  postgresUrl: config.stack.databases.eventStore,
});
const bundle = await buildWebBundle();
log.info({ gzippedJsBytes: bundle.gzippedJsBytes }, 'page bundled');
const feed = createFeed({ capacity: config.feedCapacity });
// Subscribed before the saga events flow, so that it folds every one of them.
const orders = createOrderIndex();
feed.subscribe((item) => {
  orders.apply(item);
});
const sagaEvents = followSagaEvents({ store, feed, log });
const outcomes = listenForDeliveryOutcomes({ feed, channel: process });
const restarts = listenForProcessEvents({ channel: process, capacity: RESTARTS_KEPT });
const labSteps = config.stack.faults.enabled
  ? await tailLabJournals({ stack: config.stack, feed, intervalMs: LAB_JOURNAL_POLL_MS, log })
  : undefined;
const runs = createScenarioRuns({ stack: config.stack, eventStore: config.eventStore, log });
const metrics = createMetricsScraper({ targets: metricsTargets(config.stack) });
registerConsoleRoutes(app, {
  config,
  store,
  bundle,
  feed,
  outcomes,
  labSteps,
  runs,
  metrics,
  restarts,
});
registerLineageRoutes(app, { config, store, feed, orders, outcomes });
// The stack's spans, received over OTLP/HTTP, for the trace view (docs/console.md, "Trace").
const spans = createSpanStore();
registerOtlpReceiver(app, { spans });
registerTraceRoutes(app, { store, spans, tracing: config.tracing });

const address = await app.listen({ host: config.host, port: config.port });
log.info(
  { outcomeSource: outcomes.source, labMode: config.stack.faults.enabled },
  `console listening on ${address}`,
);

// SIGTERM, SIGINT, and the supervisor's IPC channel closing (even when it was
// SIGKILLed): the console must not outlive its stack.
onShutdownSignal({
  log,
  close: async () => {
    // First: a scenario cut short must not leave its faults armed in the stack.
    await runs.close();
    outcomes.close();
    restarts.close();
    await labSteps?.close();
    await sagaEvents.close();
    await app.close();
    await store.close();
  },
});
