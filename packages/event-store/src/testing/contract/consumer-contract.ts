import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import type { PersistentSubscription } from '../../port/subscription.js';
import { ChildReportSchema } from '../child-store-spec.js';
import { receive, waitUntil } from '../receiver.js';
import { groupOnOwnPrefix, type GroupContext } from './group-contract.js';
import { newEvent, newEvents } from './harness.js';

const CHILD_SCRIPT = fileURLToPath(new URL('../consumer-child.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));

/** Starts a consumer process and resolves with it once it reports its first delivery. */
async function startChildConsumer(args: object) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD_SCRIPT, JSON.stringify(args)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  const lines = createInterface({ input: child.stdout });
  const firstReport = new Promise<unknown>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line)));
    void exited.then((how) =>
      reject(new Error(`The consumer process ended (${String(how)}) before a delivery.`)),
    );
  });
  return { child, exited, report: ChildReportSchema.parse(await firstReport) };
}

/** Acknowledges everything it receives, recording which consumer handled which event. */
async function ackAll(
  subscription: PersistentSubscription,
  handled: Map<string, number>,
  consumer: number,
) {
  for await (const delivery of subscription) {
    // Yield once, as real work would, so that the other consumers get a turn.
    await new Promise((resolve) => setImmediate(resolve));
    expect(handled.has(delivery.event.id), `event ${delivery.event.id} handled twice`).toBe(false);
    handled.set(delivery.event.id, consumer);
    await delivery.ack();
  }
}

/** Competing consumers, and a consumer that dies. */
export function consumerContract(context: GroupContext): void {
  it('a consumer process killed before acknowledging: the event is delivered again, to another consumer', async () => {
    // A long message timeout, so a quick redelivery can only come from noticing the death.
    const { group, stream } = await groupOnOwnPrefix(context.store(), { messageTimeoutMs: 60_000 });
    const event = newEvent('OrderPlaced');
    await context.store().appendToStream(stream, [event], { expectedRevision: 'no_stream' });
    const { child, exited, report } = await startChildConsumer({
      store: context.harness().childStore,
      group,
    });
    try {
      expect(report).toEqual({ received: event.id, retryCount: 0 });
    } finally {
      // Killed here in any case: a failed expectation must not leave it running.
      child.kill('SIGKILL');
    }
    expect(await exited).toBe('SIGKILL');
    const survivor = context.store().subscribeToGroup(group);
    const redelivered = await receive(survivor).next(20_000);
    expect({ id: redelivered.event.id, retryCount: redelivered.retryCount }).toEqual({
      id: event.id,
      retryCount: 1,
    });
    await redelivered.ack();
    await survivor.close();
  });

  it('competing consumers share the load; no event is lost, skipped or settled twice', async () => {
    const { group, prefix } = await groupOnOwnPrefix(context.store());
    const stores = await Promise.all([1, 2, 3].map(() => context.harness().openStore()));
    try {
      const subscriptions = stores.map((store) =>
        store.subscribeToGroup(group, { maxInFlight: 2 }),
      );
      const handled = new Map<string, number>();
      const consumers = subscriptions.map((subscription, consumer) =>
        ackAll(subscription, handled, consumer),
      );
      // Twelve streams, as twelve orders would be: the embedded store wakes one
      // consumer of a group per stream (ADR 0039), so the burst of a single
      // stream may go to whichever consumer its name picks.
      const events = newEvents(60);
      for (let index = 0; index < events.length; index += 5) {
        await context
          .store()
          .appendToStream(`${prefix}-${String(index / 5)}`, events.slice(index, index + 5), {
            expectedRevision: 'any',
          });
      }
      await waitUntil(
        () => (handled.size === events.length ? true : undefined),
        'all 60 are handled',
        30_000,
      );
      await Promise.all(subscriptions.map((subscription) => subscription.close()));
      await Promise.all(consumers);
      expect([...handled.keys()].sort()).toEqual(events.map((event) => event.id).sort());
      expect(new Set(handled.values()).size).toBeGreaterThan(1);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('dispatch_to_single hands every event to one consumer', async () => {
    const { group, stream } = await groupOnOwnPrefix(context.store(), {
      consumerStrategy: 'dispatch_to_single',
    });
    const other = await context.harness().openStore();
    try {
      const subscriptions = [
        context.store().subscribeToGroup(group),
        other.subscribeToGroup(group),
      ];
      const handled = new Map<string, number>();
      const consumers = subscriptions.map((subscription, consumer) =>
        ackAll(subscription, handled, consumer),
      );
      const events = newEvents(6);
      await context.store().appendToStream(stream, events, { expectedRevision: 'no_stream' });
      await waitUntil(
        () => (handled.size === events.length ? true : undefined),
        'all six are handled',
      );
      await Promise.all(subscriptions.map((subscription) => subscription.close()));
      await Promise.all(consumers);
      expect(new Set(handled.values()).size).toBe(1);
    } finally {
      await other.close();
    }
  });
}
