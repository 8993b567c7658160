// The idempotency kit's network guard, wired into a Vitest file in one call:
// every consumer's integration tests fail if its work opens an SMTP or HTTP
// connection while processOnce's transaction is open (ADR 0012).
import {
  guardNetworkInsideTransactions,
  type NetworkGuard,
  type NetworkGuardOptions,
} from '@effectively-once/idempotency/testing';
import { afterAll, afterEach, inject } from 'vitest';

/**
 * Installs the guard for this test file: each test fails afterwards if its
 * handlers made a network call inside a transaction, and the file's end
 * uninstalls it. The run's PostgreSQL server is always allowed, since a pool
 * may open a connection to it while a work runs; `allow` adds more.
 *
 * @example
 * failOnNetworkInsideTransactions();
 */
export function failOnNetworkInsideTransactions(options: NetworkGuardOptions = {}): NetworkGuard {
  const guard = guardNetworkInsideTransactions({
    allow: [inject('postgresAdminUrl'), ...(options.allow ?? [])],
  });
  afterEach(() => {
    try {
      guard.assertNone();
    } finally {
      guard.clear();
    }
  });
  afterAll(() => {
    guard.uninstall();
  });
  return guard;
}
