import type { ColumnType, Generated, Selectable } from 'kysely';

/** int8 columns arrive as numbers (see @effectively-once/postgres connect); xid8 as text. */
type Xid8 = ColumnType<string, string | undefined, never>;

export interface EsEventTable {
  global_position: Generated<number>;
  transaction_id: Xid8;
  event_id: string;
  stream_name: string;
  stream_revision: number;
  event_type: string;
  data: ColumnType<unknown, string, never>;
  metadata: ColumnType<unknown, string, never>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface EsSubscriptionGroupTable {
  group_id: Generated<number>;
  group_name: string;
  filter_kind: 'all' | 'stream_prefix' | 'event_type';
  filter_values: string[];
  max_retry_count: number;
  message_timeout_ms: number;
  max_in_flight: number;
  consumer_strategy: string;
  ordering_key_from: 'stream' | 'metadata' | 'data' | null;
  ordering_key_field: string | null;
  supersede_parked_with: ColumnType<string[], string[] | undefined, string[]>;
  cursor_transaction_id: ColumnType<string, string, string>;
  cursor_global_position: number;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface EsSubscriptionMessageTable {
  group_id: number;
  message_seq: Generated<number>;
  global_position: number;
  status: 'pending' | 'parked';
  deliveries: Generated<number>;
  lease_consumer: number | null;
  lease_expires_at: Date | null;
  park_reason: string | null;
  not_before: Date | null;
  ordering_key: string | null;
  superseded_by: string | null;
  superseded_by_type: string | null;
}

/** The embedded event store's tables; a service's Database interface may extend it. */
export interface EventStoreTables {
  es_event: EsEventTable;
  es_subscription_group: EsSubscriptionGroupTable;
  es_subscription_message: EsSubscriptionMessageTable;
}

export type EsEventRow = Selectable<EsEventTable>;
export type EsSubscriptionGroupRow = Selectable<EsSubscriptionGroupTable>;
