// What a group declares beyond EventStoreDB's own settings (its ordering key),
// kept in a stream of the adapter's, `eo-group-<group>`: the server has no
// place for it, and a consumer must learn it when it connects.
import {
  BACKWARDS,
  END,
  StreamNotFoundError,
  jsonEvent,
  type JSONType,
} from '@eventstore/db-client';
import { z } from 'zod';
import type { OrderingKey } from '../port/subscription.js';
import type { EsdbClient } from './esdb-client.js';

const GROUP_OPTIONS_DECLARED = '$eo.GroupOptionsDeclared';

export const groupOptionsStreamOf = (group: string): string => `eo-group-${group}`;

const OptionsSchema = z.object({
  orderingKey: z
    .object({
      source: z.discriminatedUnion('from', [
        z.object({ from: z.literal('stream') }),
        z.object({ from: z.enum(['metadata', 'data']), field: z.string() }),
      ]),
      supersedeParkedWith: z.array(z.string()),
    })
    .nullable(),
});

export interface GroupOptions {
  readonly orderingKey: OrderingKey | undefined;
}

/** Appends the group's options; the latest record is the one in force. */
export async function writeGroupOptions(
  client: EsdbClient,
  group: string,
  options: GroupOptions,
): Promise<void> {
  const data = { orderingKey: options.orderingKey ?? null } as unknown as JSONType;
  await client.appendToStream(
    groupOptionsStreamOf(group),
    jsonEvent({ type: GROUP_OPTIONS_DECLARED, data }),
  );
}

/** The latest options; none declared means no ordering key. */
export async function readGroupOptions(client: EsdbClient, group: string): Promise<GroupOptions> {
  try {
    for await (const resolved of client.readStream(groupOptionsStreamOf(group), {
      direction: BACKWARDS,
      fromRevision: END,
      maxCount: 1,
    })) {
      const event = resolved.event;
      if (event?.type === GROUP_OPTIONS_DECLARED && event.isJson) {
        return { orderingKey: OptionsSchema.parse(event.data).orderingKey ?? undefined };
      }
    }
  } catch (error) {
    if (!(error instanceof StreamNotFoundError)) throw error;
  }
  return { orderingKey: undefined };
}
