// A service's whole composition root in one call: its server.ts declares what
// it is and runService opens, starts, listens and, on SIGTERM, SIGINT or the
// supervisor's channel closing, shuts it down in SHUTDOWN_PHASES order.
import type { IdempotencyTables } from '@effectively-once/idempotency';
import { onShutdownSignal } from '../shutdown.js';
import type { ServiceDeclaration } from './service-declaration.js';
import { startService, type RunningService } from './start-service.js';

/**
 * Starts the declared service (startService) and closes it on the first
 * shutdown signal; the process then exits 0, or 1 when closing failed or
 * took longer than DEFAULT_SHUTDOWN_TIMEOUT_MS. Logs `<service> listening on
 * <url>` once it accepts requests. A start that fails (a migration, a port
 * in use) was logged and closed by startService: the process exits 1.
 *
 * @example
 * await runService<PaymentDatabase>({
 *   config,
 *   migrations: paymentDatabaseMigrations,
 *   buildApp: ({ db, store, metrics }) => buildApp({ db, store, metrics, logLevel: config.logLevel }),
 *   consumers: (context) => [{ consumer: paymentAuthorization, eventTypes: PAYMENT_AUTHORIZATION_EVENTS, handle: handlerOf(context) }],
 *   outbox: { relay: true },
 * });
 */
export async function runService<Database extends IdempotencyTables>(
  declaration: ServiceDeclaration<Database>,
): Promise<RunningService> {
  let service: RunningService;
  try {
    service = await startService(declaration);
  } catch {
    // Already logged as `<service> failed to start`, with what was opened closed.
    process.exit(1);
  }
  onShutdownSignal({ log: service.app.log, close: () => service.close() });
  return service;
}
