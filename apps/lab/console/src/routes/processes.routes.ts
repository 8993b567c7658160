// GET /api/console/processes: the stack's latest starts and deaths (the
// embedded PostgreSQL server included), as the supervisor reported them.
// The system view polls it with the metrics.
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import { ProcessEventList } from '../api/console.api.js';
import type { ProcessEvents } from '../live/process-events.js';

/**
 * @example
 * registerProcessRoutes(app, { restarts: listenForProcessEvents({ channel: process, capacity: 100 }) });
 */
export function registerProcessRoutes(
  app: FastifyZodInstance,
  deps: { restarts: ProcessEvents },
): void {
  app.get(
    '/api/console/processes',
    { logLevel: 'warn', schema: { response: { 200: ProcessEventList } } },
    () => ({ events: deps.restarts.recent() }),
  );
}
