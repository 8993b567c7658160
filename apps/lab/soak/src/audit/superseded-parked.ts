// The operator's part of the story, done as docs/services/payment.md tells
// an operator to do it: a message parked and then superseded (a later event
// of its order, the cancellation, was let past it and settled what it had
// started) is replayed with its original id, and the replay must change
// nothing. A parked message that nothing superseded is left alone: it is a
// failure of the soak, and the audit that follows reports it.
import { connectClient } from '../with-client.js';
import { z } from 'zod';
import type { StackTarget } from '@effectively-once/lab-stack';
import { MARKER_DATABASE } from './lost-acknowledgements.js';

const ParkedList = z.object({
  parked: z.array(
    z.object({
      eventId: z.string(),
      type: z.string(),
      streamName: z.string(),
      reason: z.string().nullable(),
      supersededBy: z.object({ eventId: z.string(), type: z.string() }).nullable(),
    }),
  ),
});

export interface ReplayedParked {
  readonly consumer: string;
  readonly eventId: string;
  readonly type: string;
  readonly streamName: string;
  readonly reason: string | null;
  readonly supersededBy: string;
}

async function parkedOf(target: StackTarget, service: string, consumer: string) {
  const response = await fetch(
    `${target.gatewayUrl}/api/admin/${service}/parked?consumer=${encodeURIComponent(consumer)}`,
    { headers: { authorization: `Bearer ${target.adminToken ?? ''}` } },
  );
  if (!response.ok) {
    throw new Error(
      `GET /api/admin/${service}/parked answered ${String(response.status)}: ${await response.text()}`,
    );
  }
  return ParkedList.parse(await response.json()).parked;
}

/** Replays every superseded parked message of the given streams; resolves once none is parked any more. */
export async function replaySupersededParked(
  target: StackTarget,
  streams: ReadonlySet<string>,
  timeoutMs = 60_000,
): Promise<ReplayedParked[]> {
  const replayed: ReplayedParked[] = [];
  for (const [consumer, service] of Object.entries(MARKER_DATABASE)) {
    const superseded = (await parkedOf(target, service, consumer)).filter(
      (message) => streams.has(message.streamName) && message.supersededBy !== null,
    );
    for (const message of superseded) {
      const response = await fetch(
        `${target.gatewayUrl}/api/admin/${service}/parked/${message.eventId}/replay?consumer=${encodeURIComponent(consumer)}`,
        { method: 'POST', headers: { authorization: `Bearer ${target.adminToken ?? ''}` } },
      );
      if (!response.ok) {
        throw new Error(
          `Replaying ${consumer} ${message.eventId} answered ${String(response.status)}: ${await response.text()}`,
        );
      }
      replayed.push({
        consumer,
        eventId: message.eventId,
        type: message.type,
        streamName: message.streamName,
        reason: message.reason,
        supersededBy: message.supersededBy?.type ?? '',
      });
    }
  }
  // Done when the store no longer holds the message for the group: acknowledged after the replay.
  const deadline = Date.now() + timeoutMs;
  const client = await connectClient(target.databases.eventStore);
  try {
    for (const message of replayed) {
      for (;;) {
        const { rows } = await client.query(
          `SELECT 1 FROM es_subscription_message m
             JOIN es_subscription_group g USING (group_id)
             JOIN es_event e ON e.global_position = m.global_position
            WHERE g.group_name = $1 AND e.event_id = $2`,
          [message.consumer, message.eventId],
        );
        if (rows.length === 0) break;
        if (Date.now() > deadline) {
          throw new Error(
            `${message.consumer} still holds ${message.eventId} ${String(timeoutMs)} ms after its replay.`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  } finally {
    await client.end();
  }
  return replayed;
}
