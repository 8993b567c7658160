import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { startOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './outbox-relay.js';
import type { OutboxTables } from './outbox.table.js';
import { RELAY_APPLICATION_NAME, sessionLock } from './relay-lock.js';
import {
  enqueueCommitted,
  newStream,
  outboxFixture,
  publishedCounter,
  streamEventIds,
  thingHappened,
} from './testing/fixtures.js';
import { gate, interceptAppends } from './testing/intercept-appends.js';
import type { RelayChildArgs } from './testing/relay-child.js';
import { relayLockHolders } from './testing/relay-lock-holders.js';

const { db, url, store, storeUrl, connect } = await outboxFixture();
const observer = db as Kysely<unknown>;

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const CHILD_SCRIPT = fileURLToPath(new URL('./testing/relay-child.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A relay as another service instance runs it: its own pool. */
function startRelay(options: Partial<OutboxRelayOptions<OutboxTables>>): OutboxRelay {
  return startOutboxRelay({
    db: connect(),
    store,
    log: silent,
    pollIntervalMs: 60_000,
    ...options,
  });
}

/** Counts the appends a relay makes, whatever their outcome. */
function countingStore() {
  let appends = 0;
  return {
    store: interceptAppends(store, (call) => {
      appends += 1;
      return call.append();
    }),
    appends: () => appends,
  };
}

const ChildLineSchema = z.union([
  z.object({ step: z.literal('flushed'), published: z.number(), pid: z.number() }),
  z.object({ step: z.literal('closed') }),
]);

function startChild(args: RelayChildArgs) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD_SCRIPT, JSON.stringify(args)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done === true) throw new Error(`The relay process ended (${String(await exited)}).`);
    return ChildLineSchema.parse(JSON.parse(line.value));
  };
  return { child, exited, next };
}

/** Waits until the server has ended a dead relay's session; fails after `timeoutMs`. */
async function waitForLockHolders(count: number, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const holders = await relayLockHolders(observer);
    if (holders.length === count) return holders;
    if (Date.now() > deadline)
      throw new Error(`The relay lock is still held: ${JSON.stringify(holders)}.`);
    await sleep(10);
  }
}

