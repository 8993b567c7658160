// One consumer of a persistent subscription group on the embedded store. The
// loop: pump new events into the group, reclaim expired or orphaned leases,
// let superseding messages pass parked ones, lease up to the in-flight limit
// and no more than the consumer can start (its `canStart`, ADR 0040), hand
// deliveries out. When there is nothing to do it sleeps until a NOTIFY
// its filter matches, a settled delivery, its earliest scheduled retry, or the
// poll interval; held-back events wake it only once the snapshot's xmin moved.
// A poll that nothing asked for first asks, read-only, whether a round would
// do anything (checkBeforeRound): an idle consumer then commits nothing.
//
// Acknowledgments ride with the next round: an ack that arrives while the
// loop sleeps wakes it (or, with an ack delay, waits for it, below), and the
// round deletes the message in the transaction that leases the next ones. After
// handing out a round that emptied the group while deliveries are in flight,
// the loop sleeps instead of asking again at once: their acks will wake it
// (unless they may wait, below), and that round asks. A delivery then costs
// two commits (its lease; its ack with the next look), not three.
//
// With an ack delay, an ack that arrives while the loop sleeps does not wake
// it: it waits for the loop's next reason to look (a notification of new
// events, a retry falling due) and rides with that round. Under a steady flow
// that round leases the next message, and a delivery costs one commit. When
// the delay runs out first, the acks go on their own, one DELETE, and the
// loop sleeps on: a round woken for them would only carry them, at a round's
// cost (the pump, the horizon, the group's row locked). With a group's
// deliveries split between replicas, each consumer's next lease comes half
// as often and most acks end this way (docs/capacity.md). An ack never waits
// when it could be what the loop waits for: when no free slot stops
// leasing, and in a group with an ordering key, whose next message of a key
// waits for this ack (the loop cannot tell cheaply whether one does, so there
// acks go at once, and wake the loop). The delay is also kept to a quarter
// of the message timeout, so a lease cannot run out while its ack waits.
import type { Kysely } from 'kysely';
import { assertNack, settleOnce } from '@effectively-once/event-store/port/settle-once';
import type {
  Delivery,
  PersistentSubscription,
} from '@effectively-once/event-store/port/subscription';
import type { EventStoreTables } from './event-store.tables.js';
import { loadGroup, type GroupRow } from './groups.js';
import { heldBackBackoff } from './held-back.js';
import { ackBatch, type AckBatch } from './ack-batch.js';
import { consumeRound } from './consume.js';
import { releaseConsumerLeases, settleNack, type LeaseOf, type LeasedRow } from './leases.js';
import { openConsumerSession, type ConsumerSession } from './listener-session.js';
import { checkBeforeRound, loadXmin, type IdleCheck, type IdleState } from './idle-state.js';
import { loadGroupMembers } from './members.js';
import { toRecordedEvent } from './read.js';
import { closableIterable } from './closable-iterable.js';
import { handedOutDeliveries } from './handed-out.js';
import type { WakeConsumers } from './wake-choice.js';
import type { NotifyChannels } from './append-channels.js';

