// Requests with one idempotency key racing on separate connections, against a
// real PostgreSQL: the claim's unique index and row lock are the point, so
// nothing here can be shown with a mocked database.
import { randomUUID } from 'node:crypto';
import { createTestDatabase, waitForLockWaiter } from '@effectively-once/postgres/testing';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { listLedger } from './authorization.repository.js';
import { claimKey, lockClaim } from './idempotency-record.repository.js';
import {
  authorizeOnce,
  gate,
  parseResponse,
  request,
  STALE_AFTER_MS,
} from './idempotent-request.fixtures.js';
import { providerMigrations } from './migrations/index.js';
import type { ProviderDatabase } from './provider.database.js';

const testDb = await createTestDatabase<ProviderDatabase>(providerMigrations);
const { db } = testDb;

const connection = (name: string) => testDb.connect({ maxConnections: 2, applicationName: name });

describe('runIdempotently on separate connections', () => {
  it('of two requests released together, one executes and one authorization exists', async () => {
    const key = `race-${randomUUID()}`;
    const start = gate();
    const send = async (pool: Kysely<ProviderDatabase>) => {
      await start.wait;
      return authorizeOnce({ connection: pool, key });
    };
    const racing = Promise.all([send(connection('race-a')), send(connection('race-b'))]);
    start.open();
    const results = await racing;

    const kinds = results.map((result) => result.kind).sort();
    expect(kinds[0]).toBe('executed');
    expect(['in_flight', 'replayed']).toContain(kinds[1]);
    expect(await listLedger(db, { idempotencyKey: key })).toHaveLength(1);
  });

  it('tells a second request that the first is in flight, then replays its answer', async () => {
    const key = `paused-${randomUUID()}`;
    const inWork = gate();
    const resume = gate();
    const first = authorizeOnce({
      connection: connection('paused-first'),
      key,
      before: async () => {
        inWork.open();
        await resume.wait;
      },
    });
    await inWork.wait;

    expect(await authorizeOnce({ connection: db, key })).toEqual({ kind: 'in_flight' });
    resume.open();
    const executed = await first;
    const replayed = await authorizeOnce({ connection: db, key });

    expect(executed.kind).toBe('executed');
    expect(replayed).toEqual({
      kind: 'replayed',
      response: executed.kind === 'executed' && executed.response,
    });
    expect(await listLedger(db, { idempotencyKey: key })).toHaveLength(1);
  });

  it('takes over a stale claim, and the old worker can no longer complete', async () => {
    const key = `stale-${randomUUID()}`;
    const crashed = await claimKey(db, {
      key,
      request,
      staleAfterMs: STALE_AFTER_MS,
      parseResponse,
    });
    expect(crashed.kind).toBe('claimed');

    const takeover = await authorizeOnce({ connection: db, key, staleAfterMs: 0 });

    expect(takeover.kind).toBe('executed');
    const oldClaimId = crashed.kind === 'claimed' ? crashed.claimId : '';
    const stillHeld = await db
      .transaction()
      .execute((trx) => lockClaim(trx, { key, claimId: oldClaimId }));
    expect(stillHeld).toBe(false);
    expect(await listLedger(db, { idempotencyKey: key })).toHaveLength(1);
  });

  it('makes a takeover wait while the holder works, then replays what it committed', async () => {
    const key = `held-${randomUUID()}`;
    const inWork = gate();
    const resume = gate();
    const holder = authorizeOnce({
      connection: connection('holder'),
      key,
      before: async () => {
        inWork.open();
        await resume.wait;
      },
    });
    await inWork.wait;
    // With staleAfterMs 0 the claim looks stale, but its row is locked by the
    // holder's transaction: the takeover waits for it instead of racing it.
    const taker = authorizeOnce({ connection: connection('taker'), key, staleAfterMs: 0 });
    await waitForLockWaiter(db as Kysely<unknown>, 'taker');
    resume.open();

    expect((await holder).kind).toBe('executed');
    expect((await taker).kind).toBe('replayed');
    expect(await listLedger(db, { idempotencyKey: key })).toHaveLength(1);
  });

  it('gives the key back when the work fails, so a retry runs afresh', async () => {
    const key = `failing-${randomUUID()}`;
    const failing = authorizeOnce({
      connection: db,
      key,
      before: () => Promise.reject(new Error('the card network fell over')),
    });
    await expect(failing).rejects.toThrow('the card network fell over');

    expect((await authorizeOnce({ connection: db, key })).kind).toBe('executed');
  });
});
