import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './columns.ts';

/** Row types of the event log and the webhooks (the events area's tables). */

export interface EventsTable {
  seq: ColumnType<string, never, never>;
  id: string;
  account_id: string;
  type: string;
  data: ColumnType<Record<string, unknown>, string, string>;
  dedupe_key: string | null;
  txid: ColumnType<string, never, never>;
  created_at: Timestamp;
}

export interface EventSweepsTable {
  name: string;
  position_at: Timestamp;
  position_id: string;
}

export interface WebhooksTable {
  id: string;
  account_id: string;
  url: string;
  types: string[] | null;
  secret: string;
  /** Migration 161: a test endpoint receives the test twin's events only. */
  mode: ColumnType<'live' | 'test', 'live' | 'test' | undefined, 'live' | 'test'>;
  created_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: string;
  account_id: string;
  state: 'queued' | 'running' | 'succeeded' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  locked_until: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  webhook_id: string;
  event_id: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  at: Timestamp;
}

export interface EventTables {
  events: EventsTable;
  event_sweeps: EventSweepsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
