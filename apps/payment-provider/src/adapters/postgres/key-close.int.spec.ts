// A close and an authorization racing for one key on separate connections,
// against a real PostgreSQL. The promise under test: once a close has
// answered `closed`, no authorization exists under the key, ever.
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
import { closeKey } from './key-close.repository.js';
import { providerMigrations } from './migrations/index.js';
import type { ProviderDatabase } from './provider.database.js';

const testDb = await createTestDatabase<ProviderDatabase>(providerMigrations);
const { db } = testDb;
const connection = (name: string) => testDb.connect({ maxConnections: 2, applicationName: name });

const close = (input: {
  key: string;
  connection?: Kysely<ProviderDatabase>;
  staleAfterMs?: number;
}) =>
  closeKey(input.connection ?? db, {
    key: input.key,
    staleAfterMs: input.staleAfterMs ?? STALE_AFTER_MS,
    parseResponse,
  });

describe('closeKey against authorizations on separate connections', () => {
  it('close first: the key is closed and a later authorization is refused and books nothing', async () => {
    const key = `close-first-${randomUUID()}`;

    expect(await close({ key })).toEqual({ kind: 'closed' });
    expect(await authorizeOnce({ connection: connection('late-authorize'), key })).toEqual({
      kind: 'closed',
    });
    expect(await close({ key })).toEqual({ kind: 'closed' });
    expect(await listLedger(db, { idempotencyKey: key })).toEqual([]);
  });

  it('authorization first: the close is told it is in flight, then learns the answer', async () => {
    const key = `authorize-first-${randomUUID()}`;
    const inWork = gate();
    const resume = gate();
    const authorizing = authorizeOnce({
      connection: connection('paused-authorize'),
      key,
      before: async () => {
        inWork.open();
        await resume.wait;
      },
    });
    await inWork.wait;

    expect(await close({ key })).toEqual({ kind: 'in_flight' });
    resume.open();
    const executed = await authorizing;
    const closedAfter = await close({ key });

    expect(executed.kind).toBe('executed');
    expect(closedAfter).toEqual({
      kind: 'stored',
      response: executed.kind === 'executed' && executed.response,
    });
    expect(await listLedger(db, { idempotencyKey: key })).toHaveLength(1);
  });

  it('released together, round after round: "closed" and an authorization never both happen', async () => {
    const closer = connection('racing-close');
    const authorizer = connection('racing-authorize');
    for (let round = 0; round < 20; round += 1) {
      const key = `race-${randomUUID()}`;
      const start = gate();
      const closing = start.wait.then(() => close({ key, connection: closer }));
      const authorizing = start.wait.then(() => authorizeOnce({ connection: authorizer, key }));
      start.open();
      const [closed, authorized] = await Promise.all([closing, authorizing]);
      const ledger = await listLedger(db, { idempotencyKey: key });

      if (closed.kind === 'closed') {
        expect(authorized).toEqual({ kind: 'closed' });
        expect(ledger).toEqual([]);
      } else {
        expect(authorized.kind).toBe('executed');
        expect(['in_flight', 'stored']).toContain(closed.kind);
        expect(ledger).toHaveLength(1);
      }
    }
  });

  it("closes a dead worker's stale claim, and that worker can no longer complete", async () => {
    const key = `stale-${randomUUID()}`;
    const crashed = await claimKey(db, {
      key,
      request,
      staleAfterMs: STALE_AFTER_MS,
      parseResponse,
    });
    expect(crashed.kind).toBe('claimed');

    expect(await close({ key, staleAfterMs: 0 })).toEqual({ kind: 'closed' });

    const oldClaimId = crashed.kind === 'claimed' ? crashed.claimId : '';
    const stillHeld = await db
      .transaction()
      .execute((trx) => lockClaim(trx, { key, claimId: oldClaimId }));
    expect(stillHeld).toBe(false);
    expect(await authorizeOnce({ connection: db, key, staleAfterMs: 0 })).toEqual({
      kind: 'closed',
    });
    expect(await listLedger(db, { idempotencyKey: key })).toEqual([]);
  });

  it('waits for a stale-looking worker still in its transaction, then reports what it committed', async () => {
    const key = `held-${randomUUID()}`;
    const inWork = gate();
    const resume = gate();
    const holder = authorizeOnce({
      connection: connection('holding-authorize'),
      key,
      before: async () => {
        inWork.open();
        await resume.wait;
      },
    });
    await inWork.wait;
    // With staleAfterMs 0 the claim looks stale, but its row is locked by the
    // holder's transaction: the close waits for it instead of fencing it.
    const closing = close({ key, connection: connection('waiting-close'), staleAfterMs: 0 });
    await waitForLockWaiter(db as Kysely<unknown>, 'waiting-close');
    resume.open();

    expect((await holder).kind).toBe('executed');
    expect((await closing).kind).toBe('stored');
    expect(await listLedger(db, { idempotencyKey: key })).toHaveLength(1);
  });

  it('closes a key whose authorization failed transiently: nothing was stored', async () => {
    const key = `released-${randomUUID()}`;
    const failing = authorizeOnce({
      connection: db,
      key,
      before: () => Promise.reject(new Error('the card network fell over')),
    });
    await expect(failing).rejects.toThrow('the card network fell over');

    expect(await close({ key })).toEqual({ kind: 'closed' });
    expect(await authorizeOnce({ connection: db, key })).toEqual({ kind: 'closed' });
  });
});
