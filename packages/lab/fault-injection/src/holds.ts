// Calls parked at a point by a `hold` fault. A held consumer call keeps its
// delivery (and, inside processOnce, its open transaction and claim) until an
// operator releases it, which is how a scenario makes a lease run out or a
// rival's claim wait.
import { randomUUID } from 'node:crypto';
import type { FaultFacts, FaultPoint } from './fault-points.js';
import type { Hold, HoldRelease } from './lab.schemas.js';

export interface Holds {
  /** Parks the caller until the hold is released; resolves with how it was released. */
  hold(input: { faultId: string; point: FaultPoint; facts: FaultFacts; now: Date }): {
    hold: Hold;
    released: Promise<HoldRelease>;
  };
  /** Releases one hold (by id) or all; returns how many were released. */
  release(holdId: string | undefined, then: HoldRelease): number;
  list(): Hold[];
}

export function createHolds(): Holds {
  const waiting = new Map<string, { hold: Hold; release: (then: HoldRelease) => void }>();
  return {
    hold({ faultId, point, facts, now }) {
      const hold: Hold = {
        id: randomUUID(),
        faultId,
        point,
        consumer: facts.consumer ?? null,
        messageId: facts.messageId ?? null,
        eventType: facts.eventType ?? null,
        orderId: facts.orderId ?? null,
        heldSince: now.toISOString(),
      };
      const released = new Promise<HoldRelease>((resolve) => {
        waiting.set(hold.id, { hold, release: resolve });
      });
      return { hold: { ...hold }, released };
    },
    release(holdId, then) {
      const ids = holdId === undefined ? [...waiting.keys()] : [holdId];
      let released = 0;
      for (const id of ids) {
        const entry = waiting.get(id);
        if (entry === undefined) continue;
        waiting.delete(id);
        entry.release(then);
        released += 1;
      }
      return released;
    },
    list: () => [...waiting.values()].map(({ hold }) => ({ ...hold })),
  };
}
