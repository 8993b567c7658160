// The failure laboratory's view into processOnce: named points a lab can
// observe, hold or break, and the marker mistakes it can switch on for one
// consumer to show what each one costs. Outside the lab no probe is active and
// processOnce runs exactly its correct path.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Transaction } from 'kysely';
import type { MessageRef } from '../message.js';

/** Where processOnce stops to tell the probe, in the order a delivery passes them. */
export const PROBE_POINTS = ['before-claim', 'after-claim', 'after-business'] as const;
export type ProbePoint = (typeof PROBE_POINTS)[number];

/**
 * The ways to get the marker wrong that the lab can reproduce, one file each in
 * `src/mistakes/`. 'ack-before-commit' is a delivery mistake and lives in the
 * service kit.
 */
export const MARKER_MISTAKES = [
  'check-then-act',
  'marker-own-transaction-first',
  'marker-after-business',
  'message-id-alone',
  'in-memory-cache',
  'per-instance-consumer-name',
] as const;
export type MarkerMistake = (typeof MARKER_MISTAKES)[number];

export interface ProbeContext {
  /** The consumer's logical name, even when a mistake claims under another one. */
  consumer: string;
  message: MessageRef;
  /** 1-based; a whole-transaction retry after 40001 / 40P01 starts the next one. */
  attempt: number;
  /**
   * The open transaction at this point, so a probe can act inside it (raise
   * 40001, say); undefined where a mistaken flow has committed and holds none.
   */
  trx: Transaction<unknown> | undefined;
}

export interface ProcessingProbe {
  /** The mistake this consumer reproduces, for teaching; undefined runs the correct path. */
  markerMistake(consumer: string): MarkerMistake | undefined;
  /**
   * Called at each point. It may wait (a hold), throw (the attempt fails and
   * rolls back what is still open) or never return (a crash).
   */
  reached(point: ProbePoint, context: ProbeContext): Promise<void>;
}

const activeProbe = new AsyncLocalStorage<ProcessingProbe | undefined>();

/**
 * Runs `run` with `probe` active for every processOnce it calls, however deep,
 * without passing it through handler signatures.
 *
 * @example
 * await withProcessingProbe(lab, () => handler(event));
 */
export function withProcessingProbe<T>(
  probe: ProcessingProbe | undefined,
  run: () => Promise<T>,
): Promise<T> {
  // Outside the lab there is nothing to clear: calling `run` directly keeps
  // AsyncLocalStorage (and, on Node 20, its promise hooks) switched off.
  if (probe === undefined && activeProbe.getStore() === undefined) return run();
  return activeProbe.run(probe, run);
}

/** The probe of the current call chain, if a lab installed one. */
export function activeProcessingProbe(): ProcessingProbe | undefined {
  return activeProbe.getStore();
}
