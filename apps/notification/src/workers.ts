// What runs besides the HTTP server: the notification-email-v1 consumer and
// the outbox relay that publishes its CustomerNotified events. server.ts
// starts them; the component test starts the very same pair.
import { CONSUMERS } from '@effectively-once/contracts';
import { countMarkers } from '@effectively-once/idempotency';
import type { EventStore } from '@effectively-once/event-store';
import { startOutboxRelay, type AfterAppend } from '@effectively-once/outbox';
import {
  startConsumer,
  type ConsumerHandler,
  type DeliveryHooks,
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
  /** Lab mode: the delivery hooks, the relay's fault point and the consumer tuning. */
  hooks?: DeliveryHooks | undefined;
  afterAppend?: AfterAppend | undefined;
  consumer?: {
    concurrency?: number;
    groupSettings?: { messageTimeoutMs: number; maxRetryCount: number };
  };
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

/**
 * @example
 * const workers = startWorkers({ db, databaseUrl, store, mailer, metrics, log: app.log, now: () => new Date() });
 * await workers.close();
 */
export function startWorkers(deps: WorkersDeps): Workers {
  const { db, store, metrics, log } = deps;
  const consumer = startConsumer({
    store,
    consumer: CONSUMERS.notificationEmail,
    eventTypes: NOTIFICATION_EMAIL_EVENTS,
    handle: notificationEmailHandler(deps),
    metrics,
    log,
    hooks: deps.hooks,
    ...deps.consumer,
  });
  metrics.trackMarkerRows({
    consumer: CONSUMERS.notificationEmail,
    count: () => countMarkers(db, CONSUMERS.notificationEmail),
  });
  const relay = startOutboxRelay({
    db,
    store,
    log,
    databaseUrl: deps.databaseUrl,
    afterAppend: deps.afterAppend,
    ...(deps.onPublished === undefined ? {} : { onPublished: deps.onPublished }),
  });
  return {
    close: async () => {
      await consumer.close();
      await relay.close();
    },
  };
}
