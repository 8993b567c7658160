// Facts as the unit tests give them: a fixed clock, orders and messages with
// readable ids, and an empty stack to start each Given from.
import { orderStream } from '@effectively-once/contracts';
import type { AuditScope } from '../audit.types.js';
import type { CheckContext } from '../checks/check-result.js';
import { resolveScope } from '../checks/scope.js';
import type {
  AuditFacts,
  OrderHistory,
  PaymentAttemptFact,
  Placement,
  ProviderAuthorization,
  StoreFacts,
  StoredMessage,
} from '../facts/facts.types.js';

export const NOW = new Date('2026-12-01T12:00:00.000Z');
export const SETTLE_MS = 30_000;

/** A moment `ms` before NOW. */
export const ago = (ms: number): Date => new Date(NOW.getTime() - ms);
/** Long past the settle time. */
export const LONG_AGO = ago(5 * 60_000);
/** Well within the settle time. */
export const JUST_NOW = ago(1_000);

/** A readable, valid uuid: orderIdOf(1) = '00000000-0000-4000-8000-000000000001'. */
export const orderIdOf = (n: number): string =>
  `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const messageIdOf = (n: number): string =>
  `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export function contextOf(
  scope: AuditScope = {},
  placements: readonly Placement[] = [],
): CheckContext {
  return { scope: resolveScope(scope, placements), now: NOW, settleMs: SETTLE_MS };
}

/** An event of an order's stream (or, with `streamName`, of another stream about the order). */
export function message(input: {
  id: string;
  type: string;
  orderId: string;
  createdAt?: Date;
  streamName?: string;
}): StoredMessage {
  return {
    id: input.id,
    type: input.type,
    orderId: input.orderId,
    streamName: input.streamName ?? orderStream(input.orderId),
    createdAt: input.createdAt ?? LONG_AGO,
  };
}

export const messagesById = (...messages: StoredMessage[]): ReadonlyMap<string, StoredMessage> =>
  new Map(messages.map((entry) => [entry.id, entry]));

/** An order stream with these event types, one second apart from `placedAt`. */
export function history(
  orderId: string,
  types: readonly string[],
  placedAt = LONG_AGO,
): OrderHistory {
  return {
    orderId,
    events: types.map((type, index) => ({
      id: `${orderId}-${String(index)}`,
      type,
      createdAt: new Date(placedAt.getTime() + index * 1_000),
    })),
  };
}

export const ordersOf = (...histories: OrderHistory[]): ReadonlyMap<string, OrderHistory> =>
  new Map(histories.map((entry) => [entry.orderId, entry]));

/** Order n's first payment attempt: authorized long ago, as `auth-<n>`, for 2,000 cents. */
export function paymentAttempt(
  n: number,
  overrides: Partial<PaymentAttemptFact> = {},
): PaymentAttemptFact {
  return {
    attemptId: `${orderIdOf(n)}:1`,
    orderId: orderIdOf(n),
    status: 'authorized',
    authorizationId: `auth-${String(n)}`,
    amountCents: 2_000,
    updatedAt: LONG_AGO,
    ...overrides,
  };
}

/** Order n's authorization `auth-<n>` in the provider's ledger, under its first attempt's key. */
export function ledgerEntry(
  n: number,
  overrides: Partial<ProviderAuthorization> = {},
): ProviderAuthorization {
  return {
    authorizationId: `auth-${String(n)}`,
    idempotencyKey: `authorize:${orderIdOf(n)}:1`,
    amountCents: 2_000,
    status: 'authorized',
    createdAt: LONG_AGO,
    capturedAt: null,
    voidedAt: null,
    ...overrides,
  };
}

export const emptyStore = (): StoreFacts => ({
  messages: new Map(),
  placements: [],
  orders: new Map(),
  confirmedWith: new Map(),
  compensated: new Map(),
});

/** A stack with nothing in it. */
export function emptyFacts(): AuditFacts {
  return {
    markers: [],
    inventoryOrders: new Map(),
    stock: [],
    reservedLines: [],
    demand: [],
    paymentAttempts: [],
    paymentCancellations: new Set(),
    notifications: [],
    timers: { readAt: NOW, unfired: [] },
    authorizations: [],
    store: emptyStore(),
    parked: [],
    mailSink: { reachable: true, emails: [] },
  };
}
