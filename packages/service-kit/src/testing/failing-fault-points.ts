// Fault points that fail at one point, as a fault armed with `fail` does in the
// failure lab, and remember every point reached with the facts it was given.
import type { FaultFacts, FaultPoints, ServiceFaultPoint } from '../faults/fault-points.js';

export interface FailingFaultPoints extends FaultPoints {
  readonly reached: { point: ServiceFaultPoint; facts: FaultFacts }[];
}

/**
 * @example
 * const faults = failingAt('after-provider-authorized');
 * await expect(handlePaymentRequested({ ...deps, faults }, event, recorded)).rejects.toThrow('injected');
 */
export function failingAt(failing: ServiceFaultPoint): FailingFaultPoints {
  const reached: FailingFaultPoints['reached'] = [];
  return {
    reached,
    hit: (point, facts) => {
      reached.push({ point, facts });
      return point === failing
        ? Promise.reject(new Error(`injected fault at ${point}`))
        : Promise.resolve();
    },
  };
}
