import type { ConsentReceipt } from '../../contract/intake.ts';
import { parseInstant } from '../../lib/time.ts';
import { consentInvalid } from '../errors.ts';
import { type ConsentLocale, isKnownTextId, resolveConsentText } from './consent-texts.ts';

export const ACCEPTED_AT_MAX_AHEAD_MS = 5 * 60_000;

export interface VerifiedConsent {
  textId: string;
  version: string;
  locale: ConsentLocale;
  acceptedAt: Date;
  /** The service's own copy of the words the candidate was shown. */
  text: string;
}

/** Check (2): the receipt names words this service handed out, accepted at a believable time. */
export function verifyReceipt(receipt: ConsentReceipt, now: Date): VerifiedConsent {
  const locale = receipt.locale ?? 'en';
  const text = resolveConsentText(receipt.consentTextId, receipt.version, locale);
  if (!isKnownTextId(receipt.consentTextId)) {
    throw consentInvalid(
      'consentTextId',
      `"${receipt.consentTextId}" is not a consent text this service handed out`,
    );
  }
  if (text === null) {
    throw consentInvalid(
      'version',
      `"${receipt.version}" is not a version of ${receipt.consentTextId} handed out in "${locale}"`,
    );
  }
  const acceptedAt = parseInstant(receipt.acceptedAt);
  if (acceptedAt === null)
    throw consentInvalid('acceptedAt', 'must be an ISO 8601 date-time or epoch milliseconds');
  if (acceptedAt.getTime() > now.getTime() + ACCEPTED_AT_MAX_AHEAD_MS) {
    throw consentInvalid('acceptedAt', 'is more than five minutes ahead of the service clock');
  }
  if (receipt.ip.trim() === '') throw consentInvalid('ip', 'must not be empty');
  if (receipt.userAgent.trim() === '') throw consentInvalid('userAgent', 'must not be empty');
  return { textId: receipt.consentTextId, version: receipt.version, locale, acceptedAt, text };
}
