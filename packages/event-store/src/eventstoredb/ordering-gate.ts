// Per-key ordering on EventStoreDB, which has none (ADR 0009): one gate per
// connection lets the first unsettled message of a key through and holds the
// later ones of that key (unsettled at the server, so they use the
// connection's buffer) until it is acknowledged or skipped. The guarantee is
// per connection: competing round_robin consumers each order only their own.
// The head is one delivery, not one event: when the server hands a message
// out again (its message timeout ran out), only the newer delivery's
// settlement moves the key on; the stale one's would let the next message
// run beside the newer delivery (issue 27, finding 3).
import { comparePositions, type RecordedEvent } from '../port/envelope.js';
import { orderingKeyOf } from '../port/ordering-key.js';
import type { BlockedMessage, BlockingState, OrderingKey } from '../port/subscription.js';

export interface GateEntry {
  readonly event: RecordedEvent;
  /** Hands the message to the consumer. */
  release(): void;
  /** Parks it at the server, behind a parked message of its key. */
  park(reason: string): Promise<void>;
}

export type Outcome =
  | { readonly kind: 'done' }
  | { readonly kind: 'retry_scheduled'; readonly notBefore: Date }
  | { readonly kind: 'parked' };

interface Head {
  /** The delivery that holds the key; its event is `entry.event`. */
  readonly entry: GateEntry;
  readonly event: RecordedEvent;
  state: Exclude<BlockingState, 'queued'>;
  notBefore?: Date | undefined;
  timer?: NodeJS.Timeout | undefined;
}

interface KeyState {
  head: Head;
  readonly held: GateEntry[];
}

export interface OrderingGateOptions {
  readonly orderingKey: OrderingKey | undefined;
  /**
   * How long after its notBefore a retried head may take to come back to this
   * connection. Its retry record may go to another consumer; past this the
   * key is released rather than held for ever.
   */
  readonly retryGraceMs: number;
  /** Failures of `park`, which runs outside any caller. */
  readonly onError: (error: unknown) => void;
}

/**
 * @example
 * const gate = orderingGate({ orderingKey, retryGraceMs: 30_000, onError: queue.fail });
 * gate.offer({ event, release: () => queue.push(delivery), park: (reason) => source.park(reason) });
 * gate.settled(entry, { kind: 'done' });
 */
export function orderingGate(options: OrderingGateOptions) {
  const keys = new Map<string, KeyState>();
  const source = options.orderingKey?.source;
  const supersede = new Set(options.orderingKey?.supersedeParkedWith ?? []);

  const admit = (key: string, entry: GateEntry): void => {
    const state = keys.get(key);
    const head: Head = { entry, event: entry.event, state: 'in_flight' };
    if (state === undefined) keys.set(key, { head, held: [] });
    else {
      clearTimeout(state.head.timer);
      state.head = head;
    }
    entry.release();
  };

  const parkBehind = (key: string, head: Head, entry: GateEntry): void => {
    const reason = `blocked by parked message ${head.event.id} (${head.event.type}) of ordering key "${key}"`;
    entry.park(reason).catch(options.onError);
  };

  /** The head left: the next held message goes, or waits behind a parked head. */
  const advance = (key: string, state: KeyState): void => {
    clearTimeout(state.head.timer);
    for (let next = state.held.shift(); next !== undefined; next = state.held.shift()) {
      if (state.head.state !== 'parked' || supersede.has(next.event.type)) {
        admit(key, next);
        return;
      }
      parkBehind(key, state.head, next);
    }
    if (state.head.state !== 'parked') keys.delete(key);
  };

  return {
    offer(entry: GateEntry): void {
      const key = source === undefined ? undefined : orderingKeyOf(entry.event, source);
      const state = key === undefined ? undefined : keys.get(key);
      if (key === undefined || state === undefined || state.head.event.id === entry.event.id) {
        if (key === undefined) entry.release();
        else admit(key, entry);
        return;
      }
      if (state.head.state === 'parked') {
        if (supersede.has(entry.event.type)) admit(key, entry);
        else parkBehind(key, state.head, entry);
        return;
      }
      const at = state.held.findIndex(
        (held) => comparePositions(held.event.position, entry.event.position) > 0,
      );
      state.held.splice(at === -1 ? state.held.length : at, 0, entry);
    },

    /** The delivery `entry` was settled; a stale delivery of the head's event changes nothing. */
    settled(entry: GateEntry, outcome: Outcome): void {
      const key = source === undefined ? undefined : orderingKeyOf(entry.event, source);
      const state = key === undefined ? undefined : keys.get(key);
      if (key === undefined || state?.head.entry !== entry) return;
      if (outcome.kind === 'retry_scheduled') {
        const head = state.head;
        head.state = 'retry_scheduled';
        head.notBefore = outcome.notBefore;
        const wait = Math.max(0, outcome.notBefore.getTime() - Date.now()) + options.retryGraceMs;
        head.timer = setTimeout(() => {
          if (state.head === head && head.state === 'retry_scheduled') advance(key, state);
        }, wait).unref();
        return;
      }
      if (outcome.kind === 'parked') state.head.state = 'parked';
      advance(key, state);
    },

    /** The messages this connection holds back, oldest first. */
    blocked(): BlockedMessage[] {
      const blocked = [...keys].flatMap(([key, { head, held }]) =>
        held.map((entry) => ({
          event: entry.event,
          orderingKey: key,
          blockedBy: {
            eventId: head.event.id,
            eventType: head.event.type,
            state: head.state,
            ...(head.notBefore === undefined ? {} : { notBefore: head.notBefore }),
          },
        })),
      );
      return blocked.sort((a, b) => comparePositions(a.event.position, b.event.position));
    },

    close(): void {
      for (const state of keys.values()) clearTimeout(state.head.timer);
      keys.clear();
    },
  };
}

export type OrderingGate = ReturnType<typeof orderingGate>;
