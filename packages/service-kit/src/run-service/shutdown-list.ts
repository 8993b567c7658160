// One graceful shutdown, derived rather than hand-ordered: each part is added
// under its phase as it opens, and closing walks the phases in a fixed order,
// so a service cannot close its pool before the consumers that still use it.
import type { Closable } from './service-declaration.js';

/**
 * The order parts close in. The attached extension first: whatever it holds
 * (a held delivery) it lets go, or a held delivery would keep its
 * consumer from closing. The consumers next: their
 * deliveries in flight settle while everything they use is still open. Then
 * the workers and the relay, which write to the database and the store; HTTP,
 * whose operator routes run handlers; the clients those handlers use; and
 * last the event store and the database.
 */
export const SHUTDOWN_PHASES = [
  'extension',
  'consumers',
  'workers',
  'relay',
  'http',
  'clients',
  'store',
  'db',
] as const;
export type ShutdownPhase = (typeof SHUTDOWN_PHASES)[number];

export interface ShutdownList {
  add(phase: ShutdownPhase, part: Closable): void;
  /**
   * Closes every part added, phase by phase, each phase's parts in the order
   * they were added. A failing part does not keep the rest open: each failure
   * goes to `onCloseFailure`, and the first is thrown once all were tried.
   * Called twice, it closes once.
   */
  close(): Promise<void>;
}

/**
 * @example
 * const shutdown = shutdownList({ onCloseFailure: (phase, error) => log.error({ err: error, phase }, 'close failed') });
 * shutdown.add('db', { close: () => db.destroy() });
 * shutdown.add('consumers', consumer);
 * await shutdown.close(); // the consumer, then the database
 */
export function shutdownList(
  input: { onCloseFailure?: (phase: ShutdownPhase, error: unknown) => void } = {},
): ShutdownList {
  const parts: { phase: ShutdownPhase; part: Closable }[] = [];
  let closed: Promise<void> | undefined;
  const closeAll = async (): Promise<void> => {
    const rank = (phase: ShutdownPhase): number => SHUTDOWN_PHASES.indexOf(phase);
    // Array.prototype.sort is stable: parts of one phase keep their order.
    const ordered = [...parts].sort((a, b) => rank(a.phase) - rank(b.phase));
    const failures: unknown[] = [];
    for (const { phase, part } of ordered) {
      try {
        await part.close();
      } catch (error) {
        failures.push(error);
        input.onCloseFailure?.(phase, error);
      }
    }
    if (failures.length > 0) throw failures[0];
  };
  return {
    add(phase, part) {
      // A bug in the kit, not something a declaration can cause: runService adds
      // every part before it returns the service, and only then can it close.
      if (closed !== undefined) throw new Error(`Cannot add to the ${phase} phase: closing began.`);
      parts.push({ phase, part });
    },
    close() {
      closed ??= closeAll();
      return closed;
    },
  };
}
