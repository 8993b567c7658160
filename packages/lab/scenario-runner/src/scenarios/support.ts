// Small vocabulary the scenario scripts share: which consumer the lab faults,
// how to recognise a journal entry, how to wait for a message to settle
// without failing the script (a mistake may keep it from ever settling), and
// how to look at and age a tally marker.
import { CONSUMERS, orderStream } from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import type { JournalEntry } from '@effectively-once/fault-injection';
import { connect } from '@effectively-once/postgres';
import { sql } from 'kysely';
import type { ScenarioContext } from '../scenario.js';
import { serviceDatabase } from '../stack/lab-stack.js';

/** The tally whose marker is its only guard: the consumer most scenarios fault. */
export const DEMAND = CONSUMERS.inventoryDemand;
export const RESERVATION = CONSUMERS.inventoryReservation;
export const PAYMENT = CONSUMERS.paymentAuthorization;
export const NOTIFICATION = CONSUMERS.notificationEmail;

/**
 * How long a crash scenario waits for the message to come back: a restart
 * (about 3 s of module loading) plus the lease reclaim. A mistake such as an
 * early acknowledgment means it never comes back; the scenario then stops
 * waiting and the verdict says what happened.
 */
export const REDELIVERY_TIMEOUT_MS = 15_000;

export interface EntryMatch {
  kind: string;
  consumer?: string;
  messageId?: string | null;
  eventType?: string;
  orderId?: string;
  pid?: number;
  notPid?: number;
  afterId?: number;
}

export function entry(match: EntryMatch): (candidate: JournalEntry) => boolean {
  return (candidate) =>
    candidate.kind === match.kind &&
    (match.consumer === undefined || candidate.consumer === match.consumer) &&
    (match.messageId === undefined || candidate.messageId === match.messageId) &&
    (match.eventType === undefined || candidate.eventType === match.eventType) &&
    (match.orderId === undefined || candidate.orderId === match.orderId) &&
    (match.pid === undefined || candidate.pid === match.pid) &&
    (match.notPid === undefined || candidate.pid !== match.notPid) &&
    (match.afterId === undefined || candidate.id > match.afterId);
}

/** The outcome a journal entry recorded (applied, duplicate, retryable_failure, ...), if any. */
export function outcomeOf(candidate: JournalEntry | undefined): string | undefined {
  const outcome = candidate?.detail['outcome'];
  return typeof outcome === 'string' ? outcome : undefined;
}

/**
 * Waits for the journal to show `match`, or gives up after `timeoutMs` and
 * returns undefined: with a mistake switched on, a message may never come back.
 */
export async function maybeJournal(
  context: ScenarioContext,
  what: string,
  match: (candidate: JournalEntry) => boolean,
  timeoutMs: number,
): Promise<JournalEntry | undefined> {
  try {
    return await context.waitForJournal(what, match, timeoutMs);
  } catch {
    context.step(`gave up waiting for ${what} after ${String(timeoutMs)} ms`);
    return undefined;
  }
}

/** Every settlement (handled entry) of one message by one consumer, oldest first. */
export async function handledOutcomes(
  context: ScenarioContext,
  consumer: string,
  messageId: string,
): Promise<string[]> {
  const entries = await context.journal();
  return entries
    .filter(entry({ kind: 'handled', consumer, messageId }))
    .sort((a, b) => a.id - b.id)
    .map((candidate) => outcomeOf(candidate) ?? 'unknown');
}

/** What a demand-tally crash run saw: the order, whether the message came back, and every outcome. */
export interface CrashRun {
  readonly orderId: string;
  readonly redelivered: boolean;
  readonly outcomes: readonly string[];
}

/**
 * The script the crash scenarios share: crash inventory at `point` on the
 * first delivery of OrderPlaced to inventory-demand-v1, then wait for the
 * redelivery to be acknowledged (or give up: a mistake may lose it) and for
 * the order to be confirmed. Each scenario then says what should be true.
 */
