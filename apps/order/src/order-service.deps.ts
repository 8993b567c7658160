import type { EventStore } from '@effectively-once/event-store';
import type { ServiceMetrics } from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import type { OrderDatabase } from './adapters/postgres/order.database.js';
import type { DeadlineDurations } from './domain/order-deadlines.js';
import type { SummariesCaughtUp } from './order-summary/summaries-caught-up.js';

/** What the order service runs on; server.ts builds them, tests build their own. */
export interface OrderServiceDeps {
  readonly db: Kysely<OrderDatabase>;
  readonly store: EventStore;
  readonly metrics: ServiceMetrics;
  /** The clock; the domain never reads the time itself. */
  readonly now: () => Date;
  /** How long after placement each step of the saga may take. */
  readonly deadlines: DeadlineDurations;
}

/** What the HTTP app runs on: the above, and what GET /orders waits for before it answers. */
export interface OrderAppDeps extends OrderServiceDeps {
  readonly summaries: SummariesCaughtUp;
}
