// How a message type is declared: a past-tense type name, a schema version
// and a zod schema for its data. Types are derived from the schemas, so the
// compiler and the runtime check agree by construction.
import type { z } from 'zod';

export interface MessageDefinition<Type extends string, Data extends z.ZodType> {
  readonly type: Type;
  readonly schemaVersion: number;
  readonly data: Data;
}

/**
 * Declares one event type.
 *
 * @example
 * export const OrderConfirmed = defineEvent('OrderConfirmed', 1, z.object({ orderId: OrderId }));
 */
export function defineEvent<const Type extends string, Data extends z.ZodType>(
  type: Type,
  schemaVersion: number,
  data: Data,
): MessageDefinition<Type, Data> {
  return Object.freeze({ type, schemaVersion, data });
}

/**
 * Declares one command type: imperative name, schema version, data schema.
 *
 * @example
 * export const CancelOrder = defineCommand('CancelOrder', 1, z.object({ orderId: OrderId, now: z.date() }));
 */
export const defineCommand = defineEvent;

/** The plain-data shape of a parsed event: `{ type, data }`, a member of a discriminated union. */
export type EventOf<Definition> =
  Definition extends MessageDefinition<infer Type, infer Data>
    ? { readonly type: Type; readonly data: z.output<Data> }
    : never;

/** The plain-data shape of a command: `{ type, data }`, a member of a discriminated union. */
export type CommandOf<Definition> = EventOf<Definition>;
