// Every append is checked here, before any I/O, so that bad input fails the
// same way on every back end and nothing of it is written.
import {
  EventMetadataSchema,
  type EventMetadata,
  type JsonValue,
  type NewEvent,
} from './envelope.js';
import { describeValue } from './describe-value.js';
import { InvalidInputError } from './errors.js';
import { jsonProblem } from './json-value.js';

export const DEFAULT_MAX_EVENT_BYTES = 1024 * 1024;
export const MAX_EVENTS_PER_APPEND = 10_000;

/**
 * Letters, digits and `-_.:@+=`, starting with a letter or digit, at most 200
 * characters. `$` is refused: EventStoreDB reserves it for system streams.
 * By convention the category is the part before the first `-` (`order-42`).
 */
const STREAM_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:@+=-]{0,199}$/;
const EVENT_TYPE = /^[A-Za-z][A-Za-z0-9_.:-]{0,199}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An event after validation: serialized once, here, and measured. */
export interface ValidEvent {
  readonly id: string;
  readonly type: string;
  readonly data: JsonValue;
  readonly metadata: EventMetadata;
  readonly dataJson: string;
  readonly metadataJson: string;
}

/** Throws an InvalidInputError naming the rule unless `name` is a valid stream name. */
export function assertStreamName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !STREAM_NAME.test(name)) {
    throw new InvalidInputError(
      'INVALID_STREAM_NAME',
      `Invalid stream name ${describeValue(name)}: use 1-200 letters, digits and "-_.:@+=", starting with a letter or digit (e.g. "order-42"); "$" is reserved for system streams.`,
    );
  }
}

function invalidEvent(index: number, problem: string): InvalidInputError {
  return new InvalidInputError(
    'INVALID_EVENT',
    `Event ${String(index)}: ${problem}. Nothing was written.`,
  );
}

function validateOne(event: NewEvent, index: number, maxEventBytes: number): ValidEvent {
  if (typeof event.id !== 'string' || !UUID.test(event.id)) {
    throw invalidEvent(index, `id ${describeValue(event.id)} is not a uuid`);
  }
  if (typeof event.type !== 'string' || !EVENT_TYPE.test(event.type)) {
    throw invalidEvent(
      index,
      `type ${describeValue(event.type)} must be 1-200 letters, digits and "_.:-", starting with a letter (e.g. "OrderPlaced")`,
    );
  }
  const problem = jsonProblem(event.data, 'data') ?? jsonProblem(event.metadata ?? {}, 'metadata');
  if (problem !== undefined) throw invalidEvent(index, `${problem}; event data must be JSON`);
  const parsed = EventMetadataSchema.safeParse(event.metadata ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `metadata.${issue.path.join('.')} ${issue.message}`,
    );
    throw invalidEvent(index, issues.join('; '));
  }
  const dataJson = JSON.stringify(event.data);
  const metadataJson = JSON.stringify(parsed.data);
  const bytes = Buffer.byteLength(dataJson) + Buffer.byteLength(metadataJson);
  if (bytes > maxEventBytes) {
    throw new InvalidInputError(
      'EVENT_TOO_LARGE',
      `Event ${String(index)} (${event.type}) is ${String(bytes)} bytes of JSON, over the limit of ${String(maxEventBytes)}; store large payloads elsewhere and reference them. Nothing was written.`,
    );
  }
  return {
    id: event.id.toLowerCase(),
    type: event.type,
    data: event.data,
    metadata: parsed.data,
    dataJson,
    metadataJson,
  };
}

/**
 * Validates a whole append: stream name, 1 to 10,000 events, uuids unique
 * within the batch, JSON-only data, each event's JSON within `maxEventBytes`.
 *
 * @example
 * const events = validateAppend('order-42', [{ id, type: 'OrderPlaced', data: { total: 3 } }], DEFAULT_MAX_EVENT_BYTES);
 */
export function validateAppend(
  streamName: unknown,
  events: unknown,
  maxEventBytes: number,
): ValidEvent[] {
  assertStreamName(streamName);
  if (!Array.isArray(events) || events.length === 0 || events.length > MAX_EVENTS_PER_APPEND) {
    throw new InvalidInputError(
      'INVALID_EVENT',
      `An append takes 1 to ${String(MAX_EVENTS_PER_APPEND)} events in an array. Nothing was written.`,
    );
  }
  const valid = (events as unknown[]).map((event, index) => {
    if (typeof event !== 'object' || event === null) throw invalidEvent(index, 'is not an object');
    return validateOne(event as NewEvent, index, maxEventBytes);
  });
  const ids = new Set(valid.map((event) => event.id));
  if (ids.size !== valid.length) {
    throw new InvalidInputError(
      'INVALID_EVENT',
      'Two events of one append share an id; each event needs its own. Nothing was written.',
    );
  }
  return valid;
}
