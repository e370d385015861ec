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
