// The faults armed in this process. They live in memory on purpose: a crash
// fault ends the process, and the restarted process must not crash again on
// the same message, so it starts with none.
import { randomUUID } from 'node:crypto';
import { ProblemError } from '@effectively-once/service-kit';
import type { FaultPoint } from './fault-points.js';
import { actionNotAllowedAt, matchesFacts, type CallFacts } from './fault-rules.js';
import type { ArmFault, ArmedFault } from './lab.schemas.js';

export interface ArmedFaults {
  /** Arms a fault; a 400 problem when its action cannot happen at its point. */
  arm(request: ArmFault, now: Date): ArmedFault;
  /**
   * The first armed fault (oldest first) that applies to this call, with one
   * hit used up; it disarms itself when none are left.
   */
  take(
    point: FaultPoint,
    facts: CallFacts,
    call: { inTransaction: boolean },
  ): ArmedFault | undefined;
  list(): ArmedFault[];
  /** Disarms every fault and says how many there were. */
  disarmAll(): number;
  /** Disarms one fault; false when no fault has that id (never armed, used up, or disarmed). */
  disarm(id: string): boolean;
}

export function createArmedFaults(): ArmedFaults {
  const armed = new Map<string, ArmedFault>();
  return {
    arm(request, now) {
      const notAllowed = actionNotAllowedAt(request.point, request.action);
      if (notAllowed !== undefined) {
        throw new ProblemError({
          status: 400,
          code: 'FAULT_NOT_ALLOWED_AT_POINT',
          title: 'This action cannot happen at this point',
          detail: notAllowed,
        });
      }
      const times = request.times ?? 1;
      const fault: ArmedFault = {
        id: randomUUID(),
        point: request.point,
        action: request.action,
        match: request.match ?? {},
        times,
        remaining: times,
        reason: request.reason ?? null,
        armedAt: now.toISOString(),
      };
      armed.set(fault.id, fault);
      return { ...fault };
    },
    take(point, facts, call) {
      for (const fault of armed.values()) {
        if (fault.point !== point || !matchesFacts(fault.match, facts)) continue;
        // A mistake's path may reach a transaction point with its transaction
        // already committed; the fault waits for a call that has one open.
        if (fault.action === 'serialization-failure' && !call.inTransaction) continue;
        fault.remaining -= 1;
        if (fault.remaining === 0) armed.delete(fault.id);
        return { ...fault };
      }
      return undefined;
    },
    list: () => [...armed.values()].map((fault) => ({ ...fault })),
    disarm(id) {
      return armed.delete(id);
    },
    disarmAll() {
      const count = armed.size;
      armed.clear();
      return count;
    },
  };
}
