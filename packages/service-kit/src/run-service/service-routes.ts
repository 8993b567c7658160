// The routes every saga service has beside its own, registered from the
// declared consumers: parked messages, the declaration's own `routes`, the
// attached extension's and the consumer operations (marker pruning, replay).
// The /admin ones exist only with an ADMIN_TOKEN.
import type { IdempotencyTables } from '@effectively-once/idempotency';
import type { FastifyZodInstance } from '../http/create-http-server.js';
import { registerConsumerOperationRoutes } from '../http/consumer-operations.routes.js';
import { registerParkedMessageRoutes } from '../http/parked-messages.routes.js';
import type {
  AttachedExtension,
  DeclaredConsumer,
  ServiceDeclaration,
  ServiceResources,
} from './service-declaration.js';

/**
 * @example
 * registerServiceRoutes(app, { declaration, resources, consumers, extension });
 */
export function registerServiceRoutes<Database extends IdempotencyTables>(
  app: FastifyZodInstance,
  input: {
    declaration: ServiceDeclaration<Database>;
    resources: ServiceResources<Database>;
    consumers: readonly DeclaredConsumer[];
    extension: AttachedExtension | undefined;
  },
): void {
  const { declaration, resources, consumers, extension } = input;
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
  for (const routes of declaration.routes ?? []) routes(app, { declaration, resources, consumers });
  extension?.registerRoutes?.(app);
  registerConsumerOperationRoutes(app, {
    db,
    store,
    adminToken: config.adminToken,
    consumers: consumers.map(({ consumer, handle }) => ({ consumer, handle })),
  });
}
