import type { ColumnType, Generated } from 'kysely';
import type { Stage } from '../contract/pipeline.ts';

/** Row types of the tables the migrations create; repositories are the only code that uses them. */

import type { NullableTimestamp, Timestamp } from './columns.ts';
import type { ConsoleTables } from './schema-console.ts';
import type { EventTables } from './schema-events.ts';
import type { InsightTables } from './schema-insights.ts';
import type { MatchTables } from './schema-matches.ts';
import type { PipelineTables } from './schema-pipeline.ts';

export type {
  ConsoleAuditTable,
  ConsoleInvitationsTable,
  ConsoleSessionsTable,
  ConsoleUsersTable,
} from './schema-console.ts';
export type {
  EventSweepsTable,
  EventsTable,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhooksTable,
} from './schema-events.ts';
export type {
  MatchesTable,
  MatchProfilesTable,
  MatchRoleVectorsTable,
  MatchRunsTable,
  MatchTables,
} from './schema-matches.ts';

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
  hosted_daily_applications: Generated<number>;
  hosted_job_daily_applications: Generated<number>;
  /** Retention in days (issue 30): 0–1095, default 180. */
  retention_application_days: Generated<number>;
  retention_candidate_days: Generated<number>;
  /** Automated matching on (issue 31); off: nothing generated, the list answers 409. */
  matching_enabled: Generated<boolean>;
  /** Migration 160: false for an account's test twin (issue 32), which names its live account. */
  livemode: Generated<boolean>;
  live_account_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Origins that may frame the hosted pages (issue 33, CSP frame-ancestors), normalised. */
  embed_origins: ColumnType<string[], string[] | undefined, string[]>;
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
  /** Migration 160: a test key acts on the account's test twin. */
  mode: ColumnType<'live' | 'test', 'live' | 'test' | undefined, 'live' | 'test'>;
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
  /** "<instance id> <claim token>" of the process holding an unfinished claim (migration 040). */
  owner: string | null;
}

