// What every fault of the soak's schedule is: a kind with a name, whether
// this stack can take it, and how it is done. The schedule (plan/soak-plan.ts)
// only names kinds; the injectors below do them.
import type { PlannedFault } from '../plan/soak-plan.js';
import type { SoakStack } from '../stack/soak-stack.js';

export interface FaultContext {
  readonly stack: SoakStack;
  readonly seed: number;
  /** For progress lines: the soak prints what it does as it does it. */
  readonly log: (line: string) => void;
}

export interface FaultInjector {
  readonly kind: string;
  /** How long the fault lasts in the long soak and in the short one (0: instant). */
  readonly durationMs: { readonly long: number; readonly short: number };
  /** Why this stack cannot take it, or undefined when it can. */
  unavailableBecause(stack: SoakStack): string | undefined | Promise<string | undefined>;
  /** Does the fault (and, for an outage, waits it out); resolves with what it did. */
  inject(context: FaultContext, fault: PlannedFault): Promise<string>;
}

export interface FaultRecord {
  readonly fault: PlannedFault;
  readonly startedAtMs: number;
  readonly outcome: { kind: 'done'; detail: string } | { kind: 'failed'; error: string };
}
