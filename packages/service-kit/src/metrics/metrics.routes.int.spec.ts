// GET /metrics after real outcomes: processOnce against PostgreSQL reports
// through consumerOutcome, and the marker count is read from processed_message.
import { randomUUID } from 'node:crypto';
import {
  defineConsumer,
  idempotencyMigrations,
  processOnce,
  type IdempotencyTables,
} from '@effectively-once/idempotency';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../http/create-http-server.js';
import { registerMetricsRoute } from './metrics.routes.js';
import { createServiceMetrics } from './service-metrics.js';

const { db } = await createTestDatabase<IdempotencyTables>(idempotencyMigrations);
const consumer = defineConsumer({ name: 'kit-metrics-v1' });

async function countMarkers(): Promise<number> {
  const row = await db
    .selectFrom('processed_message')
    .select((eb) => eb.fn.countAll<string>().as('rows'))
    .where('consumer_name', '=', consumer.name)
    .executeTakeFirstOrThrow();
  return Number(row.rows);
}

const metrics = createServiceMetrics({ service: 'inventory' });
metrics.trackMarkerRows({ consumer: consumer.name, count: countMarkers });
const app = createHttpServer({ service: 'inventory', logger: false });
registerMetricsRoute(app, metrics);
afterAll(() => app.close());

describe('GET /metrics', () => {
  it('shows the consumer metrics in the Prometheus text format after real outcomes', async () => {
    // Given two messages processed once each, one of them delivered twice
    const first = { id: randomUUID(), type: 'OrderPlaced' };
    const second = { id: randomUUID(), type: 'OrderPlaced' };
    for (const message of [first, second, first]) {
      await processOnce({
        db,
        consumer,
        message,
        work: () => Promise.resolve('reserved'),
        onOutcome: metrics.consumerOutcome,
      });
    }

    // When Prometheus scrapes
    const response = await app.inject({ method: 'GET', url: '/metrics' });

    // Then every consumer metric is there, with its labels and current values
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    expect(text).toContain(
      'eo_consumer_messages_total{service="inventory",consumer="kit-metrics-v1",event_type="OrderPlaced",outcome="applied"} 2',
    );
    expect(text).toContain(
      'eo_consumer_messages_total{service="inventory",consumer="kit-metrics-v1",event_type="OrderPlaced",outcome="duplicate"} 1',
    );
    expect(text).toContain(
      'eo_consumer_duplicates_total{consumer="kit-metrics-v1",detected_by="marker"} 1',
    );
    expect(text).toContain('eo_consumer_transaction_seconds_count{consumer="kit-metrics-v1"} 3');
    expect(text).toContain('eo_processed_message_rows{consumer="kit-metrics-v1"} 2');
    expect(text).toContain('# TYPE eo_consumer_rollbacks_total counter');
    expect(text).toContain('# TYPE eo_consumer_oldest_unacked_delivery_seconds gauge');
    expect(text).toContain('process_resident_memory_bytes');
  });
});
