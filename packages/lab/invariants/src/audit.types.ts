// What the auditor is asked and what it answers. A check is `held` when the
// promise holds, `broken` when it does not and cannot settle by itself, and
// `pending` when the effects it waits for may still be on their way.
import type { EventStoreConfig } from '@effectively-once/event-store';

/** Where a running stack keeps its data; the keys are the supervisor's (its ready message and state file). */
export interface AuditTarget {
  /** PostgreSQL URLs, one per database of the stack. */
  readonly databases: {
    readonly order: string;
    readonly inventory: string;
    readonly payment: string;
    readonly notification: string;
    readonly paymentProvider: string;
    /** The embedded event store's database; unused when `eventStore` selects EventStoreDB. */
    readonly eventStore: string;
  };
  /** The mail sink's HTTP API, e.g. `http://127.0.0.1:3006`. */
  readonly mailSinkUrl: string;
  /** The event-store back end; the embedded store in `databases.eventStore` when absent. */
  readonly eventStore?: EventStoreConfig;
}

/**
 * Which orders and SKUs to judge. Absent lists mean every one. With orders but
 * no SKUs, the SKUs are those the orders named.
 */
export interface AuditScope {
  readonly orderIds?: readonly string[];
  readonly skus?: readonly string[];
}

export interface AuditOptions {
  readonly scope?: AuditScope;
  /** How long an effect may still be on its way before its absence counts as broken; 30 s by default. */
  readonly settleMs?: number;
  /** How late a saga timer (order_deadline row) may fire before it is overdue; 5 s by default. */
  readonly timerGraceMs?: number;
  /** The audit's clock; the time the facts were read by default. */
  readonly now?: Date;
}

export type InvariantStatus = 'held' | 'broken' | 'pending';

export interface Violation {
  /** What is wrong: an order, a SKU, a marker, a message. */
  readonly subject: string;
  readonly detail: string;
}

export interface InvariantCheck {
  /** Stable, kebab-case: `stock-conserved`. */
  readonly name: string;
  /** The promise in words. */
  readonly title: string;
  readonly status: InvariantStatus;
  /** One line: what was checked and what was found. */
  readonly summary: string;
  readonly violations: readonly Violation[];
  /** What is still settling, one line each. */
  readonly pending: readonly string[];
}

export interface AuditReport {
  /** ISO timestamp of the audit's clock. */
  readonly checkedAt: string;
  readonly scope: AuditScope;
  /** True when no check is broken (some may be pending). */
  readonly holds: boolean;
  readonly checks: readonly InvariantCheck[];
}
