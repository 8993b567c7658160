// What holds a stuck order, in words: the same sentence on the page and in
// `pnpm lineage --stuck`. Pure.
import type { StuckReason } from '@effectively-once/contracts';

/**
 * @example
 * stuckReasonText({ kind: 'parked', eventType: 'OrderPaymentRequested', consumer: 'payment-authorization-v1', service: 'payment', reason: 'poison', ... });
 * // 'OrderPaymentRequested parked by payment-authorization-v1 (payment): poison'
 */
export function stuckReasonText(reason: StuckReason): string {
  switch (reason.kind) {
    case 'past_deadline':
      return `past the ${reason.deadline} deadline (${reason.dueAt}) by ${String(Math.round(reason.overdueMs / 1000))} s`;
    case 'parked':
      return `${reason.eventType} parked by ${reason.consumer} (${reason.service}): ${reason.reason ?? 'no reason given'}${reason.superseded ? ' (superseded: it no longer blocks)' : ''}`;
    case 'blocked':
      return `${reason.eventType} held by ${reason.consumer} (${reason.service}) behind ${reason.blockedBy.eventType} (${reason.blockedBy.state})`;
    case 'timer_parked':
      return `the ${reason.deadline} timer parked after ${String(reason.failedAttempts)} failed attempts: ${reason.lastError ?? 'no error recorded'}`;
    case 'retrying':
      return `${reason.eventType} retrying in ${reason.consumer} (${reason.service}), retry count ${String(reason.retryCount)}${reason.reason === null ? '' : `: ${reason.reason}`}`;
  }
}
