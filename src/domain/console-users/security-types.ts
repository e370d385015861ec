/** The shapes account safety answers with (security-service.ts). */

export type ResetState = { kind: 'open'; email: string } | { kind: 'gone' } | { kind: 'unknown' };
export type PendingStep = 'code' | 'enrol';
/** What a code entered at the second step of sign-in led to. */
export type SecondStep =
  | { kind: 'session'; id: string; csrf: string }
  | { kind: 'wrong'; left: number }
  | { kind: 'gone' };

export interface TotpSetup {
  base32: string;
  uri: string;
}
