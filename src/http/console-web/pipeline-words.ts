import { APPLICATION_STAGES, type Stage } from '../../contract/pipeline.ts';
import { STAGE_WORDS } from './words.ts';

/** The pipeline's words as a recruiter reads them (extensions.md §4): the console's one table. */
export const STAGE_LABELS: Record<Stage, string> = STAGE_WORDS;

export const isStage = (value: string): value is Stage =>
  (APPLICATION_STAGES as readonly string[]).includes(value);

const SOURCE_LABELS: Record<string, string> = {
  job_page: 'Job page',
  integrator_site: 'Your site',
  api: 'API',
  embed: 'Embedded form',
};

/** Where the application came from, in words; a channel the integrator named is shown as sent. */
export function sourceLabel(channel: string): string {
  return SOURCE_LABELS[channel] ?? channel.replace(/[_-]+/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

const UTM_WORDS: [string, string][] = [
  ['utmSource', 'from'],
  ['utmMedium', 'by'],
  ['utmCampaign', 'campaign'],
  ['utmTerm', 'term'],
  ['utmContent', 'content'],
];

/** The channel in words and, when the landing address carried them, its campaign's fields. */
export function sourceWithCampaign(channel: string, detail: unknown): string {
  const d = (detail !== null && typeof detail === 'object' ? detail : {}) as Record<string, unknown>;
  const parts = UTM_WORDS.filter(([key]) => typeof d[key] === 'string' && d[key] !== '').map(
    ([key, word]) => `${word} ${String(d[key])}`,
  );
  return parts.length > 0 ? `${sourceLabel(channel)} (${parts.join(', ')})` : sourceLabel(channel);
}

export const CV_LABELS: Record<string, string> = {
  processing: 'CV being read',
  staged: 'CV waiting for the candidate to claim it',
  claimed: 'CV claimed by the candidate',
  deleted: 'CV deleted',
  failed: 'CV could not be read',
};

/** The short form for the table's CV column. */
export const CV_SHORT: Record<string, string> = {
  processing: 'Being read',
  staged: 'Waiting for claim',
  claimed: 'Claimed',
  deleted: 'Deleted',
  failed: 'Unreadable',
};

export const SORT_LABELS: Record<string, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  name: 'Name (A–Z)',
};