describe.each([
  { lock: 'session' as const, extra: { databaseUrl: url } },
  { lock: 'transaction' as const, extra: {} },
])('two relays of one database ($lock lock)', ({ lock, extra }) => {
  it('never publish side by side: while one is in a batch, the other publishes nothing', async () => {
    // Given relay A stopped in the middle of its append
    const streamName = newStream();
    const [id] = await enqueueCommitted(db, [thingHappened(streamName, 0)]);
    const inAppend = gate();
    const counterA = publishedCounter();
    const a = startRelay({
      ...extra,
      onPublished: counterA.onPublished,
      store: interceptAppends(store, async (call) => {
        await inAppend.pass();
        return call.append();
      }),
    });
    const b = countingStore();
    let relayB: OutboxRelay | undefined;
    try {
      await inAppend.reached;
      relayB = startRelay({ ...extra, store: b.store });

      // When relay B is asked to publish
      const publishedByB = await relayB.flush();

      // Then it publishes nothing, and A, let go, publishes the event once
      expect(publishedByB).toBe(0);
      expect(await relayB.pending()).toBeGreaterThanOrEqual(1);
      inAppend.open();
      await counterA.reached(1);
      expect(await streamEventIds(store, streamName)).toEqual([id]);
      expect(b.appends()).toBe(0);
    } finally {
      inAppend.open();
      await Promise.all([a.close(), relayB?.close()]);
    }
  });

  it('close leaves nothing running: the process ends by itself', async () => {
    const streamName = newStream();
    await enqueueCommitted(db, [thingHappened(streamName, 0)]);
    const { child, exited, next } = startChild({
      databaseUrl: url,
      storeUrl,
      lock,
      then: 'close',
    });
    try {
      expect(await next()).toMatchObject({ step: 'flushed' });
      expect(await next()).toEqual({ step: 'closed' });
      // The deadline only bounds a failure: a relay that left a timer or a
      // connection behind would keep the process alive.
      const deadline = new AbortController();
      const stillRunning = sleep(10_000, 'still running', { signal: deadline.signal });
      try {
        expect(await Promise.race([exited, stillRunning])).toBe(0);
      } finally {
        deadline.abort();
        await stillRunning.catch(() => undefined);
      }
      expect(await streamEventIds(store, streamName)).toHaveLength(1);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('the session lock', () => {
  it('stays with the active relay between batches; the other relay stays standby', async () => {
    // Given relay A active, then relay B started
    const counterA = publishedCounter();
    const a = startRelay({
      databaseUrl: url,
      pollIntervalMs: 20,
      onPublished: counterA.onPublished,
    });
    await a.flush();
    const b = countingStore();
    const relayB = startRelay({ databaseUrl: url, pollIntervalMs: 20, store: b.store });
    try {
      await relayB.flush();

      // When rows of several streams commit, in several transactions
      const streams = [newStream(), newStream(), newStream()];
      const ids: string[][] = [[], [], []];
      for (let index = 0; index < 12; index++) {
        const [id] = await enqueueCommitted(db, [thingHappened(streams[index % 3]!, index)]);
        ids[index % 3]!.push(id!);
      }

      // Then A publishes them all, in order, and B never appends
      await counterA.reached(12);
      for (const [index, streamName] of streams.entries()) {
        expect(await streamEventIds(store, streamName)).toEqual(ids[index]);
      }
      expect(b.appends()).toBe(0);
      const holders = await relayLockHolders(observer);
      expect(holders.map((holder) => holder.applicationName)).toEqual([RELAY_APPLICATION_NAME]);
    } finally {
      await Promise.all([a.close(), relayB.close()]);
    }
  });

  it('is the only one listening: a standby hears no new rows until it takes the lock', async () => {
    // Given relay A's lock taken and relay B's found held
    let heardByA = 0;
    let heardByB = 0;
    const lockOf = (onNotification: () => void) =>
      sessionLock({ url, onNotification, provenForMs: 60_000, log: silent });
    const a = lockOf(() => heardByA++);
    const b = lockOf(() => heardByB++);
    const held = () => Promise.resolve(true);
    try {
      expect(await a.withLock(held)).toBe(true);
      expect(await b.withLock(held)).toBeUndefined();

      // When rows commit in three transactions
      for (let index = 0; index < 3; index++) {
        await enqueueCommitted(db, [thingHappened(newStream(), 0)]);
      }

      // Then A hears each and B none: a round trip on B's session comes back
      // after any notification its backend had to send it
      await vi.waitFor(() => expect(heardByA).toBe(3));
      expect(await b.withLock(held)).toBeUndefined();
      expect(heardByB).toBe(0);

      // And once A lets go, B takes the lock and from then on hears new rows
      await a.close();
      expect(await b.withLock(held)).toBe(true);
      await enqueueCommitted(db, [thingHappened(newStream(), 0)]);
      await vi.waitFor(() => expect(heardByB).toBe(1));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('is released by close at once, so a standby takes over', async () => {
    // Given relay A active and relay B standby
    const a = startRelay({ databaseUrl: url });
    await a.flush();
    const relayB = startRelay({ databaseUrl: url });
    try {
      await relayB.flush();
      const [holderA] = await relayLockHolders(observer);

      // When A closes
      await a.close();

      // Then B's next flush takes the lock and publishes (the count is not
      // asserted: B's loop, woken by the insert, may publish it first)
      const streamName = newStream();
      const [id] = await enqueueCommitted(db, [thingHappened(streamName, 0)]);
      await relayB.flush();
      expect(await streamEventIds(store, streamName)).toEqual([id]);
      const holders = await relayLockHolders(observer);
      expect(holders).toHaveLength(1);
      expect(holders[0]?.pid).not.toBe(holderA?.pid);
    } finally {
      await Promise.all([a.close(), relayB.close()]);
    }
  });

  it('is not taken again by a flush that races close', async () => {
    const relay = startRelay({ databaseUrl: url });
    await relay.flush();
    const racing = relay.flush().catch((error: unknown) => error);
    await relay.close();
    const outcome = await racing;
    expect(outcome === 0 || String(outcome).includes('closed')).toBe(true);
    expect(await relayLockHolders(observer)).toEqual([]);
  });

  it('passes to a standby when the active relay process is killed', async () => {
    // Given a relay process that holds the lock, and a standby relay here
    const { child, exited, next } = startChild({
      databaseUrl: url,
      storeUrl,
      lock: 'session',
      then: 'hold',
    });
    let standby: OutboxRelay | undefined;
    try {
      expect(await next()).toMatchObject({ step: 'flushed' });
      const [holder] = await relayLockHolders(observer);
      expect(holder).toBeDefined();
      standby = startRelay({ databaseUrl: url });
      await enqueueCommitted(db, [thingHappened(newStream(), 0)]);
      expect(await standby.flush()).toBe(0);
      expect(await relayLockHolders(observer)).toEqual([holder]);

      // When the active relay's process dies
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      await waitForLockHolders(0);

      // Then the standby takes the lock and publishes
      const streamName = newStream();
      const [id] = await enqueueCommitted(db, [thingHappened(streamName, 0)]);
      await standby.flush();
      expect(await streamEventIds(store, streamName)).toEqual([id]);
      const [newHolder] = await relayLockHolders(observer);
      expect(newHolder?.pid).not.toBe(holder?.pid);
    } finally {
      child.kill('SIGKILL');
      await standby?.close();
    }
  });
});
