// A seeded generator of hostile events: what a buggy or malicious producer
// could append straight into the order, inventory and payment streams. Each
// plan says what the stack must do with it, so the test checks outcomes, not
// just "nothing crashed". One seed gives the same plans again: a failure replays.
import { CONSUMERS } from '@effectively-once/contracts';
import type { JsonValue, NewEvent } from '@effectively-once/event-store';

/** What must become of one hostile event. */
export type Expected =
  /** The store refuses the append with this code; nothing is written. */
  | { readonly kind: 'refused'; readonly code: string }
  /** No consumer subscribes to its type: the store never delivers it. */
  | { readonly kind: 'received-by-none' }
  /**
   * Every consumer that receives it parks it, with a reason that contains
   * `reason`; or, given one per consumer, the consumers named receive it and
   * each parks it with its own reason.
   */
  | { readonly kind: 'parked'; readonly reason: string | Readonly<Record<string, string>> }
  /** Every consumer that receives it settles it (parked with a reason, applied or ignored by rule); none keeps it in flight. */
  | { readonly kind: 'settled' };

export type HostileKind =
  | 'unknown-type'
  | 'unknown-version'
  | 'wrong-payload'
  | 'near-limit'
  | 'over-limit'
  | 'missing-order'
  | 'out-of-order'
  | 'poisoned-stream'
  | 'orphan-end'
  | 'forged-payment-request';

/** The reason `consumer` must park with, or undefined when it is not expected to receive the event. */
export function parkedReasonFor(
  expected: Extract<Expected, { kind: 'parked' }>,
  consumer: string,
): string | undefined {
  return typeof expected.reason === 'string' ? expected.reason : expected.reason[consumer];
}

export interface HostileAppend {
  readonly streamName: string;
  readonly event: NewEvent;
  readonly expected: Expected;
}

/** One hostile story about one order id: its appends run in this order. */
export interface HostilePlan {
  readonly kind: HostileKind;
  readonly orderId: string;
  readonly description: string;
  readonly appends: readonly HostileAppend[];
}

/** What the plans need from the test: a SKU with stock, so that a placement there would show as a reservation. */
export interface HostileContext {
  readonly stockedSku: string;
  /** The store's limit on one event's JSON (data + metadata). */
  readonly maxEventBytes: number;
}

/** mulberry32: tiny, seedable, good enough to pick cases. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
};

/** A v4-shaped uuid drawn from the seed, so ids replay with it. */
function uuid(random: Random): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

const streamOf = (category: 'order' | 'inventory' | 'payment', orderId: string) =>
  `${category}-${orderId}`;
const at = () => new Date().toISOString();

/** Valid payloads of the types the consumers receive, for an order id. */
function validPayloads(orderId: string, sku: string) {
  const attempt = `${orderId}:1`;
  return {
    OrderPlaced: {
      stream: 'order' as const,
      data: {
        orderId,
        customerEmail: 'hostile@example.com',
        items: [{ sku, quantity: 1 }],
        paymentToken: 'tok_approve',
        amountCents: 1000,
        placedAt: at(),
      },
    },
    OrderCancellationRequested: {
      stream: 'order' as const,
      data: { orderId, reason: 'customer_request', requestedAt: at() },
    },
    InventoryReserved: {
      stream: 'inventory' as const,
      data: { orderId, items: [{ sku, quantity: 1 }], reservedAt: at() },
    },
    PaymentAuthorized: {
      stream: 'payment' as const,
      data: {
        orderId,
        paymentAttemptId: attempt,
        authorizationId: `auth-${orderId.slice(0, 8)}`,
        amountCents: 1000,
        authorizedAt: at(),
      },
    },
    PaymentDeclined: {
      stream: 'payment' as const,
      data: { orderId, paymentAttemptId: attempt, reason: 'hostile', declinedAt: at() },
    },
  };
}
type ReceivedType = keyof ReturnType<typeof validPayloads>;
const RECEIVED_TYPES: readonly ReceivedType[] = [
  'OrderPlaced',
  'OrderCancellationRequested',
  'InventoryReserved',
  'PaymentAuthorized',
  'PaymentDeclined',
];

function event(
  random: Random,
  input: { type: string; data: NewEvent['data']; orderId: string; schemaVersion?: number },
): NewEvent {
  return {
    id: uuid(random),
    type: input.type,
    data: input.data,
    metadata: { schemaVersion: input.schemaVersion ?? 1, correlationId: input.orderId },
  };
}

/** A payload of `type` broken one way: a field missing, a field of the wrong type, a huge string where a short one belongs. */
function brokenPayload(random: Random, data: Record<string, JsonValue>): Record<string, JsonValue> {
  const broken = { ...data };
  const field = pick(
    random,
    Object.keys(broken).filter((key) => key !== 'orderId'),
  );
  switch (pick(random, ['missing', 'wrong-type', 'huge-string'] as const)) {
    case 'missing':
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the point is the missing field
      delete broken[field];
      break;
    case 'wrong-type':
      broken[field] = typeof broken[field] === 'number' ? 'not a number' : 42;
      break;
    case 'huge-string':
      broken[field] = 'x'.repeat(64 * 1024);
      break;
  }
  return broken;
}

