// The one gate every consumed event passes. An unknown type, a schema version
// this code does not know, or data that fails its schema is a contract
// violation: no redelivery can fix it, so consumers park it with this reason.
import type { z } from 'zod';
import { inventoryEvents, type InventoryEvent } from './inventory.events.js';
import type { MessageDefinition } from './message.js';
import { notificationEvents, type NotificationEvent } from './notification.events.js';
import { orderEvents, type OrderEvent } from './order.events.js';
import { paymentEvents, type PaymentEvent } from './payment.events.js';

export type KnownEvent = OrderEvent | InventoryEvent | PaymentEvent | NotificationEvent;
export type KnownEventType = KnownEvent['type'];

const definitions: ReadonlyMap<string, MessageDefinition<string, z.ZodType>> = new Map(
  [...orderEvents, ...inventoryEvents, ...paymentEvents, ...notificationEvents].map(
    (definition) => [definition.type, definition],
  ),
);

export type ContractViolationCode =
  'UNKNOWN_EVENT_TYPE' | 'UNSUPPORTED_SCHEMA_VERSION' | 'INVALID_PAYLOAD';

/** An event that does not match any contract. Terminal: park it, never retry it. */
export class ContractViolationError extends Error {
  override readonly name = 'ContractViolationError';
  constructor(
    readonly code: ContractViolationCode,
    message: string,
  ) {
    super(message);
  }
}

/** True for every type in the contracts, so a consumer can tell "not mine" from "nobody's". */
export function isKnownEventType(type: string): type is KnownEventType {
  return definitions.has(type);
}

export interface RawEvent {
  readonly type: string;
  readonly data: unknown;
  /** The envelope's schema version; 1 when absent. */
  readonly schemaVersion?: number | undefined;
}

/**
 * Parses an event read from the store into the typed union, or throws a
 * ContractViolationError that says which rule it broke. Never logs the payload.
 *
 * @example
 * const event = parseEvent({ type: recorded.type, data: recorded.data, schemaVersion: recorded.metadata.schemaVersion });
 * if (event.type === 'OrderPlaced') reserve(event.data.items);
 */
export function parseEvent(raw: RawEvent): KnownEvent {
  const definition = definitions.get(raw.type);
  if (definition === undefined) {
    throw new ContractViolationError(
      'UNKNOWN_EVENT_TYPE',
      `Unknown event type "${raw.type.slice(0, 100)}": no contract in @effectively-once/contracts declares it.`,
    );
  }
  const version = raw.schemaVersion ?? 1;
  if (version !== definition.schemaVersion) {
    throw new ContractViolationError(
      'UNSUPPORTED_SCHEMA_VERSION',
      `${raw.type} has schema version ${String(version)}; this code reads version ${String(definition.schemaVersion)}.`,
    );
  }
  const parsed = definition.data.safeParse(raw.data);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(data)'} ${issue.message}`);
    throw new ContractViolationError(
      'INVALID_PAYLOAD',
      `Invalid ${raw.type} payload: ${problems.join('; ')}.`,
    );
  }
  // The map is keyed by the definition's own type, so the pair is a member of the union.
  return { type: raw.type, data: parsed.data } as KnownEvent;
}

/**
 * The envelope fields of an event to append: its type, its data checked
 * against the contract, and the schema version for the metadata.
 *
 * @example
 * const { type, data, schemaVersion } = serializeEvent({ type: 'OrderConfirmed', data });
 */
export function serializeEvent<Event extends KnownEvent>(
  event: Event,
): { type: Event['type']; data: Event['data']; schemaVersion: number } {
  const definition = definitions.get(event.type);
  if (definition === undefined) throw new Error(`No contract for ${event.type}`);
  definition.data.parse(event.data);
  return { type: event.type, data: event.data, schemaVersion: definition.schemaVersion };
}
