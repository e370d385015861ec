/**
 * Test mode's outcomes on demand (extensions.md §8, docs/sandbox.md): an import by a test key
 * whose address's local part ends in `+existing`, `+suppressed` or `+rejected` answers that
 * status, whatever the address or the file. Live keys never read these suffixes.
 */
export type OutcomeOnDemand = 'existing' | 'suppressed' | 'rejected';

export function outcomeOnDemand(email: string): OutcomeOnDemand | null {
  const local = email.trim().toLowerCase().split('@')[0] ?? '';
  const match = /\+(existing|suppressed|rejected)$/.exec(local);
  return match ? (match[1] as OutcomeOnDemand) : null;
}
