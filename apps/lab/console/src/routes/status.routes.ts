// GET /api/console/status: what the page must know before it shows anything:
// lab mode, whether operator actions are allowed, where outcomes come from.
import type { EventStore } from '@effectively-once/event-store';
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import { ConsoleStatus } from '../api/console.api.js';
import type { ConsoleConfig } from '../config.js';
import type { OutcomeSource } from '../live/delivery-outcomes.js';
import { CONSOLE_CONSUMERS, CONSUMER_SERVICES } from './console-consumers.js';

/**
 * @example
 * registerStatusRoutes(app, { config, store, outcomes, startedAt: new Date() });
 */
export function registerStatusRoutes(
  app: FastifyZodInstance,
  deps: {
    config: Pick<ConsoleConfig, 'stack'>;
    store: Pick<EventStore, 'backend'>;
    outcomes: { readonly source: OutcomeSource };
    startedAt: Date;
  },
): void {
  const { stack } = deps.config;
  app.get('/api/console/status', { schema: { response: { 200: ConsoleStatus } } }, () => ({
    labMode: stack.faults.enabled,
    // Only whether there is a token: the token itself never leaves this process.
    operatorActions: stack.adminToken !== undefined,
    outcomeSource: deps.outcomes.source,
    eventStore: deps.store.backend,
    consumers: CONSOLE_CONSUMERS.map((consumer) => ({
      consumer,
      service: CONSUMER_SERVICES[consumer],
    })),
    startedAt: deps.startedAt.toISOString(),
  }));
}