interface PendingAck {
  groupId: number;
  lease: LeaseOf;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface PersistentSubscriptionOptions {
  db: Kysely<EventStoreTables>;
  url: string;
  group: string;
  maxInFlight: number | undefined;
  /**
   * How many more messages the consumer could start on now; a round leases no
   * more, so nothing waits leased in this consumer while a peer is free.
   */
  canStart: (() => number) | undefined;
  /** The fallback when no notification comes; also how often dead consumers are looked for. */
  pollIntervalMs: number;
  /** Called each time this consumer has looked for new events of its group (metrics, tests). */
  onGroupPumped: ((group: string) => void) | undefined;
  /** How long an ack may wait for a round that leases more; 0 sends it with the next look at once. */
  ackDelayMs: number;
  /** Whether an append wakes one consumer of the group per stream ('one') or every consumer ('all'). */
  wakeConsumers: WakeConsumers;
  /** Whether a poll nothing asked for first checks, without a commit, that a round would do anything. */
  idleCheck: boolean;
  /** Which channels its session LISTENs to (append-channels.ts). */
  notifyChannels: NotifyChannels;
}

const GROUP_REFRESH_MS = 1000;

/**
 * @example
 * const subscription = openPersistentSubscription({ db, url, group: 'billing-v1', maxInFlight: undefined, canStart: undefined, pollIntervalMs: 500, onGroupPumped: undefined, ackDelayMs: 0, wakeConsumers: 'one', idleCheck: true, notifyChannels: 'per-type' });
 * for await (const delivery of subscription) await delivery.ack();
 */
export function openPersistentSubscription(
  options: PersistentSubscriptionOptions,
): PersistentSubscription {
  const { db } = options;
  let closed = false;
  let inFlight = 0;
  // Set while no slot is free (the in-flight limit, or nothing the consumer can
  // start) and the loop leases nothing: only then must a settlement wake it.
  let waitingForSlot = false;
  let session: ConsumerSession | undefined;
  // Leased but not yet handed to the handler, with their positions.
  const buffer: { position: number; delivery: Delivery }[] = [];
  // Handed to the handler and not settled yet.
  const handedOut = handedOutDeliveries();
  // Where the loop is. An ack waits for the next round while the loop will get
  // to one by itself ('round') or can be woken for one ('waiting'), and
  // resolves when that round commits. Suspended at a yield, the loop may
  // resume only once a slot frees, which could be waiting on this very ack:
  // then the ack goes alone. Either way an ack resolves only once its message
  // is deleted, which the failure lab's ack-before-commit mistake relies on.
  let loopState: 'round' | 'waiting' | 'yielded' = 'round';
  let acksForRound: PendingAck[] = [];
  // Set once the loop has ended: from then on an ack is sent on its own.
  let finished = false;
  // The delay of the group as last loaded (0 for an ordered group).
  let ackDelayMs = 0;
  let ackTimer: ReturnType<typeof setTimeout> | undefined;
  const acksMayWait = () => ackDelayMs > 0 && !waitingForSlot;
  const armAckTimer = () => {
    ackTimer ??= setTimeout(() => {
      ackTimer = undefined;
      // Nothing came for them to ride with: they go alone and the loop sleeps
      // on, since the acks that may wait are none it waits for (see the header).
      void sendAcksAlone(acksTaken());
    }, ackDelayMs);
  };
  /** The pending acks are on their way: nothing left to wait for. */
  const acksTaken = (): PendingAck[] => {
    const taken = acksForRound;
    acksForRound = [];
    clearTimeout(ackTimer);
    ackTimer = undefined;
    return taken;
  };

  // One batch of acknowledgments per group id (a group keeps its id for life;
  // this consumer keeps its id for the life of its session).
  const ackBatches = new Map<number, AckBatch>();
  const acksOf = (groupId: number): AckBatch => {
    let batch = ackBatches.get(groupId);
    if (batch === undefined) {
      // Deliveries exist only once the session is open, and an ack needs one.
      if (session === undefined) throw new Error('An acknowledgment before the consumer opened.');
      ackBatches.set(groupId, (batch = ackBatch(db, { groupId, consumerId: session.consumerId })));
    }
    return batch;
  };

  const toDelivery = (row: LeasedRow, groupId: number, consumerId: number): Delivery => {
    const event = toRecordedEvent(row);
    const lease: LeaseOf = { position: row.global_position, deliveries: row.deliveries };
    const settle = settleOnce(event.id, () => {
      inFlight--;
      if (waitingForSlot) session?.wakeup.signal();
      handedOut.settled(lease.position);
    });
    return {
      event,
      retryCount: row.deliveries - 1,
      ack: () => settle(() => ack(groupId, lease)),
      nack: async (action, reason, nackOptions) => {
        assertNack(action, reason, nackOptions);
        const retryAfterMs = nackOptions?.retryAfterMs;
        const counted = nackOptions?.counted ?? true;
        await settle(() =>
          settleNack(db, { groupId, consumerId, lease, action, reason, retryAfterMs, counted }),
        );
        // The loop may be asleep waiting for this settlement (see the header).
        session?.wakeup.signal();
      },
    };
  };

  const ack = (groupId: number, lease: LeaseOf): Promise<void> => {
    // The loop has ended: no round will come, so the ack goes alone and is awaited.
    if (finished) return acksOf(groupId).ack(lease);
    if (loopState === 'yielded') return acksOf(groupId).ack(lease);
    return new Promise<void>((resolve, reject) => {
      acksForRound.push({ groupId, lease, resolve, reject });
      if (loopState !== 'waiting') return;
      if (acksMayWait()) armAckTimer();
      else session?.wakeup.signal();
    });
  };

  /** Sends acks on their own, for when no round will carry them. */
  const sendAcksAlone = (acks: readonly PendingAck[]): Promise<unknown> =>
    Promise.allSettled(
      acks.map((pending) =>
        acksOf(pending.groupId).ack(pending.lease).then(pending.resolve, pending.reject),
      ),
    );

  /** One round: sends the acks that ride with it, leases what it can, reports the idle state. */
  const leaseMore = async (
    group: GroupRow,
    consumer: ConsumerSession,
    reclaim: boolean,
  ): Promise<{ leased: number; limit: number; idle: IdleState | undefined }> => {
    const taken = acksTaken();
    const riding = taken.filter((pending) => pending.groupId === group.group_id);
    void sendAcksAlone(taken.filter((pending) => pending.groupId !== group.group_id));
    // The acks that ride are deleted before the lease, so their slots count as
    // free (settleOnce gives a slot back only once its ack has resolved). A
    // consumer that says what it can start counts their slots free too: it
    // has stopped working on them once it acked.
    const room = (options.maxInFlight ?? group.max_in_flight) - inFlight + riding.length;
    const capacity = Math.min(room, options.canStart?.() ?? room);
    waitingForSlot = capacity <= 0;
    const leading =
      waitingForSlot ||
      group.consumer_strategy !== 'dispatch_to_single' ||
      (await consumer.tryLead(group.group_id));
    if (waitingForSlot || !leading) {
      void sendAcksAlone(riding);
      return { leased: 0, limit: 0, idle: undefined };
    }
    let round: Awaited<ReturnType<typeof consumeRound>>;
    try {
      round = await consumeRound(db, {
        groupId: group.group_id,
        consumerId: consumer.consumerId,
        limit: capacity,
        reclaim,
        acked: riding.map((pending) => pending.lease),
      });
    } catch (error) {
      // The round rolled back, its acks with it. They still go, each on its
      // own, before the loop ends and gives its leases back: a handled
      // message must not come back for nothing.
      await sendAcksAlone(riding);
      throw error;
    }
    for (const pending of riding) pending.resolve();
    options.onGroupPumped?.(options.group);
    inFlight += round.leased.length;
    buffer.push(
      ...round.leased.map((row) => ({
        position: row.global_position,
        delivery: toDelivery(row, group.group_id, consumer.consumerId),
      })),
    );
    return { leased: round.leased.length, limit: capacity, idle: round.idle };
  };

  const ackDelayFor = (group: GroupRow): number =>
    group.ordered ? 0 : Math.min(options.ackDelayMs, Math.floor(group.message_timeout_ms / 4));

  /**
   * A dispatch_to_single group's appends wake all its consumers: only its
   * leader leases, and the choice knows nothing of who leads.
   */
  const wakesOnlyTheChosen = (group: GroupRow): boolean =>
    options.wakeConsumers === 'one' && group.consumer_strategy !== 'dispatch_to_single';

  /**
   * How long an idle consumer may sleep, and whether the wake-up that ends it
   * needs only the xmin question (held-back events) before a full round.
   */
  const idleWait = (idle: IdleState | undefined, backoff: ReturnType<typeof heldBackBackoff>) => {
    const untilRetry = idle?.nextRetryInMs ?? Infinity;
    const regular = Math.max(0, Math.min(options.pollIntervalMs, untilRetry));
    if (idle?.heldBack !== true) return { waitMs: regular, heldBackOnly: false };
    const heldBackMs = backoff.waitAfter(idle.xmin);
    return heldBackMs < regular
      ? { waitMs: heldBackMs, heldBackOnly: true }
      : { waitMs: regular, heldBackOnly: false };
  };

  /**
   * At a poll: the read-only check, unless a round is owed anyway (acks to
   * carry, which only a round deletes). A wake-up skips it: a notification or
   * a settlement says there is something to do.
   */
  const checkFirst = async (group: GroupRow): Promise<IdleCheck> => {
    if (!options.idleCheck || acksForRound.length > 0) return { roundWanted: true };
    const answer = await checkBeforeRound(db, group.group_id);
    // The consumer has looked, round or not (tests and metrics wait on it).
    if (!answer.roundWanted) options.onGroupPumped?.(options.group);
    return answer;
  };

  async function* deliveries(): AsyncGenerator<Delivery, void, undefined> {
    let group = await loadGroup(db, options.group);
    ackDelayMs = ackDelayFor(group);
    const consumer = await openConsumerSession(options.url, {
      groupId: group.group_id,
      filter: group.filter,
      loadMembers: () => loadGroupMembers(db, group.group_id),
      notifyChannels: options.notifyChannels,
    });
    consumer.wakeOnlyWhenChosen(wakesOnlyTheChosen(group));
    session = consumer;
    const backoff = heldBackBackoff(options.pollIntervalMs);
    let loadedAt = Date.now();
    let reclaimedAt = 0;
    let fullRound = true;
    // The last round emptied the group while leaving deliveries in flight:
    // the next look waits for their settlement (or a NOTIFY, or the poll).
    let awaitSettlement = false;
    let idle: IdleState | undefined;
    let failed = false;
    try {
      while (!closed) {
        const failure = consumer.failure();
        if (failure !== undefined) throw failure;
        const next = buffer.shift();
        if (next !== undefined) {
          // Acks that came during the round would wait on a loop that may not resume.
          void sendAcksAlone(acksTaken());
          loopState = 'yielded';
          handedOut.add(next.position);
          yield next.delivery;
          loopState = 'round';
          continue;
        }
        const settling = awaitSettlement && inFlight > 0 && acksForRound.length === 0;
        awaitSettlement = false;
        if (fullRound && !settling) {
          const reclaim = Date.now() - reclaimedAt >= options.pollIntervalMs;
          if (reclaim) reclaimedAt = Date.now();
          const round = await leaseMore(group, consumer, reclaim);
          idle = round.idle;
          if (round.leased > 0) {
            awaitSettlement = round.leased < round.limit;
            continue;
          }
        }
        const { waitMs, heldBackOnly } = idleWait(idle, backoff);
        if (acksForRound.length > 0) {
          // Arrived during the round: the next round takes them, now or after the delay.
          if (!acksMayWait()) {
            fullRound = true;
            continue;
          }
          armAckTimer();
        }
        loopState = 'waiting';
        const signalled = await consumer.wakeup.wait(waitMs);
        loopState = 'round';
        if (signalled) fullRound = true;
        // Woken only to look at held-back events: nothing can have been
        // released while the xmin stands still, so one tiny query decides.
        else if (heldBackOnly) fullRound = backoff.moved(await loadXmin(db));
        else {
          const answer = await checkFirst(group);
          fullRound = answer.roundWanted;
          if (!answer.roundWanted) idle = answer.idle;
        }
        if (fullRound && Date.now() - loadedAt >= GROUP_REFRESH_MS) {
          group = await loadGroup(db, options.group);
          ackDelayMs = ackDelayFor(group);
          consumer.wakeOnlyWhenChosen(wakesOnlyTheChosen(group));
          loadedAt = Date.now();
        }
      }
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      closed = true;
      finished = true;
      // Before the leases go back: an acknowledged message must not be handed out again.
      while (acksForRound.length > 0) await sendAcksAlone(acksTaken());
      // Ended by a failure (its session's connection broke, a round failed),
      // the loop hands nothing out any more, but handlers may still be
      // running on what it handed out: their leases stay until they settle
      // (their acks and nacks go alone, through the pool), or until the
      // group's message timeout, by which those leases have expired anyway.
      // Giving them back now would hand a running handler's message to a peer.
      // The limit: when the session's connection itself died, its advisory
      // lock went with it, and a peer's reclaim may take these leases as
      // orphaned at once. That window is covered by the handlers, not the
      // store: their processed-message markers and business checks turn the
      // second delivery into a duplicate, and a handler with an outside
      // effect holds its intent per attempt (docs/event-store.md, "When a
      // consumer's loop ends"). A graceful close does not wait: its caller
      // decides when to close.
      if (failed) await handedOut.allSettled(group.message_timeout_ms);
      await releaseConsumerLeases(db, {
        groupId: group.group_id,
        consumerId: consumer.consumerId,
        unseen: buffer.map((leased) => leased.position),
      }).catch(() => undefined);
      await consumer.close();
    }
  }

  const iterator = deliveries();
  return closableIterable(iterator, () => {
    closed = true;
    session?.wakeup.signal();
  });
}
