// The event envelope: what an appender hands in and what every reader gets
// back, whichever back end stored it. Parsed with zod where it crosses a
// boundary (a database row, a gRPC message, a child process's output).
import { z } from 'zod';

export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * Where an event sits in the store's one global order ($all), compared as the
 * pair (commit, prepare). EventStoreDB: the commit and prepare positions in its
 * transaction log. Embedded PostgreSQL: the appending transaction's id (xid8)
 * and the event's `global_position`; see docs/adr/0004-global-ordering-with-xid8.md.
 */
export interface GlobalPosition {
  readonly commit: bigint;
  readonly prepare: bigint;
}

/** Before every event. */
export const START_POSITION: GlobalPosition = Object.freeze({ commit: 0n, prepare: 0n });

/**
 * Negative, zero or positive, as `Array.prototype.sort` wants.
 *
 * @example
 * events.sort((a, b) => comparePositions(a.position, b.position));
 */
export function comparePositions(a: GlobalPosition, b: GlobalPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

const id = z.string().min(1).max(200);

/**
 * Correlation and causation ids tie a saga's messages together; `traceparent`
 * and `tracestate` carry W3C trace context across the store; `schemaVersion`
 * lets a reader upcast old payloads. Other JSON keys pass through.
 */
export const EventMetadataSchema = z.looseObject({
  correlationId: id.optional(),
  causationId: id.optional(),
  traceparent: z
    .string()
    .regex(/^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/, 'must be a W3C traceparent')
    .optional(),
  tracestate: z.string().max(512).optional(),
  schemaVersion: z.number().int().positive().default(1),
});

export type EventMetadata = z.output<typeof EventMetadataSchema>;
export type EventMetadataInput = z.input<typeof EventMetadataSchema>;

/** An event to append. Its id is the producer's stable id: a retry must reuse it. */
export interface NewEvent {
  /** A uuid, deterministic for the fact (e.g. taken from the outbox row), never minted per attempt. */
  readonly id: string;
  /** Past tense, e.g. `OrderPlaced`. */
  readonly type: string;
  readonly data: JsonValue;
  readonly metadata?: EventMetadataInput;
}

const position = z.object({ commit: z.bigint().nonnegative(), prepare: z.bigint().nonnegative() });

/** A stored event as every reader receives it. */
export const RecordedEventSchema = z.object({
  id: z.uuid(),
  type: z.string().min(1),
  data: z.json(),
  metadata: EventMetadataSchema,
  streamName: z.string().min(1),
  revision: z.bigint().nonnegative(),
  position,
  createdAt: z.date(),
});

export interface RecordedEvent {
  readonly id: string;
  readonly type: string;
  readonly data: JsonValue;
  readonly metadata: EventMetadata;
  readonly streamName: string;
  /** 0-based number of the event in its stream. */
  readonly revision: bigint;
  readonly position: GlobalPosition;
  readonly createdAt: Date;
}

/**
 * Parses what a back end read into the port's envelope; a row that does not
 * fit is a bug or foreign data, and fails loudly here rather than in a handler.
 *
 * @example
 * const event = parseRecordedEvent({ id, type, data, metadata, streamName, revision, position, createdAt });
 */
export function parseRecordedEvent(raw: unknown): RecordedEvent {
  return RecordedEventSchema.parse(raw);
}
