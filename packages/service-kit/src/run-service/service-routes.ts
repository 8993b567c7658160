// The routes every saga service has beside its own, registered from the
// declared consumers: parked messages, lineage (for the lab's console), the
// lab's (lab mode only) and the consumer operations (marker pruning, replay).
// The /admin ones exist only with an ADMIN_TOKEN.
import type { IdempotencyTables } from '@effectively-once/idempotency';
import type { FastifyZodInstance } from '../http/create-http-server.js';
import { registerConsumerOperationRoutes } from '../http/consumer-operations.routes.js';
import { registerParkedMessageRoutes } from '../http/parked-messages.routes.js';
// lab:begin
import { markerView } from '@effectively-once/idempotency';
import { registerLineageRoute } from '../lineage/lineage.routes.js';
import { declaredOutbox } from './declared-outbox.js';
// lab:end
import type {
  DeclaredConsumer,
  ServiceDeclaration,
  ServiceLab,
  ServiceResources,
} from './service-declaration.js';

/**
 * @example
 * registerServiceRoutes(app, { declaration, resources, consumers, lab });
 */
export function registerServiceRoutes<Database extends IdempotencyTables>(
  app: FastifyZodInstance,
  input: {
    declaration: ServiceDeclaration<Database>;
    resources: ServiceResources<Database>;
    consumers: readonly DeclaredConsumer[];
    lab: ServiceLab | undefined;
  },
): void {
  const { declaration, resources, consumers, lab } = input;
  const { config } = declaration;
  const { db, store } = resources;
  const [first, ...others] = consumers.map((declared) => declared.consumer.name);
  if (first !== undefined) {
    registerParkedMessageRoutes(app, {
      store,
      consumers: [first, ...others],
      adminToken: config.adminToken,
    });
  }
  // lab:begin
  // Only the console asks it (ADR 0019): it goes with the lab.
  registerLineageRoute(app, {
    service: config.service,
    consumers: consumers.map(({ consumer, eventTypes }) => ({
      consumer: consumer.name,
      eventTypes,
    })),
    markers: markerView(db),
    outbox: declaredOutbox(db, declaration.outbox),
    timers: declaration.lineageTimers?.(resources),
  });
  // lab:end
  lab?.registerRoutes(app);
  registerConsumerOperationRoutes(app, {
    db,
    store,
    adminToken: config.adminToken,
    consumers: consumers.map(({ consumer, handle }) => ({ consumer, handle })),
  });
}
