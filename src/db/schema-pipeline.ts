import type { Timestamp } from './columns.ts';

/** Row types of the recruiter's pipeline (extensions.md §4): notes on applications. */
export interface ApplicationNotesTable {
  id: string;
  account_id: string;
  application_id: string;
  author_kind: 'user' | 'operator';
  author_id: string | null;
  author_email: string | null;
  text: string;
  created_at: Timestamp;
}

export interface PipelineTables {
  application_notes: ApplicationNotesTable;
}
