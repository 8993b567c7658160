// What an order still waits on, read off its assembled lineage: deliveries
// not settled, outbox rows not sent, timers overdue or parked. Pure.
import type {
  LineageHold,
  LineageMessage,
  LineageOutboxRow,
  LineageTimer,
  OrderStatus,
} from '@effectively-once/contracts';
import { DEADLINE_GRACE_MS } from './order-progress.js';

function deliveryHolds(messages: readonly LineageMessage[]): LineageHold[] {
  return messages.flatMap((message) =>
    message.deliveries.flatMap((delivery): LineageHold[] => {
      const held = {
        service: delivery.service,
        consumer: delivery.consumer,
        eventId: message.eventId,
        eventType: message.type,
      };
      switch (delivery.state) {
        case 'parked':
          return [
            {
              kind: 'parked',
              ...held,
              detail: `parked: ${delivery.parked?.reason ?? 'no reason given'}`,
            },
          ];
        case 'blocked':
          return [
            {
              kind: 'blocked',
              ...held,
              detail: `waits behind ${delivery.blockedBy?.eventType ?? 'an earlier message'} (${delivery.blockedBy?.state ?? 'unknown'})`,
            },
          ];
        case 'retrying': {
          const reason = delivery.attempts.at(-1)?.reason;
          return [
            {
              kind: 'retrying',
              ...held,
              detail: `handed back, retry count ${String(delivery.retryCount)}${reason === null || reason === undefined ? '' : `: ${reason}`}`,
            },
          ];
        }
        case 'pending':
          return [{ kind: 'pending', ...held, detail: 'no marker and no outcome yet' }];
        case 'applied':
        case 'ignored':
          return [];
      }
    }),
  );
}

/**
 * @example
 * holdsOf({ messages, outbox, timers, now: new Date() }); // [{ kind: 'retrying', consumer: 'payment-authorization-v1', ... }]
 */
export function holdsOf(input: {
  messages: readonly LineageMessage[];
  outbox: readonly LineageOutboxRow[];
  timers: readonly LineageTimer[];
  now: Date;
}): LineageHold[] {
  const unsent = input.outbox
    .filter((row) => row.sentAt === null)
    .map((row): LineageHold => ({
      kind: 'unsent',
      service: row.service,
      consumer: null,
      eventId: row.eventId,
      eventType: row.eventType,
      detail: `in the ${row.service} outbox, not yet appended to ${row.streamName}`,
    }));
  // A timer fires within its poll interval: only one later than the grace is a hold.
  const overdue = input.timers
    .filter(
      (timer) =>
        timer.firedAt === null && input.now.getTime() - Date.parse(timer.dueAt) > DEADLINE_GRACE_MS,
    )
    .map((timer): LineageHold => ({
      kind: 'timer',
      service: timer.service,
      consumer: null,
      eventId: null,
      eventType: null,
      detail: timerHoldDetail(timer),
    }));
  return [...deliveryHolds(input.messages), ...unsent, ...overdue];
}

function timerHoldDetail(timer: LineageTimer): string {
  const late = `the ${timer.name} deadline was due at ${timer.dueAt} and has not fired`;
  const failures = `${String(timer.failedAttempts)} failed attempts, the last: ${timer.lastError ?? 'no error recorded'}`;
  if (timer.parkedAt !== null) return `${late}: its timer is parked after ${failures}`;
  if (timer.failedAttempts > 0) {
    return `${late}: ${failures}; next attempt at ${timer.nextAttemptAt ?? 'unknown'}`;
  }
  return late;
}

/**
 * One line for a person: the status, and what the order waits on.
 *
 * @example
 * summaryOf('confirmed', []); // 'confirmed; nothing outstanding'
 */
export function summaryOf(status: OrderStatus | null, holds: readonly LineageHold[]): string {
  const where = status ?? 'status unknown';
  const [first] = holds;
  if (first === undefined) return `${where}; nothing outstanding`;
  const what =
    first.consumer === null
      ? first.detail
      : `${first.consumer} (${first.service}) with ${first.eventType ?? 'a message'}: ${first.detail}`;
  const more = holds.length > 1 ? ` (and ${String(holds.length - 1)} more)` : '';
  return `${where}; waits on ${what}${more}`;
}