export async function crashTallyAt(
  context: ScenarioContext,
  input: {
    point: 'after-claim' | 'after-business' | 'after-commit-before-ack';
    quantity: number;
    where: string;
  },
): Promise<CrashRun> {
  const sku = await context.freshSku(10);
  await context.lab.armInventory({
    point: input.point,
    action: 'crash',
    match: { consumer: DEMAND, eventType: 'OrderPlaced', retryCount: 0 },
  });
  context.step(
    `armed: crash inventory ${input.where} (first delivery of OrderPlaced to inventory-demand-v1)`,
  );
  const orderId = await context.placeOrder({ sku, quantity: input.quantity });
  const crash = await context.waitForJournal(
    'the crash',
    entry({ kind: 'crash', consumer: DEMAND, orderId }),
  );
  const redelivered = await maybeJournal(
    context,
    'the redelivery to be acknowledged',
    entry({ kind: 'acked', consumer: DEMAND, messageId: crash.messageId, afterId: crash.id }),
    REDELIVERY_TIMEOUT_MS,
  );
  await context.waitForOrder(orderId, ['confirmed']);
  const outcomes = await handledOutcomes(context, DEMAND, crash.messageId ?? '');
  return { orderId, redelivered: redelivered !== undefined, outcomes };
}

/**
 * Holds the next payment request that reaches payment-authorization-v1 for
 * the first time, on delivery, in payment's slot: what arrives meanwhile
 * queues behind it, and the scenario decides when it goes on.
 *
 * @example
 * await holdNextPaymentRequest(context);
 */
export async function holdNextPaymentRequest(context: ScenarioContext): Promise<void> {
  await context.lab.arm('payment', {
    point: 'on-delivery',
    action: 'hold',
    match: { consumer: PAYMENT, eventType: 'OrderPaymentRequested', retryCount: 0 },
  });
  context.step('armed: hold the next payment request on delivery to payment-authorization-v1');
}

/** The order's OrderPlaced as the store recorded it (its id, revision and time). */
export async function orderPlacedOf(
  context: ScenarioContext,
  orderId: string,
): Promise<RecordedEvent> {
  const store = await context.openStore();
  try {
    const placed = (await store.readStream(orderStream(orderId))).find(
      (event) => event.type === 'OrderPlaced',
    );
    if (placed === undefined) throw new Error(`Order ${orderId} has no OrderPlaced.`);
    return placed;
  } finally {
    await store.close();
  }
}

/** Whether inventory-demand-v1 holds the marker of `messageId`: its tally change committed. */
export async function demandMarkerExists(
  context: ScenarioContext,
  messageId: string,
): Promise<boolean> {
  const inventory = connect<unknown>(serviceDatabase(context.stack, 'inventory'), {
    maxConnections: 1,
  });
  try {
    const { rows } = await sql`SELECT 1 FROM processed_message
                                WHERE consumer_name = ${DEMAND} AND message_id = ${messageId}`.execute(
      inventory,
    );
    return rows.length > 0;
  } finally {
    await inventory.destroy();
  }
}

/**
 * Makes an event and its inventory-demand-v1 marker `days` older, in the
 * embedded store's table and inventory's: waiting months is not an option in
 * a test, so the scenarios that use it run on the embedded store only.
 */
export async function ageEventAndDemandMarker(
  context: ScenarioContext,
  input: { eventId: string; days: number },
): Promise<void> {
  const eventStore = connect<unknown>(serviceDatabase(context.stack, 'eventStore'), {
    maxConnections: 1,
  });
  const inventory = connect<unknown>(serviceDatabase(context.stack, 'inventory'), {
    maxConnections: 1,
  });
  const age = `${String(input.days)} days`;
  try {
    await sql`UPDATE es_event SET created_at = created_at - ${age}::interval
               WHERE event_id = ${input.eventId}`.execute(eventStore);
    await sql`UPDATE processed_message SET processed_at = processed_at - ${age}::interval
               WHERE consumer_name = ${DEMAND} AND message_id = ${input.eventId}`.execute(
      inventory,
    );
  } finally {
    await eventStore.destroy();
    await inventory.destroy();
  }
}
