// What one consumer did with one message, from every source that knows a
// part of it: the service's marker, the outcomes the processes reported, and
// the store's parked and blocked lists. Pure.
import type { LineageDelivery, LineageDeliveryState } from '@effectively-once/contracts';
import type { DeliveryView } from '../api/console.api.js';
import type { BlockedEntry, ParkedEntry } from './group-states.js';

export interface DeliveryFacts {
  readonly consumer: string;
  readonly service: string;
  readonly marker: { readonly processedAt: string } | undefined;
  /** This consumer's outcomes for this message, in any order. */
  readonly outcomes: readonly DeliveryView[];
  readonly parked: ParkedEntry | undefined;
  readonly blocked: BlockedEntry | undefined;
}

/**
 * The first that applies: parked, blocked, a marker, the last reported
 * outcome, else pending. A parked message may hold a marker too (its work
 * committed, its ack was lost on its last allowed delivery): it is still
 * parked, and an operator must decide about it.
 */
function stateOf(facts: DeliveryFacts, last: DeliveryView | undefined): LineageDeliveryState {
  if (facts.parked !== undefined) return 'parked';
  if (facts.blocked !== undefined) return 'blocked';
  if (facts.marker !== undefined) return 'applied';
  if (last === undefined) return 'pending';
  switch (last.settlement) {
    case 'ack':
      return last.outcome === 'ignored' ? 'ignored' : 'applied';
    case 'retry':
      return 'retrying';
    case 'park':
      // Parked once, no longer in the parked list: replayed, and not delivered since.
      return 'pending';
  }
}

/**
 * @example
 * const delivery = deliveryOf({ consumer, service: 'payment', marker, outcomes, parked: undefined, blocked: undefined });
 * delivery.state; // 'applied'
 */
export function deliveryOf(facts: DeliveryFacts): LineageDelivery {
  const attempts = [...facts.outcomes].sort((a, b) => a.at.localeCompare(b.at));
  const last = attempts.at(-1);
  return {
    consumer: facts.consumer,
    service: facts.service,
    state: stateOf(facts, last),
    retryCount: Math.max(0, ...attempts.map((attempt) => attempt.retryCount)),
    marker: facts.marker === undefined ? null : { processedAt: facts.marker.processedAt },
    attempts: attempts.map((attempt) => ({
      process: attempt.service,
      at: attempt.at,
      retryCount: attempt.retryCount,
      outcome: attempt.outcome,
      settlement: attempt.settlement,
      reason: attempt.reason,
      durationMs: attempt.durationMs,
    })),
    parked:
      facts.parked === undefined
        ? null
        : { reason: facts.parked.reason, supersededBy: facts.parked.supersededBy },
    blockedBy: facts.blocked?.blockedBy ?? null,
  };
}
