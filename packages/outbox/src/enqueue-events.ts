import { randomUUID } from 'node:crypto';
import {
  DEFAULT_MAX_EVENT_BYTES,
  validateAppend,
  type EventMetadataInput,
  type JsonValue,
} from '@effectively-once/event-store';
import type { Kysely, Transaction } from 'kysely';
import { outboxView, type OutboxTables } from './outbox.table.js';

/** An event to publish once the caller's transaction commits. */
export interface OutgoingEvent {
  /** e.g. `inventory-${orderId}`. */
  streamName: string;
  /** Past tense, e.g. `InventoryReserved`. */
  type: string;
  data: JsonValue;
  metadata?: EventMetadataInput;
  /** A uuid; a random one when absent. Pass a deterministic id when the fact has one. */
  id?: string;
}

/** An outgoing event the event store would refuse; nothing of the call was written. */
export class InvalidOutgoingEventError extends Error {
  override readonly name = 'InvalidOutgoingEventError';
}

/**
 * Checks every event as the event store will when the relay appends it, so a
 * row that is accepted here cannot be refused later and block its stream.
 */
function validate(events: readonly OutgoingEvent[]) {
  const valid = events.map((event, index) => {
    try {
      const [checked] = validateAppend(
        event.streamName,
        [
          {
            id: event.id ?? randomUUID(),
            type: event.type,
            data: event.data,
            metadata: event.metadata,
          },
        ],
        DEFAULT_MAX_EVENT_BYTES,
      );
      if (checked === undefined) throw new Error('validateAppend returned no event.');
      return { streamName: event.streamName, ...checked };
    } catch (error) {
      // The store's message speaks of one event appended alone ("Event 0").
      const problem = (error instanceof Error ? error.message : String(error))
        .replace(/^Event 0\b/, 'The event')
        .replace(/ ?Nothing was written\.$/, '');
      throw new InvalidOutgoingEventError(
        `Outgoing event ${String(index)} (to stream ${JSON.stringify(event.streamName)}): ${problem} Nothing was enqueued.`,
        { cause: error },
      );
    }
  });
  if (new Set(valid.map((event) => event.id)).size !== valid.length) {
    throw new InvalidOutgoingEventError(
      'Two outgoing events share an id; each event needs its own. Nothing was enqueued.',
    );
  }
  return valid;
}

/**
 * Writes events to the outbox inside the caller's transaction: they are
 * published if and only if that transaction commits. Never commits itself.
 *
 * @returns the event ids, in the order given
 * @example
 * await db.transaction().execute(async (trx) => {
 *   await reserve(trx, order);
 *   await enqueueEvents(trx, [{ streamName: `inventory-${order.id}`, type: 'InventoryReserved', data }]);
 * });
 */
export async function enqueueEvents<Database extends OutboxTables>(
  trx: Kysely<Database> | Transaction<Database>,
  events: readonly OutgoingEvent[],
): Promise<string[]> {
  const valid = validate(events);
  if (valid.length === 0) return [];
  await outboxView(trx)
    .insertInto('outbox')
    .values(
      valid.map((event) => ({
        event_id: event.id,
        stream_name: event.streamName,
        event_type: event.type,
        data: event.dataJson,
        metadata: event.metadataJson,
      })),
    )
    .execute();
  return valid.map((event) => event.id);
}