type PlanMaker = (random: Random, context: HostileContext) => HostilePlan;

const CONTRACT_VIOLATION = 'contract violation';
/** The reason of a consumer that refuses an order event found first in its stream. */
const NEVER_PLACED = 'was never placed';

const MAKERS: Record<HostileKind, PlanMaker> = {
  'unknown-type': (random) => {
    const orderId = uuid(random);
    const category = pick(random, ['order', 'inventory', 'payment'] as const);
    const type = pick(random, ['OrderTeleported', 'InventoryEvaporated', 'PaymentRefundedTwice']);
    return {
      kind: 'unknown-type',
      orderId,
      description: `${type} in ${category}-`,
      appends: [
        {
          streamName: streamOf(category, orderId),
          event: event(random, { type, data: { orderId, note: 'nobody knows me' }, orderId }),
          expected: { kind: 'received-by-none' },
        },
      ],
    };
  },
  'unknown-version': (random, context) => {
    const orderId = uuid(random);
    const type = pick(random, RECEIVED_TYPES);
    const valid = validPayloads(orderId, context.stockedSku)[type];
    const schemaVersion = 2 + Math.floor(random() * 98);
    return {
      kind: 'unknown-version',
      orderId,
      description: `${type} v${String(schemaVersion)}`,
      appends: [
        {
          streamName: streamOf(valid.stream, orderId),
          event: event(random, { type, data: valid.data, orderId, schemaVersion }),
          expected: { kind: 'parked', reason: CONTRACT_VIOLATION },
        },
      ],
    };
  },
  'wrong-payload': (random, context) => {
    const orderId = uuid(random);
    const type = pick(random, RECEIVED_TYPES);
    const valid = validPayloads(orderId, context.stockedSku)[type];
    return {
      kind: 'wrong-payload',
      orderId,
      description: `${type} with a broken payload`,
      appends: [
        {
          streamName: streamOf(valid.stream, orderId),
          event: event(random, { type, data: brokenPayload(random, valid.data), orderId }),
          expected: { kind: 'parked', reason: CONTRACT_VIOLATION },
        },
      ],
    };
  },
  'near-limit': (random, context) => {
    const orderId = uuid(random);
    const type = pick(random, RECEIVED_TYPES);
    const valid = validPayloads(orderId, context.stockedSku)[type];
    // An unknown field is stripped by the contract, so the bulk goes into a
    // field with a length limit: the event is stored, then parked.
    const field = type === 'OrderPlaced' ? 'paymentToken' : 'orderId';
    const bulk = 'y'.repeat(context.maxEventBytes - 4096);
    return {
      kind: 'near-limit',
      orderId,
      description: `${type} of ~${String(Math.round(bulk.length / 1024))} KiB`,
      appends: [
        {
          streamName: streamOf(valid.stream, orderId),
          event: event(random, { type, data: { ...valid.data, [field]: bulk }, orderId }),
          expected: { kind: 'parked', reason: CONTRACT_VIOLATION },
        },
      ],
    };
  },
  'over-limit': (random, context) => {
    const orderId = uuid(random);
    const type = pick(random, [...RECEIVED_TYPES, 'OrderTeleported']);
    return {
      kind: 'over-limit',
      orderId,
      description: `${type} over the store's limit`,
      appends: [
        {
          streamName: streamOf(pick(random, ['order', 'inventory', 'payment'] as const), orderId),
          event: event(random, {
            type,
            data: { orderId, bulk: 'z'.repeat(context.maxEventBytes + 1) },
            orderId,
          }),
          expected: { kind: 'refused', code: 'EVENT_TOO_LARGE' },
        },
      ],
    };
  },
  'missing-order': (random, context) => {
    const orderId = uuid(random);
    const type = pick(random, [
      'InventoryReserved',
      'PaymentAuthorized',
      'PaymentDeclined',
    ] as const);
    const valid = validPayloads(orderId, context.stockedSku)[type];
    return {
      kind: 'missing-order',
      orderId,
      description: `${type} for an order that does not exist`,
      appends: [
        {
          streamName: streamOf(valid.stream, orderId),
          event: event(random, { type, data: valid.data, orderId }),
          expected: { kind: 'parked', reason: 'does not exist' },
        },
      ],
    };
  },
  'out-of-order': (random, context) => {
    const orderId = uuid(random);
    const valid = validPayloads(orderId, context.stockedSku);
    const cancelFirst = random() < 0.5;
    // Either the cancellation comes before the placement in the order's own
    // stream, or the card "authorizes" an order that never asked to be paid.
    const appends: HostileAppend[] = cancelFirst
      ? [
          {
            streamName: streamOf('order', orderId),
            event: event(random, {
              type: 'OrderCancellationRequested',
              data: valid.OrderCancellationRequested.data,
              orderId,
            }),
            expected: { kind: 'settled' },
          },
          {
            streamName: streamOf('order', orderId),
            event: event(random, { type: 'OrderPlaced', data: valid.OrderPlaced.data, orderId }),
            expected: { kind: 'settled' },
          },
        ]
      : [
          {
            streamName: streamOf('order', orderId),
            event: event(random, { type: 'OrderPlaced', data: valid.OrderPlaced.data, orderId }),
            expected: { kind: 'settled' },
          },
          {
            streamName: streamOf('payment', orderId),
            event: event(random, {
              type: 'PaymentAuthorized',
              data: valid.PaymentAuthorized.data,
              orderId,
            }),
            expected: { kind: 'settled' },
          },
        ];
    return {
      kind: 'out-of-order',
      orderId,
      description: cancelFirst
        ? 'OrderCancellationRequested before OrderPlaced'
        : 'PaymentAuthorized before the order requested payment',
      appends,
    };
  },
  'orphan-end': (random) => {
    const orderId = uuid(random);
    const confirmed = random() < 0.5;
    const customerEmail = 'hostile@example.com';
    // The end of an order that never began: inventory and payment hold no
    // state for it and park it; notification keeps none, but finds it as the
    // first event of its order stream, where only OrderPlaced can be.
    const end = confirmed
      ? {
          type: 'OrderConfirmed',
          data: { orderId, customerEmail, authorizationId: 'auth-orphan', confirmedAt: at() },
        }
      : {
          type: 'OrderCancelled',
          data: { orderId, customerEmail, reason: 'customer_request', cancelledAt: at() },
        };
    return {
      kind: 'orphan-end',
      orderId,
      description: `${end.type} of an order that was never placed`,
      appends: [
        {
          streamName: streamOf('order', orderId),
          event: event(random, { ...end, orderId }),
          expected: {
            kind: 'parked',
            reason: confirmed
              ? {
                  [CONSUMERS.inventoryReservation]: 'never reserved',
                  [CONSUMERS.paymentAuthorization]: 'no payment attempt',
                  [CONSUMERS.notificationEmail]: NEVER_PLACED,
                }
              : { [CONSUMERS.notificationEmail]: NEVER_PLACED },
          },
        },
      ],
    };
  },
  'forged-payment-request': (random) => {
    const orderId = uuid(random);
    // A payment request for an order nobody placed: authorized, it would hold
    // money on the card that no capture or void of any order ever settles.
    return {
      kind: 'forged-payment-request',
      orderId,
      description: 'OrderPaymentRequested of an order that was never placed',
      appends: [
        {
          streamName: streamOf('order', orderId),
          event: event(random, {
            type: 'OrderPaymentRequested',
            data: {
              orderId,
              paymentAttemptId: `${orderId}:1`,
              paymentToken: 'tok_approve',
              amountCents: 1000,
              requestedAt: at(),
            },
            orderId,
          }),
          expected: { kind: 'parked', reason: NEVER_PLACED },
        },
      ],
    };
  },
  'poisoned-stream': (random, context) => {
    const orderId = uuid(random);
    const valid = validPayloads(orderId, context.stockedSku);
    // A placed order whose stream then takes an event the order service cannot
    // read: the saga folds the stream for every step, and no retry can help.
    const poison = pick(random, [
      { type: 'OrderTeleported', data: { orderId }, schemaVersion: 1 },
      { type: 'OrderPlaced', data: valid.OrderPlaced.data, schemaVersion: 7 },
      { type: 'InventoryReserved', data: valid.InventoryReserved.data, schemaVersion: 1 },
    ]);
    return {
      kind: 'poisoned-stream',
      orderId,
      description: `OrderPlaced, then ${poison.type} v${String(poison.schemaVersion)} in its order stream`,
      appends: [
        {
          streamName: streamOf('order', orderId),
          event: event(random, { type: 'OrderPlaced', data: valid.OrderPlaced.data, orderId }),
          expected: { kind: 'settled' },
        },
        {
          streamName: streamOf('order', orderId),
          event: event(random, { ...poison, orderId }),
          expected: { kind: 'settled' },
        },
      ],
    };
  },
};

export const HOSTILE_KINDS = Object.keys(MAKERS) as readonly HostileKind[];

/**
 * `count` hostile plans from `seed`: every kind at least once, then kinds at
 * random. The same seed and context give the same plans.
 *
 * @example
 * const plans = hostilePlans({ seed: 42, count: 20, context: { stockedSku, maxEventBytes } });
 */
export function hostilePlans(input: {
  seed: number;
  count: number;
  context: HostileContext;
}): HostilePlan[] {
  const random = seededRandom(input.seed);
  const kinds = Array.from({ length: Math.max(input.count, HOSTILE_KINDS.length) }, (_, index) =>
    index < HOSTILE_KINDS.length ? HOSTILE_KINDS[index] : pick(random, HOSTILE_KINDS),
  );
  return kinds.map((kind) => MAKERS[kind ?? 'unknown-type'](random, input.context));
}
