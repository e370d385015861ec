import * as OTPAuth from 'otpauth';
import { cursorSealer } from '../../lib/cursor.ts';

/** RFC 6238 as the console uses it: SHA-1, 6 digits, 30-second steps (what every authenticator app reads). */
export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now a code is still taken in (clock drift of the phone). */
const WINDOW = 1;

function totpOf(secret: OTPAuth.Secret, label = 'console', issuer = 'Careers console'): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_S,
    secret,
  });
}

/** A new 160-bit secret (RFC 4226's recommended size). */
export function newTotpSecret(): Buffer {
  return Buffer.from(new OTPAuth.Secret({ size: 20 }).bytes);
}

export function base32Of(secret: Buffer): string {
  return OTPAuth.Secret.fromHex(secret.toString('hex')).base32;
}

/** The otpauth:// URI an authenticator app scans or reads. */
export function otpauthUri(secret: Buffer, email: string, company: string): string {
  return totpOf(
    OTPAuth.Secret.fromHex(secret.toString('hex')),
    email,
    `${company} careers console`,
  ).toString();
}

/**
 * The 30-second step the code belongs to when it is right at `at` (within one step either side),
 * else null. The caller accepts it only past the last step used (a code is good once).
 */
export function codeStep(secret: Buffer, code: string, at: Date): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const totp = totpOf(OTPAuth.Secret.fromHex(secret.toString('hex')));
  const delta = totp.validate({ token, timestamp: at.getTime(), window: WINDOW });
  if (delta === null) return null;
  return Math.floor(at.getTime() / 1000 / TOTP_PERIOD_S) + delta;
}

/** The code of `secret` at `at` (tests and the enrolment's own check use it). */
export function codeAt(secret: Buffer, at: Date): string {
  return totpOf(OTPAuth.Secret.fromHex(secret.toString('hex'))).generate({ timestamp: at.getTime() });
}

/** Seals TOTP secrets at rest, each bound to its user (a row copied onto another user opens to nothing). */
export function totpSealer(serverSecret: string) {
  const sealer = cursorSealer(serverSecret, 'console totp secret');
  return {
    seal: (userId: string, secret: Buffer) => sealer.seal(userId, secret),
    open: (userId: string, sealed: string | null) => (sealed === null ? null : sealer.open(userId, sealed)),
  };
}
