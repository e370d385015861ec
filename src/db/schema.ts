import type { ColumnType, Generated } from 'kysely';

/** Row types of the tables the migrations create; repositories are the only code that uses them. */

type Timestamp = ColumnType<Date, Date, Date>;
type NullableTimestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;

export interface AccountsTable {
  id: string;
  name: string;
  company_name: string | null;
  logo_url: string | null;
  company_address: string | null;
  dpa_accepted_at: NullableTimestamp;
  requests_per_minute: Generated<number>;
  daily_applications: Generated<number>;
  job_daily_applications: Generated<number>;
  daily_candidate_imports: Generated<number>;
  weekly_unsolicited_contacts: Generated<number>;
  managed_ad_slots: Generated<number>;
  included_screenings_per_managed_ad: Generated<number>;
  monthly_overage_cap_cents: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CompanyAddressHistoryTable {
  address: string;
  account_id: string;
  retired_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string | null;
  scopes: string[];
  secret_hash: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

export interface IdempotencyRecordsTable {
  account_id: string;
  route: string;
  key: string;
  request_hash: string;
  locked_until: NullableTimestamp;
  status_code: number | null;
  response_body: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface JobsTable {
  id: string;
  account_id: string;
  status: 'draft' | 'published' | 'closed';
  content: ColumnType<Record<string, unknown>, string, string>;
  staged: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  slug: string | null;
  expires_at: NullableTimestamp;
  max_matches: number | null;
  managed_since: NullableTimestamp;
  first_published_at: NullableTimestamp;
  posted_at: NullableTimestamp;
  closed_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface Database {
  jobs: JobsTable;
  accounts: AccountsTable;
  company_address_history: CompanyAddressHistoryTable;
  api_keys: ApiKeysTable;
  idempotency_records: IdempotencyRecordsTable;
}
