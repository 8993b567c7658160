// Marks the stretch of processOnce's transaction in which the caller's work
// runs, so that a test guard (testing/network-guard.ts) can tell a network call
// made there from one made anywhere else. The transaction's connection is
// acquired before the work starts, so marking only the work is enough: the
// driver's own connect is never inside the mark.
import { AsyncLocalStorage } from 'node:async_hooks';

/** Which consumer's work, on which message, is running inside its transaction. */
export interface TransactionScope {
  consumer: string;
  messageId: string;
}

const scope = new AsyncLocalStorage<TransactionScope>();

/**
 * Runs `work` marked as inside `at`'s transaction: one AsyncLocalStorage.run,
 * the only cost on the hot path.
 */
export function runInsideTransaction<T>(at: TransactionScope, work: () => Promise<T>): Promise<T> {
  return scope.run(at, work);
}

/** The transaction whose work the caller runs in, or undefined outside any. */
export function currentTransactionScope(): TransactionScope | undefined {
  return scope.getStore();
}