/** Heartbeats of the running service processes (migration 040). */
export interface ServiceInstancesTable {
  id: string;
  seen_at: Timestamp;
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

type NullableJson<T = unknown> = ColumnType<T | null, string | null, string | null>;

export interface UploadsTable {
  id: string;
  /** null: the platform's own upload (a platform person's CV, made through the console). */
  account_id: string | null;
  bytes: ColumnType<number, number, number>;
  file_name: string | null;
  created_at: Timestamp;
  put_expires_at: Timestamp;
  expires_at: Timestamp;
  received_at: NullableTimestamp;
  used_at: NullableTimestamp;
  /** Made through the hosted apply page (its own quotas and a lifetime of minutes). */
  hosted: boolean;
  /** The client-address bucket a hosted upload came from; null for the API's. */
  client_bucket: string | null;
}

export interface ApplicationsTable {
  id: string;
  account_id: string;
  job_id: string;
  email_key: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  location: string | null;
  cover_note: string | null;
  /** api.md's `{ question, answer }`; a typed answer (§5) also keeps `questionId` and its `value`. */
  answers: NullableJson<{ question: string; answer: string; questionId?: string; value?: unknown }[]>;
  consent_receipt: NullableJson<Record<string, unknown>>;
  consent_text_id: string;
  consent_version: string;
  consent_locale: string;
  consent_text: string | null;
  /** The hosted page's socket address, beside the receipt's derived one; internal only. */
  consent_socket_address: ColumnType<string | null, string | null | undefined, string | null>;
  lawful_basis: NullableJson<Record<string, unknown>>;
  source: string;
  blob_key: string | null;
  status: 'received' | 'withdrawn';
  cv_status: 'processing' | 'staged' | 'claimed' | 'deleted' | 'failed';
  reason: 'cv_unreadable' | null;
  claimed_at: NullableTimestamp;
  staged_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The recruiter's pipeline stage (extensions.md §4); 'new' on arrival. */
  stage: ColumnType<ApplicationStage, ApplicationStage | undefined, ApplicationStage>;
  stage_changed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** §5's ApplicationWrite.source as sent; NULL when none was sent. */
  source_detail: NullableJson<ApplicationSourceDetail>;
  /** source_detail.channel when sent, else the route (`source`): what the console filters by. */
  source_channel: string;
  /** When the person's data was erased (issue 30); ids, statuses and dates stay. */
  erased_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Migration 133: one voluntary demographic answer value, apart from any application (§5). */
export interface DemographicAnswersTable {
  account_id: string;
  job_id: string;
  question_id: string;
  value: string;
}

/** The pipeline stage, as the console contract names them (migration 130 checks the same list). */
export type ApplicationStage = Stage;

export interface ApplicationSourceDetail {
  channel?: string;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
  utmTerm?: string;
  utmContent?: string;
  referrer?: string;
}

export interface CandidatesTable {
  id: string;
  account_id: string;
  email_key: string | null;
  name: string | null;
  email: string | null;
  locale: string;
  send_claim_email: boolean;
  lawful_basis: NullableJson<Record<string, unknown>>;
  outcome: 'queued' | 'existing_account' | 'suppressed' | 'rejected';
  cv_status: 'none' | 'processing' | 'staged' | 'claimed' | 'deleted' | 'failed';
  rejection: NullableJson<Record<string, unknown>>;
  blob_key: string | null;
  claimed_at: NullableTimestamp;
  staged_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** When the person's data was erased (issue 30). */
  erased_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Art. 14: when the account recorded that it told the person (docs/decisions.md). */
  informed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PeopleTable {
  id: string;
  email_key: string;
  name: string;
  created_at: Timestamp;
  /** Chose to be found: in every account's matching pool while their CV is built (issue 19). */
  open_to_matches: ColumnType<boolean, boolean | undefined, boolean>;
  cv_status: ColumnType<
    'none' | 'processing' | 'built' | 'failed' | 'deleted',
    'none' | 'processing' | 'built' | 'failed' | 'deleted' | undefined,
    'none' | 'processing' | 'built' | 'failed' | 'deleted'
  >;
  blob_key: string | null;
  locale: ColumnType<string, string | undefined, string>;
  updated_at: Timestamp;
}

/** A platform person's virtual CV: theirs, held by no account. */
export interface PersonCvsTable {
  person_id: string;
  document: ColumnType<unknown, string, string>;
  created_at: Timestamp;
}

export interface SuppressionsTable {
  email_hash: string;
  created_at: Timestamp;
}

export interface TasksTable {
  id: string;
  name: string;
  key: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  state: 'queued' | 'running' | 'done' | 'dead';
  attempts: Generated<number>;
  max_attempts: number;
  run_after: Timestamp;
  locked_until: NullableTimestamp;
  locked_by: string | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: NullableTimestamp;
}

export interface VirtualCvsTable {
  id: string;
  account_id: string;
  subject_kind: 'application' | 'candidate';
  subject_id: string;
  document: ColumnType<Record<string, unknown>, string, string>;
  created_at: Timestamp;
}

export interface ClaimLinksTable {
  token_hash: string;
  subject_kind: 'application' | 'candidate';
  subject_id: string;
  locale: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface MailOutboxTable {
  id: string;
  key: string;
  subject_ref: string | null;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  locale: string;
  sent_at: Timestamp;
}

export interface MailSentTable {
  key: string;
  subject_ref: string | null;
  sent_at: Timestamp;
}

export interface ServiceSecretsTable {
  name: string;
  value: string;
  created_at: Timestamp;
}

export interface ScreeningTemplatesTable {
  id: string;
  account_id: string;
  name: string;
  price_cents: number | null;
  currency: 'AUD' | 'USD';
  active: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ScreeningsTable {
  id: string;
  account_id: string;
  job_id: string;
  candidate_kind: 'application' | 'candidate' | 'person';
  candidate_id: string;
  template_id: string;
  status: 'invited' | 'completed' | 'cancelled';
  delivery_path: 'virtual_cv' | 'email';
  billing: 'included' | 'overage';
  price_cents: number;
  /** Copied from the template at the call, whose column is checked to these two. */
  currency: 'AUD' | 'USD';
  managed_since: Timestamp;
  unsolicited: boolean;
  message: string | null;
  language: string;
  complete_by: Timestamp;
  requested_at: Timestamp;
  completed_at: NullableTimestamp;
  cancelled_at: NullableTimestamp;
}

/** An erasure request's receipt, without the address (a keyed hash only). */
export interface ErasureReceiptsTable {
  id: string;
  account_id: string;
  address_hash: string;
  applications: number;
  candidates: number;
  matches: number;
  screenings: number;
  files: number;
  erased_at: Timestamp;
}

export interface Database extends MatchTables, EventTables, ConsoleTables, PipelineTables, InsightTables {
  erasure_receipts: ErasureReceiptsTable;
  screening_templates: ScreeningTemplatesTable;
  screenings: ScreeningsTable;
  service_secrets: ServiceSecretsTable;
  tasks: TasksTable;
  virtual_cvs: VirtualCvsTable;
  claim_links: ClaimLinksTable;
  mail_outbox: MailOutboxTable;
  mail_sent: MailSentTable;
  uploads: UploadsTable;
  applications: ApplicationsTable;
  demographic_answers: DemographicAnswersTable;
  candidates: CandidatesTable;
  people: PeopleTable;
  person_cvs: PersonCvsTable;
  suppressions: SuppressionsTable;
  jobs: JobsTable;
  accounts: AccountsTable;
  company_address_history: CompanyAddressHistoryTable;
  api_keys: ApiKeysTable;
  idempotency_records: IdempotencyRecordsTable;
  service_instances: ServiceInstancesTable;
}
