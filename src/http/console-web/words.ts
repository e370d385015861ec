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

/** The job form's question editor (extensions.md §5). */
export const QUESTION_TYPE_WORDS: Record<string, string> = {
  short_text: 'Short text',
  long_text: 'Long text (paragraphs)',
  single_select: 'One choice from a list',
  multi_select: 'Several choices from a list',
  yes_no: 'Yes or no',
  number: 'A number',
  date: 'A date',
  file: 'A file (PDF)',
};
export const QUESTION_WORDS = {
  intro:
    'Ask what the role needs to know. Each question shows on the apply page in this order; answers show on each application.',
  none: 'No questions yet: candidates send their details and CV only.',
  full: 'A job can ask at most 30 questions.',
  keyHint: 'Integrations name this question’s answer',
  optionsHint:
    'For a choice question: one choice per line, 2 to 100, each different. Saved choices keep their key in [brackets]; leave it as it is.',
  requiredHint: 'Otherwise the candidate may leave it empty.',
  demographicHint:
    'For equal-opportunity monitoring: never required, never shown with the application, only counted. A choice or yes/no question; “Prefer not to say” is always offered.',
  label: 'Write the question, up to 500 characters.',
  type: 'A voluntary equal-opportunity question must be a choice or yes/no question.',
  options: 'List 2 to 100 choices, one per line, each different.',
  optionKey: 'Each choice needs letters or digits (or a [key] of lower-case letters, digits and _).',
  required: 'A voluntary equal-opportunity question cannot be required.',
  helpText: 'Help text is at most 1,000 characters.',
  min: 'The lowest number cannot be more than the highest.',
  max: 'Enter the highest number as a number, for example 10.',
  maxLength: 'Enter the longest answer as a whole number of characters, from 1 to 10,000.',
  number: 'Enter a number, for example 3 or 2.5.',
} as const;

/** Test mode (extensions.md §8): a key's, a webhook's and the data's mode, and the test data's section. */
export const MODE_WORDS: Record<string, string> = { live: 'Live', test: 'Test' };

export const TEST_DATA_WORDS = {
  modeLegend: 'Mode',
  liveChoice: 'Live: real jobs, candidates and mail',
  testChoice: 'Test: a sandbox apart from live data (secret starts cak_test_)',
  heading: 'Test data',
  about:
    'What test keys made: apart from live data, never in a feed or the sitemap, its mail only in the outbox, nothing billed.',
  counts: (jobs: number, applications: number, candidates: number) =>
    `${jobs} test ${jobs === 1 ? 'job' : 'jobs'}, ${applications} test ${applications === 1 ? 'application' : 'applications'}, ${candidates} test ${candidates === 1 ? 'import' : 'imports'}.`,
  deleteButton: 'Delete all test data',
  deleted: (jobs: number) =>
    `Test data deleted (${jobs} ${jobs === 1 ? 'job' : 'jobs'} and everything made for ${jobs === 1 ? 'it' : 'them'}); keys and webhooks stay.`,
};

/** The job page's pay-transparency advisories (issue 33, src/domain/jobs/pay-rules.ts). */
export const ADVISORY_WORDS = {
  heading: 'Before you publish: pay transparency',
  intro:
    'Where this job is, the law may ask for more in the ad. You can still publish; these are advice, not errors.',
};
