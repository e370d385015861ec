import type { ConsoleRole } from '../../contract/console-users.ts';

/**
 * What each console role may do (extensions.md §1), as data: the pages show a control only to a
 * role holding its right, and every action checks the right again on the server.
 */
export const RIGHTS = [
  'jobs', // jobs, applications and their virtual CVs, matches
  'screening', // screening invitations
  'billing', // the billing report, the overage cap, screening templates
  'keys', // API keys
  'settings', // company address, data-processing addendum
  'users', // the account's console users
  'activity', // the audit trail
  'self', // one's own sign-in: two-step sign-in (every role)
] as const;
export type Right = (typeof RIGHTS)[number];

const BY_ROLE: Record<ConsoleRole, ReadonlySet<Right>> = {
  admin: new Set(RIGHTS),
  recruiter: new Set(['jobs', 'screening', 'self']),
  billing_admin: new Set(['billing', 'self']),
};

export function can(role: ConsoleRole, right: Right): boolean {
  return BY_ROLE[role]?.has(right) ?? false;
}

export const ROLE_LABELS: Record<ConsoleRole, string> = {
  admin: 'Admin',
  recruiter: 'Recruiter',
  billing_admin: 'Billing admin',
};
