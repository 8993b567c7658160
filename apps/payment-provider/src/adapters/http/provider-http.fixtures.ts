// The provider over HTTP for integration tests: a migrated database of the
// test file's own, the app built on it, and one helper per route.
import { randomUUID } from 'node:crypto';
import { Ledger, ProblemDetails } from '@effectively-once/contracts';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, expect } from 'vitest';
import { z } from 'zod';
import { buildApp, type AppDeps } from '../../app.js';
import { providerMigrations } from '../postgres/migrations/index.js';
import type { ProviderDatabase } from '../postgres/provider.database.js';

export const Approved = z.object({
  authorizationId: z.string(),
  status: z.literal('authorized'),
  amountCents: z.number(),
});

export const newKey = (operation = 'authorize'): string => `${operation}:${randomUUID()}`;

export function expectProblem(reply: LightMyRequestResponse, status: number, code: string): void {
  expect(reply.statusCode).toBe(status);
  expect(reply.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(ProblemDetails.parse(reply.json())).toMatchObject({ status, code });
}

/**
 * @example
 * const provider = await providerOverHttp();
 * const { authorizationId } = await provider.approve(newKey());
 */
export async function providerOverHttp(options: Partial<AppDeps> = {}) {
  const testDb = await createTestDatabase<ProviderDatabase>(providerMigrations);
  /** Far longer than any client waits: only a close ends it. */
  const app = buildApp({ db: testDb.db, timeoutDelayMs: 120_000, ...options });
  afterAll(() => app.close());

  const authorize = (input: { key?: string; paymentToken: string; amountCents?: number }) =>
    app.inject({
      method: 'POST',
      url: '/authorizations',
      headers: input.key === undefined ? {} : { 'idempotency-key': input.key },
      payload: {
        amountCents: input.amountCents ?? 2_000,
        currency: 'EUR',
        paymentToken: input.paymentToken,
      },
    });

  return {
    ...testDb,
    app,
    authorize,
    /** Authorizes with tok_approve and returns the grant. */
    approve: async (key: string, amountCents = 2_000) =>
      Approved.parse((await authorize({ key, paymentToken: 'tok_approve', amountCents })).json()),
    capture: (authorizationId: string, key: string, body?: object) =>
      app.inject({
        method: 'POST',
        url: `/authorizations/${encodeURIComponent(authorizationId)}/capture`,
        headers: { 'idempotency-key': key },
        ...(body === undefined ? {} : { payload: body }),
      }),
    voidAuthorization: (authorizationId: string, key: string) =>
      app.inject({
        method: 'POST',
        url: `/authorizations/${encodeURIComponent(authorizationId)}/void`,
        headers: { 'idempotency-key': key },
      }),
    closeKey: (key: string) =>
      app.inject({
        method: 'POST',
        url: `/authorization-keys/${encodeURIComponent(key)}/close`,
      }),
    ledgerFor: async (key: string) => {
      const reply = await app.inject({
        method: 'GET',
        url: '/ledger',
        query: { idempotencyKey: key },
      });
      return Ledger.parse(reply.json()).authorizations;
    },
  };
}
