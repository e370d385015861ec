import type { ApplicationStage } from '../../db/schema.ts';

/**
 * The console's words for the service's internal names (issue 27, item 7): what a recruiter reads
 * in place of `cvStatus`, `job_page` or `shortlisted`. One small module, so every console page
 * names a thing the same way; a name this module does not know is shown as words, never as code.
 */

export const STAGE_WORDS: Record<ApplicationStage, string> = {
  new: 'New',
  reviewing: 'Reviewing',
  shortlisted: 'Shortlisted',
  interviewing: 'Interviewing',
  offered: 'Offered',
  hired: 'Hired',
  rejected: 'Rejected',
};

export const CV_STATUS_WORDS: Record<string, string> = {
  none: 'No CV',
  processing: 'CV being read',
  staged: 'CV ready, waiting for the candidate',
  claimed: 'CV claimed by the candidate',
  deleted: 'CV deleted',
  failed: 'CV could not be read',
};

/** Where an application came from (`applications.source_channel`, extensions.md §5). */
export const SOURCE_WORDS: Record<string, string> = {
  job_page: 'Job page',
  integrator_site: 'Your site',
  api: 'API',
  embed: 'Embedded on your site',
  careers_page: 'Careers page',
  console_api_apply: 'Added by the operator',
};

export const JOB_STATUS_WORDS: Record<string, string> = {
  draft: 'Draft',
  published: 'Live',
  closed: 'Closed',
  expired: 'Expired',
};

export const MANAGED_WORDS = {
  yes: 'Managed by us: we screen candidates for this role',
  no: 'Not managed',
  short: 'Managed by us',
} as const;

export const STAGED_WORDS = {
  waiting: 'Changes waiting to go live',
  promote: 'Make the changes live',
  promoted: 'Your changes are live now.',
} as const;

/** An internal name read as words: `customer_success` → "Customer success". */
export function humanise(name: string): string {
  const words = name.replaceAll(/[_.-]+/g, ' ').trim();
  return words === '' ? name : words[0]!.toUpperCase() + words.slice(1);
}

const from = (table: Record<string, string>) => (name: string | null | undefined) =>
  name === null || name === undefined || name === '' ? '—' : (table[name] ?? humanise(name));

export const stageWords = from(STAGE_WORDS);
export const cvStatusWords = from(CV_STATUS_WORDS);
/** A source channel in words; an integrator's own channel name is shown as they sent it. */
export const sourceWords = (name: string | null | undefined) =>
  name === null || name === undefined || name === '' ? '—' : (SOURCE_WORDS[name] ?? name);
export const jobStatusWords = from(JOB_STATUS_WORDS);

/** The job's fields as the form labels them (JobWrite's names → words). */
export const JOB_FIELD_WORDS: Record<string, string> = {
  title: 'Title',
  category: 'Category',
  description: 'Description',
  responsibilities: 'Responsibilities',
  skills: 'Skills',
  benefits: 'Benefits',
  seniority: 'Seniority',
  yearsExperience: 'Experience',
  employmentType: 'Employment type',
  contractType: 'Contract type',
  salary: 'Salary',
  location: 'Location',
  workStyle: 'Work style',
  questions: 'Questions',
  expiresAt: 'Closing date',
  maxMatches: 'Most matches',
};
export const jobFieldWords = (name: string) => JOB_FIELD_WORDS[name] ?? humanise(name);

export const ROLE_WORDS: Record<string, string> = {
  admin: 'Admin',
  recruiter: 'Recruiter',
  billing_admin: 'Billing admin',
};

/** The job page's pay-transparency advisories (issue 33, src/domain/jobs/pay-rules.ts). */
export const ADVISORY_WORDS = {
  heading: 'Before you publish: pay transparency',
  intro:
    'Where this job is, the law may ask for more in the ad. You can still publish; these are advice, not errors.',
};
