// Named steps: the points a service's code reaches for its own reasons and
// says so ("provider-authorized": the card processor answered, nothing is
// recorded yet). Each one marks a crash window of docs/saga.md, so it is
// worth seeing in production (a debug line today, a span event with tracing)
// and worth stopping at in a test (a listener that throws there shows what a
// crash in that window leaves behind). The code that reaches a step does not
// know who listens.

/** What a step is about; listeners match on these ids, never on a payload. */
export interface StepFacts {
  consumer?: string | undefined;
  eventType?: string | undefined;
  /** The order: the event's correlation id. */
  orderId?: string | undefined;
  messageId?: string | undefined;
}

/**
 * Hears every step reached. It may wait, and what it throws fails the work at
 * that step like any failure there (retried, since nothing was recorded yet):
 * that is how a test stops in a crash window. A listener that only observes
 * must not throw.
 */
export type StepListener = (step: string, facts: StepFacts) => Promise<void>;

/** What the kit hands a service's code (ServiceContext.steps) to report its steps through. */
export interface StepReporter {
  /**
   * @example
   * await steps.reached('provider-authorized', { consumer, eventType, orderId, messageId });
   */
  reached(step: string, facts: StepFacts): Promise<void>;
}

/** Tells `listeners` of each step, one after the other, in the order given. */
export function stepReporter(listeners: readonly StepListener[]): StepReporter {
  if (listeners.length === 0) return unheardSteps;
  return {
    async reached(step, facts) {
      for (const listener of listeners) await listener(step, facts);
    },
  };
}

/** Steps nobody listens to: the default of code called without a reporter (a unit test, a script). */
export const unheardSteps: StepReporter = Object.freeze({
  reached: () => Promise.resolve(),
});

/**
 * The listener every service has: each step as a debug line, so a production
 * log at LOG_LEVEL=debug shows how far a message got before a crash.
 */
export function loggedSteps(log: { debug(fields: object, message: string): void }): StepListener {
  return (step, facts) => {
    log.debug({ step, ...facts }, 'step reached');
    return Promise.resolve();
  };
}
