import type { AuthoredJob } from '../../contract/job.ts';
import type { AccountRow } from '../accounts/account-repository.ts';
import type { JobRow, PublicJobRow } from './job-repository.ts';
import { payAdvisories } from './pay-rules.ts';
import { intervalOf } from './salary-interval.ts';

export type JobStatus = 'draft' | 'published' | 'closed' | 'expired';

/** Expiry is computed, never written: a published job past `expires_at` reads as expired. */
export function statusAt(row: Pick<JobRow, 'status' | 'expires_at'>, now: Date): JobStatus {
  if (row.status === 'published' && row.expires_at !== null && row.expires_at.getTime() <= now.getTime()) {
    return 'expired';
  }
  return row.status;
}

export function isManaged(row: JobRow, now: Date): boolean {
  return row.managed_since !== null && statusAt(row, now) === 'published';
}

export function jobPagePath(companyAddress: string, slug: string, lang = 'en'): string {
  return `/${lang}/jobs/${companyAddress}/${slug}`;
}

export function applyPath(jobId: string): string {
  return `/apply/${jobId}`;
}

const OPTIONAL_WORDS = [
  'category',
  'seniority',
  'yearsExperience',
  'employmentType',
  'contractType',
  'salary',
  'location',
  'workStyle',
] as const;

/** What a job's view reads of its row. */
export type JobViewRow = Pick<
  JobRow,
  'id' | 'status' | 'content' | 'slug' | 'expires_at' | 'posted_at' | 'updated_at' | 'closed_at'
>;
/** What a job's view reads of its account. */
export type JobCompany = Pick<AccountRow, 'name' | 'company_name' | 'logo_url' | 'company_address'>;

/** The job as the API returns it: the live words, never the staged ones. */
export function toJobView(row: JobViewRow, account: JobCompany, now: Date, baseUrl: string): AuthoredJob {
  const words = row.content as Record<string, unknown>;
  const job: Record<string, unknown> = {
    id: row.id,
    status: statusAt(row, now),
    title: words.title ?? '',
    description: words.description ?? '',
    responsibilities: words.responsibilities ?? [],
    skills: words.skills ?? [],
    benefits: words.benefits ?? [],
    questions: words.questions ?? [],
  };
  for (const field of OPTIONAL_WORDS) {
    if (words[field] !== undefined && words[field] !== null) job[field] = words[field];
  }
  // The period stays as entered; the interval is the one sent, else what the period says.
  const salary = job.salary as { period?: string; interval?: string | null } | undefined;
  if (salary) job.salary = { ...salary, interval: salary.interval ?? intervalOf(salary.period) };
  job.company = {
    name: account.company_name ?? account.name,
    ...(account.logo_url ? { logoUrl: account.logo_url } : {}),
  };
  if (row.posted_at) job.postedAt = row.posted_at.toISOString();
  job.updatedAt = row.updated_at.toISOString();
  if (row.expires_at) job.expiresAt = row.expires_at.toISOString();
  if (row.closed_at) job.closedAt = row.closed_at.toISOString();
  if (row.status !== 'draft' && row.slug && account.company_address) {
    job.url = baseUrl + jobPagePath(account.company_address, row.slug);
  }
  job.applyLink = baseUrl + applyPath(row.id);
  return job as AuthoredJob;
}

/** The job as its own account reads it: with its pay-transparency advisories (pay-rules.ts). */
export function withAdvisories(job: AuthoredJob): AuthoredJob {
  return { ...job, advisories: payAdvisories(job) };
}

/** The company fields a public row carries beside the job's own. */
export function companyOf(row: PublicJobRow): JobCompany {
  return {
    name: row.a_name,
    company_name: row.a_company_name,
    logo_url: row.a_logo_url,
    company_address: row.a_company_address,
  };
}
