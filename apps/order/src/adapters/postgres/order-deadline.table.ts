import type { OrderDeadlineName } from '@effectively-once/contracts';
import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * The saga's durable timers: one row per deadline of an order, written in the
 * transaction that claims the order's Idempotency-Key, so every order that can
 * ever be appended has its timers. A row survives any crash; the deadline
 * timer fires it at least once, and deciding ExpireOrder twice has one effect.
 */
export interface OrderDeadlineTable {
  order_id: string;
  deadline: OrderDeadlineName;
  due_at: ColumnType<Date, Date, never>;
  /**
   * Raised each time the placement re-arms the timer after its append. The
   * timer marks a row fired only in the generation it selected, so a firing
   * into a still-empty stream that raced the append does not count.
   */
  generation: Generated<number>;
  /** When the timer decided the deadline; null while it is still to fire. */
  fired_at: ColumnType<Date | null, never, Date | null>;
  /**
   * When the timer may try the row next: `due_at` at first, then the end of a
   * process's claim on it, of a backoff after a failure, or the order's own
   * later deadline. The due query takes rows by this time, not `due_at`.
   */
  next_attempt_at: Date;
  /** Firings that failed (threw) since the row was written or re-armed. */
  failed_attempts: Generated<number>;
  /** The last failure's message; null while none failed. */
  last_error: ColumnType<string | null, never, string | null>;
  /** Set when the row failed too often: it is never tried again by itself. */
  parked_at: ColumnType<Date | null, never, Date | null>;
}

export type OrderDeadlineRow = Selectable<OrderDeadlineTable>;
