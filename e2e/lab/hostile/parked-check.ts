// The other way the hostile-events test observes an outcome: the operator's
// parked lists (GET /api/admin/{service}/parked, admin token), for hostile
// events outside any order stream, which have no lineage of their own.
import { CONSUMERS } from '@effectively-once/contracts';
import { z } from 'zod';
import { parkedReasonFor, type HostilePlan } from './hostile-events.js';

/** Each consumer and the service that runs it. */
const PARKING_LOTS = [
  { service: 'inventory', consumer: CONSUMERS.inventoryReservation },
  { service: 'inventory', consumer: CONSUMERS.inventoryDemand },
  { service: 'payment', consumer: CONSUMERS.paymentAuthorization },
  { service: 'order', consumer: CONSUMERS.orderSaga },
  { service: 'notification', consumer: CONSUMERS.notificationEmail },
] as const;

/** Only what the check reads of a parked list. */
const ParkedList = z.object({
  parked: z.array(
    z.object({ eventId: z.string(), type: z.string(), reason: z.string().nullable() }),
  ),
});

export interface ParkedMessage {
  readonly consumer: string;
  readonly eventId: string;
  readonly reason: string | null;
}

/** Every parked message of every consumer of the stack. */
export async function readAllParked(
  gatewayUrl: string,
  adminToken: string,
): Promise<ParkedMessage[]> {
  const lists = await Promise.all(
    PARKING_LOTS.map(async ({ service, consumer }) => {
      const response = await fetch(
        `${gatewayUrl}/api/admin/${service}/parked?consumer=${consumer}`,
        {
          headers: { authorization: `Bearer ${adminToken}` },
        },
      );
      if (!response.ok)
        throw new Error(
          `parked of ${consumer} answered ${String(response.status)}: ${await response.text()}`,
        );
      return ParkedList.parse(await response.json()).parked.map((message) => ({
        consumer,
        eventId: message.eventId,
        reason: message.reason,
      }));
    }),
  );
  return lists.flat();
}

/** What is not yet as the plan says, judged from the parked lists alone; empty when it is. */
export function parkedProblems(plan: HostilePlan, parked: readonly ParkedMessage[]): string[] {
  const where = `${plan.kind} "${plan.description}" (order ${plan.orderId})`;
  return plan.appends.flatMap((append) => {
    const mine = parked.filter((message) => message.eventId === append.event.id);
    const seen = mine.map((message) => `${message.consumer}: ${message.reason ?? 'no reason'}`);
    switch (append.expected.kind) {
      case 'refused':
        return [];
      case 'received-by-none':
      case 'settled':
        return mine.length === 0 || append.expected.kind === 'settled'
          ? []
          : [`${where}: parked by ${seen.join('; ')}`];
      case 'parked': {
        const expected = append.expected;
        if (mine.length === 0) return [`${where}: ${append.event.type} is parked nowhere`];
        return mine.every((message) => {
          const reason = parkedReasonFor(expected, message.consumer);
          return reason !== undefined && (message.reason ?? '').includes(reason);
        })
          ? []
          : [`${where}: not parked with ${JSON.stringify(expected.reason)}: ${seen.join('; ')}`];
      }
    }
  });
}
