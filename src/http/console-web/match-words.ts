// The console's words for human oversight of matching (extensions.md §7, issue 31).

export const MATCH_WORDS = {
  listCaption: 'Candidate matches, best first',
  dismissedCaption: 'Dismissed matches, latest first',
  columns: ['Score', 'Candidate', 'Reasons', 'Matched on', 'Decide'],
  dismissedColumns: ['Score', 'Candidate', 'Why dismissed', 'Dismissed on', 'Decide'],
  intro:
    'Best first. Open a match’s virtual CV to read it and invite the candidate to screening; contacting someone who did not apply counts against the weekly limit. Dismiss a poor match: it leaves this list and frees its place, and the person is not suggested for this role again.',
  none: 'No matches yet — suggested candidates appear here once matching has run for this managed ad.',
  noneDismissed: 'No dismissed matches for this role.',
  showDismissed: 'Dismissed matches',
  showCurrent: 'Current matches',
  downloadLog: 'Download the matching decision log (CSV)',
  dismiss: 'Dismiss',
  dismissReason: 'Why dismiss this match? (required, at most 500 characters)',
  restore: 'Restore',
  restoreReason: 'Why restore it? (optional)',
  dismissed: 'Match dismissed. It no longer counts toward the role’s matches.',
  restored: 'Match restored.',
} as const;

/** The Settings card of the account's matching switch. */
export const SETTINGS_MATCHING_WORDS = {
  heading: 'Automated matching',
  on: 'On. Managed ads get suggested candidates from your pool, ranked by an automated system; a recruiter decides whom to invite and may dismiss a suggestion.',
  off: 'Off. No candidates are suggested for any role, and the API’s matches list answers matching_disabled. Suggestions already made are kept, hidden, until you switch it on again.',
  switchOff: 'Switch automated matching off',
  switchOn: 'Switch automated matching on',
  switchedOff: 'Automated matching is off: nothing is suggested for any role.',
  switchedOn: 'Automated matching is on again.',
  pageOff: 'Automated matching is switched off for this account (Settings): no candidates are suggested.',
} as const;

/** A match's explanation in words a candidate could be given (extensions.md §7, Art. 86). */
export const EXPLANATION_WORDS = {
  heading: 'Why this person was suggested, in plain words',
  made: (version: string, date: string) =>
    `An automated system (ranking version ${version}) suggested this person for the role on ${date}. A recruiter decides whether to contact them.`,
  sum: (score: string) =>
    `The score of ${score} is a weighted sum of the parts below; each part is between 0% and 100% for this CV.`,
  part: (label: string, weight: string, value: string) =>
    `${label}: ${value} for this CV, counting for ${weight} of the score.`,
  noParts: 'This match was made before its parts were recorded; its reasons are below.',
  reasons: 'What the system found',
  never:
    'The ranking never reads a name, contact details, a photo, a date of birth or age, gender words or pronouns, nationality, marital status or a postcode.',
  components: {
    required: 'The required skills of the role that the CV shows',
    nice: 'The nice-to-have skills of the role that the CV shows',
    title: 'How close the job titles held are to the role’s title',
    experience: 'Years of experience and seniority, against what the role asks',
    location: 'Where the person works, against where the role is (or remote)',
    text: 'The role’s less common words that the CV also uses',
    semantic: 'How similar the CV’s text is to the role’s, as a language model measures it',
  } as Record<string, string>,
} as const;
