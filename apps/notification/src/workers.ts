// notification-email-v1 as server.ts declares it to runService, and the same
// consumer with the relay that publishes its CustomerNotified events started
// without the rest of the service, for the component test.
import type { EventStore } from '@effectively-once/event-store';
import { startOutboxRelay } from '@effectively-once/outbox';
import {
  startDeclaredConsumer,
  type ConsumerHandler,
  type DeclaredConsumer,
  type FaultPoints,
  type ServiceMetrics,
} from '@effectively-once/service-kit';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { NotificationDatabase } from './adapters/postgres/database.js';
import type { Mailer } from './adapters/smtp/mailer.js';
import {
  handleNotificationEmail,
  NOTIFICATION_EMAIL_EVENTS,
  notificationEmail,
} from './adapters/subscriptions/notification-email.handler.js';

export interface WorkersDeps {
  db: Kysely<NotificationDatabase>;
  /** The URL of `db`'s database: the relay listens there and wakes on each commit. */
  databaseUrl: string;
  store: EventStore;
  mailer: Mailer;
  metrics: ServiceMetrics;
  log: FastifyBaseLogger;
  now: () => Date;
  /** The failure lab's points; `noFaults` when absent (outside lab mode). */
  faults?: FaultPoints;
  /** Called with the number of events each relay batch published (tests wait on it). */
  onPublished?: (count: number) => void;
}

export interface Workers {
  /** Closes the consumer first (deliveries in flight settle), then the relay. */
  close(): Promise<void>;
}

/** notification-email-v1's handler, as the subscription and the operator's replay run it. */
export function notificationEmailHandler(
  deps: Pick<WorkersDeps, 'db' | 'mailer' | 'now' | 'metrics' | 'faults'>,
): ConsumerHandler {
  return (event, recorded) =>
    handleNotificationEmail(
      {
        db: deps.db,
        mailer: deps.mailer,
        now: deps.now,
        onOutcome: deps.metrics.consumerOutcome,
        ...(deps.faults === undefined ? {} : { faults: deps.faults }),
      },
      event,
      recorded,
    );
}

/** notification-email-v1 as the service declares it to runService. */
export function notificationEmailConsumer(
  deps: Parameters<typeof notificationEmailHandler>[0],
): DeclaredConsumer {
  return {
    consumer: notificationEmail,
    eventTypes: NOTIFICATION_EMAIL_EVENTS,
    handle: notificationEmailHandler(deps),
  };
}

/**
 * @example
 * const workers = startWorkers({ db, databaseUrl, store, mailer, metrics, log: app.log, now: () => new Date() });
 * await workers.close();
 */
export function startWorkers(deps: WorkersDeps): Workers {
  const { db, store, metrics, log } = deps;
  const consumer = startDeclaredConsumer(notificationEmailConsumer(deps), {
    db,
    store,
    metrics,
    log,
  });
  const relay = startOutboxRelay({
    db,
    store,
    log,
    databaseUrl: deps.databaseUrl,
    ...(deps.onPublished === undefined ? {} : { onPublished: deps.onPublished }),
  });
  return {
    close: async () => {
      await consumer.close();
      await relay.close();
    },
  };
}
