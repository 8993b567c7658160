// The integration test of a scaffolded consumer: the test kit's two checks
// (assertIdempotent, assertRaceSafe) plus the handler's own outcomes, against
// a real PostgreSQL database.
import { EVENT_SAMPLES } from '../event-samples.js';
import type { ConsumerTemplateInput } from './consumer-handler.js';
import { literal } from './literal.js';
import { wrap } from './wrap.js';

export interface ConsumerTestInput extends ConsumerTemplateInput {
  /** The service's combined migrations: `paymentDatabaseMigrations` in `payment.migrations.js`. */
  readonly migrations: { readonly name: string; readonly module: string };
}

/** The sample payload of `type` with the test's own order id in front. */
function eventData(type: string): string {
  const sample = literal(EVENT_SAMPLES[type] ?? {});
  return sample === '{}' ? '{ orderId }' : `{ orderId, ${sample.slice(1)}`;
}

export function consumerTest(input: ConsumerTestInput): string {
  const { names, on, emit, database, migrations } = input;
  const other = Object.keys(EVENT_SAMPLES).find((type) => type !== on) ?? on;
  const outbox =
    emit === undefined
      ? ''
      : `
    outbox: await conn
      .selectFrom('outbox')
      .select(['stream_name', 'event_type', 'data'])
      .where('stream_name', '=', ${names.camel}Stream(orderId))
      .execute(),`;
  const outboxImport = emit === undefined ? '' : `\n  ${names.camel}Stream,`;
  // With --emit the work's outbox row is part of what it must write: without
  // this expectation a handler that drops its enqueueEvents would stay green.
  const outboxRow =
    emit === undefined
      ? ''
      : `
      outbox: [{ stream_name: ${names.camel}Stream(orderId), event_type: '${emit}' }],`;
  const outboxOnce = emit === undefined ? '' : `, outbox: [{ event_type: '${emit}' }]`;
  const outboxNone = emit === undefined ? '' : `, outbox: []`;
  const header = wrap(
    '// ',
    `${names.consumer} against a real PostgreSQL: the test kit proves it idempotent and race-safe; the rest shows its outcomes one by one.`,
  );
  return `${header}
import { randomUUID } from 'node:crypto';
import { orderStream, parseEvent } from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import { withProcessingHooks } from '@effectively-once/idempotency';
import {
  assertIdempotent,
  assertRaceSafe,
  markerCount,
  recordingHooks,
} from '@effectively-once/idempotency/testing';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { failOnNetworkInsideTransactions } from '@effectively-once/service-kit/testing';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { ${database.type} } from '../adapters/postgres/${database.module}';
import { ${migrations.name} } from '../adapters/postgres/${migrations.module}';
import {
  apply${names.pascal},
  handle${names.pascal},${outboxImport}
  ${names.camel},
} from './${names.kebab}.consumer.js';

const testDb = await createTestDatabase<${database.type}>(${migrations.name});
const { db } = testDb;
// A network call inside processOnce's transaction fails the test (ADR 0012).
failOnNetworkInsideTransactions();

/** An event as the store delivers it, with a new message id. */
function delivery(type: string, data: unknown, orderId: string) {
  const event = parseEvent({ type, data });
  const recorded: RecordedEvent = {
    id: randomUUID(),
    type,
    data: event.data,
    metadata: { schemaVersion: 1, correlationId: orderId },
    streamName: orderStream(orderId),
    revision: 0n,
    position: { commit: 1n, prepare: 1n },
    createdAt: new Date(),
  };
  return { event, recorded };
}

function ${names.camel}Delivery(orderId = randomUUID()) {
  const { event, recorded } = delivery('${on}', ${eventData(on)}, orderId);
  if (event.type !== '${on}') throw new Error(\`parsed as \${event.type}\`);
  return { event, recorded };
}

/** Everything the work may change for one order. */
async function snapshot(conn: Kysely<${database.type}>, orderId: string) {
  return {
    rows: await conn
      .selectFrom('${names.snake}')
      .select(['order_id', 'message_id'])
      .where('order_id', '=', orderId)
      .execute(),${outbox}
  };
}

function kitCheck(orderId = randomUUID()) {
  const { event, recorded } = ${names.camel}Delivery(orderId);
  return {
    consumer: ${names.camel},
    message: { id: recorded.id, type: recorded.type },
    work: (trx: Parameters<typeof apply${names.pascal}>[0]) =>
      apply${names.pascal}(trx, event, recorded.id),
    snapshot: (conn: Kysely<${database.type}>) => snapshot(conn, orderId),
  };
}

describe('the test kit', () => {
  it('assertIdempotent: a failed delivery leaves nothing, a redelivery changes nothing', async () => {
    await assertIdempotent(db, kitCheck());
  });

  it('assertRaceSafe: two deliveries at once apply once', async () => {
    await assertRaceSafe(
      {
        connect: (options) => testDb.connect(options),
        assertAppliedOnce: (before, after) => {
          expect(before).toMatchObject({ rows: []${outboxNone} });
          expect(after).toMatchObject({ rows: [{}]${outboxOnce} });
        },
      },
      kitCheck(),
    );
  });
});

describe('${on}', () => {
  it('writes the order\\'s row once, with the message that applied it', async () => {
    const orderId = randomUUID();
    const { event, recorded } = ${names.camel}Delivery(orderId);

    const result = await handle${names.pascal}({ db }, event, recorded);

    expect(result).toMatchObject({ outcome: 'applied', result: 'recorded', attempts: 1 });
    expect(await snapshot(db, orderId)).toMatchObject({
      rows: [{ order_id: orderId, message_id: recorded.id }],${outboxRow}
    });
  });

  // The kit runs apply${names.pascal} itself; this runs handle${names.pascal}, so a
  // write the handler makes outside processOnce's transaction shows here.
  it('a failure after the work, before the commit, leaves nothing: the handler writes only in the transaction', async () => {
    const orderId = randomUUID();
    const { event, recorded } = ${names.camel}Delivery(orderId);
    const failAfterWork = recordingHooks({
      onReached: (point) =>
        point === 'after-business' ? Promise.reject(new Error('failed after the work')) : Promise.resolve(),
    });

    await expect(
      withProcessingHooks(failAfterWork, () => handle${names.pascal}({ db }, event, recorded)),
    ).rejects.toThrow();

    expect(await snapshot(db, orderId)).toMatchObject({ rows: []${outboxNone} });
    expect(await markerCount(db, ${names.camel}.name, recorded.id)).toBe(0);
  });

  it('a crash after the commit, before the acknowledgement: the redelivery is a duplicate by marker', async () => {
    const orderId = randomUUID();
    const { event, recorded } = ${names.camel}Delivery(orderId);
    // The first delivery commits; the process dies before ack(), so the store delivers it again.
    await handle${names.pascal}({ db }, event, recorded);
    const before = await snapshot(db, orderId);

    const redelivered = await handle${names.pascal}({ db }, event, recorded);

    expect(redelivered).toMatchObject({ outcome: 'duplicate', detectedBy: 'marker' });
    expect(await snapshot(db, orderId)).toEqual(before);
  });

  it('the same fact under a new message id is a duplicate by business key', async () => {
    const orderId = randomUUID();
    const first = ${names.camel}Delivery(orderId);
    await handle${names.pascal}({ db }, first.event, first.recorded);
    const before = await snapshot(db, orderId);

    const again = ${names.camel}Delivery(orderId);
    const result = await handle${names.pascal}({ db }, again.event, again.recorded);

    expect(result).toMatchObject({ outcome: 'duplicate', detectedBy: 'business-key' });
    expect(await snapshot(db, orderId)).toEqual(before);
  });
});

it('acknowledges other events as ignored, without a transaction', async () => {
  const orderId = randomUUID();
  const { event, recorded } = delivery('${other}', ${eventData(other)}, orderId);

  expect(await handle${names.pascal}({ db }, event, recorded)).toEqual({ outcome: 'ignored' });
  expect(await snapshot(db, orderId)).toMatchObject({ rows: [] });
});
`;
}
