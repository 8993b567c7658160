// A step reporter that fails at one step, as a crash there would stop the
// work, and remembers every step reached with the facts it was given: how a
// test shows what a crash window leaves behind.
import type { StepFacts, StepReporter } from '../steps/steps.js';

export interface FailingStepReporter extends StepReporter {
  readonly seen: { step: string; facts: StepFacts }[];
}

/**
 * @example
 * const steps = failingAtStep('provider-authorized');
 * await expect(handlePaymentRequested({ ...deps, steps }, event, recorded)).rejects.toThrow('failed at step provider-authorized');
 */
export function failingAtStep(failing: string): FailingStepReporter {
  const seen: FailingStepReporter['seen'] = [];
  return {
    seen,
    reached: (step, facts) => {
      seen.push({ step, facts });
      return step === failing
        ? Promise.reject(new Error(`failed at step ${step}`))
        : Promise.resolve();
    },
  };
}
