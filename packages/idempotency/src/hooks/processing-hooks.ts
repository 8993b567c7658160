// Extension by hooks, not forks of the path: whoever runs processOnce (a test
// that stops in a crash window, an extension attached to the service) can hear
// its points and choose the attempt flow for a consumer, without processOnce
// knowing who listens. With no hooks active processOnce runs exactly its
// correct path.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Transaction } from 'kysely';
import type { AttemptStrategy } from '../attempt-once.js';
import type { MessageRef } from '../message.js';
import type { ProcessingPoint } from './points.js';

export interface PointContext {
  /** The consumer's logical name, even when a flow claims under another one. */
  consumer: string;
  message: MessageRef;
  /** 1-based; a whole-transaction retry after 40001 / 40P01 starts the next one. */
  attempt: number;
  /**
   * The open transaction at this point, so a hook can act inside it (raise
   * 40001, say); undefined where a flow has committed and holds none.
   */
  trx: Transaction<unknown> | undefined;
}

export interface ProcessingHooks {
  /**
   * Called at each point. It may wait (a hold), throw (the attempt fails and
   * rolls back what is still open) or never return (a crash).
   */
  reached(point: ProcessingPoint, context: PointContext): Promise<void>;
  /**
   * The attempt flow to run for this consumer instead of `attemptOnce` (a
   * deliberately wrong one, to show what it breaks). Asked once per processOnce call, so a
   * switch flipped mid-retry does not change the flow. Undefined: the correct path.
   */
  attemptFor?(consumer: string): AttemptStrategy | undefined;
}

const activeHooks = new AsyncLocalStorage<ProcessingHooks | undefined>();

/**
 * Runs `run` with `hooks` active for every processOnce it calls, however deep,
 * without passing them through handler signatures.
 *
 * @example
 * await withProcessingHooks(hooks, () => handler(event));
 */
export function withProcessingHooks<T>(
  hooks: ProcessingHooks | undefined,
  run: () => Promise<T>,
): Promise<T> {
  // Without hooks there is nothing to clear: calling `run` directly keeps
  // AsyncLocalStorage (and, on Node 20, its promise hooks) switched off.
  if (hooks === undefined && activeHooks.getStore() === undefined) return run();
  return activeHooks.run(hooks, run);
}

/** The hooks of the current call chain, if someone installed them. */
export function activeProcessingHooks(): ProcessingHooks | undefined {
  return activeHooks.getStore();
}
