// The real payment provider (apps/payment-provider), started in this test
// process on a free port over a database of its own: the client under test
// speaks real HTTP to the real idempotency-key logic.
import { Ledger } from '@effectively-once/contracts';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { afterAll } from 'vitest';
// The provider stands in for an external system, and tests want the real one
// rather than a copy of its rules: the one kind of app-to-app import allowed.
import {
  buildApp,
  providerMigrations,
  type ProviderDatabase,
} from '@effectively-once/payment-provider/testing';

export interface ProviderHarness {
  url: string;
  /** The provider's ledger, optionally only the authorization taken with this key. */
  ledger(idempotencyKey?: string): Promise<Ledger['authorizations']>;
}

/**
 * @example
 * const provider = await startPaymentProvider({ timeoutDelayMs: 10_000 });
 * const [entry] = await provider.ledger(`authorize:${attemptId}`);
 */
export async function startPaymentProvider(input: {
  timeoutDelayMs: number;
}): Promise<ProviderHarness> {
  const { db } = await createTestDatabase<ProviderDatabase>(providerMigrations);
  const app = buildApp({ db, timeoutDelayMs: input.timeoutDelayMs });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  afterAll(() => app.close());
  return {
    url,
    async ledger(idempotencyKey) {
      const query =
        idempotencyKey === undefined
          ? ''
          : `?${new URLSearchParams({ idempotencyKey }).toString()}`;
      const response = await fetch(new URL(`/ledger${query}`, url));
      return Ledger.parse(await response.json()).authorizations;
    },
  };
}
