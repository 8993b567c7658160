// The facts the checks judge: plain data read from the stack, so every check
// is a pure function of them and is unit-tested without a database.
import type {
  CompensationStep,
  NotificationKind,
  OrderDeadlineName,
  OrderLine,
  ReceivedEmail,
} from '@effectively-once/contracts';

/** The service databases that keep markers (processed_message). */
export type ServiceDatabase = 'order' | 'inventory' | 'payment' | 'notification';

/** One processed_message row. */
export interface Marker {
  readonly database: ServiceDatabase;
  readonly consumer: string;
  readonly messageId: string;
}

/** An event of the store, as far as the checks need it. */
export interface StoredMessage {
  readonly id: string;
  readonly type: string;
  readonly streamName: string;
  /** The order it belongs to: the order stream's id, else the correlation id or `data.orderId`. */
  readonly orderId: string | undefined;
  readonly createdAt: Date;
}

/** An OrderPlaced event with its lines. */
export interface Placement {
  readonly messageId: string;
  readonly orderId: string;
  readonly items: readonly OrderLine[];
  /** The order's overall deadline; null for orders placed before the saga had deadlines. */
  readonly completeBy: Date | null;
  readonly createdAt: Date;
}

/** The events of one `order-` stream, in stream order. */
export interface OrderHistory {
  readonly orderId: string;
  readonly events: readonly {
    readonly id: string;
    readonly type: string;
    readonly createdAt: Date;
  }[];
}

export interface StoreFacts {
  /** Every event of the store, by id. */
  readonly messages: ReadonlyMap<string, StoredMessage>;
  readonly placements: readonly Placement[];
  /** Every order stream, by order id. */
  readonly orders: ReadonlyMap<string, OrderHistory>;
  /** The authorization each confirmed order was confirmed with (OrderConfirmed), by order id. */
  readonly confirmedWith: ReadonlyMap<string, string>;
  /** The compensations a cancelling order has recorded (OrderCompensated), by order id. */
  readonly compensated: ReadonlyMap<string, ReadonlySet<CompensationStep>>;
}

/** One inventory row with the sums of its SKU's reservation lines, read in one snapshot. */
export interface StockFact {
  readonly sku: string;
  readonly available: number;
  readonly reserved: number;
  readonly stocked: number;
  /** Units on reservation lines with status `reserved`. */
  readonly reservedLines: number;
  /** Units on reservation lines with status `consumed`. */
  readonly consumedLines: number;
}

/** One sku_demand row (inventory-demand-v1's tally). */
export interface DemandFact {
  readonly sku: string;
  readonly unitsOrdered: number;
  readonly orders: number;
}

export type PaymentAttemptStatus =
  'pending' | 'authorized' | 'declined' | 'voided' | 'captured' | 'abandoned';

export interface PaymentAttemptFact {
  readonly attemptId: string;
  readonly orderId: string;
  readonly status: PaymentAttemptStatus;
  readonly authorizationId: string | null;
  readonly amountCents: number;
  readonly updatedAt: Date;
}

/** One authorization in the payment provider's ledger: it ends captured or voided, never both. */
export interface ProviderAuthorization {
  readonly authorizationId: string;
  readonly idempotencyKey: string;
  readonly amountCents: number;
  readonly status: 'authorized' | 'captured' | 'voided';
  readonly createdAt: Date;
  readonly capturedAt: Date | null;
  readonly voidedAt: Date | null;
}

/** A reservation line still holding stock (status `reserved`); released lines are deleted. */
export interface ReservedLine {
  readonly orderId: string;
  readonly sku: string;
  readonly quantity: number;
}

/** One order_deadline row not fired yet. */
export interface UnfiredTimer {
  readonly orderId: string;
  readonly deadline: OrderDeadlineName;
  readonly dueAt: Date;
  /** Its failed firings, and the last one's error; 0 and null while none failed. */
  readonly failedAttempts?: number;
  readonly lastError?: string | null;
  /** Set once the order service gave up on it: it fires no more by itself. */
  readonly parkedAt?: Date | null;
}

/**
 * The timers still to fire, and when they were read: lateness is measured
 * against that moment, not the end of the audit, which may come seconds later.
 */
export interface TimerFacts {
  readonly readAt: Date;
  readonly unfired: readonly UnfiredTimer[];
}

/** A notification row: the email for (order, kind) recorded as sent. */
export interface NotificationFact {
  readonly orderId: string;
  readonly kind: NotificationKind;
}

export type MailSinkFacts =
  | { readonly reachable: true; readonly emails: readonly ReceivedEmail[] }
  | { readonly reachable: false; readonly reason: string };

/** A message a consumer group set aside. */
export interface ParkedFact {
  readonly group: string;
  readonly messageId: string;
  readonly type: string;
  readonly orderId: string | undefined;
  readonly reason: string | undefined;
}

/** Everything one audit read, in the order that keeps it consistent (see load-audit-facts.ts). */
export interface AuditFacts {
  readonly markers: readonly Marker[];
  /** inventory_order: order id -> status (reserved, rejected, released, consumed). */
  readonly inventoryOrders: ReadonlyMap<string, string>;
  readonly stock: readonly StockFact[];
  readonly reservedLines: readonly ReservedLine[];
  readonly demand: readonly DemandFact[];
  readonly paymentAttempts: readonly PaymentAttemptFact[];
  readonly paymentCancellations: ReadonlySet<string>;
  readonly notifications: readonly NotificationFact[];
  readonly timers: TimerFacts;
  readonly authorizations: readonly ProviderAuthorization[];
  readonly store: StoreFacts;
  readonly parked: readonly ParkedFact[];
  readonly mailSink: MailSinkFacts;
}
