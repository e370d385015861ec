import type { ConsentReceipt } from '../../contract/intake.ts';
import { parseInstant } from '../../lib/time.ts';
import { consentInvalid } from '../errors.ts';
import {
  CONSENT_LOCALES,
  type ConsentLocale,
  isConsentLocale,
  isKnownTextId,
  resolveConsentText,
  versionFirstHandedOut,
} from './consent-texts.ts';

export const ACCEPTED_AT_MAX_AHEAD_MS = 5 * 60_000;

export interface VerifiedConsent {
  textId: string;
  version: string;
  locale: ConsentLocale;
  acceptedAt: Date;
  /** The service's own copy of the words the candidate was shown. */
  text: string;
}

/** A date-time with its zone (`Z` or an offset): an instant, not a wall-clock reading. */
const ZONED_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * The moment of acceptance, read strictly: epoch milliseconds as a whole number (or its digits),
 * or an ISO 8601 date-time that names its zone. A zone-less time would be read in the server's
 * zone, so it is refused rather than guessed.
 */
function acceptedInstant(value: string | number): Date {
  if (typeof value === 'number' && !Number.isInteger(value)) {
    throw consentInvalid('acceptedAt', 'must be whole epoch milliseconds (no fraction)');
  }
  if (typeof value === 'string' && !/^\d{1,15}$/.test(value) && !ZONED_DATE_TIME.test(value)) {
    throw consentInvalid(
      'acceptedAt',
      'must be epoch milliseconds or an ISO 8601 date-time with a zone (e.g. 2026-03-01T09:30:00Z)',
    );
  }
  const at = typeof value === 'number' && value < 0 ? null : parseInstant(value);
  if (at === null) throw consentInvalid('acceptedAt', 'is not a real date-time');
  return at;
}

/** Check (2): the receipt names words this service handed out, accepted at a believable time. */
export function verifyReceipt(receipt: ConsentReceipt, now: Date): VerifiedConsent {
  if (!isKnownTextId(receipt.consentTextId)) {
    throw consentInvalid(
      'consentTextId',
      `"${receipt.consentTextId}" is not a consent text this service handed out`,
    );
  }
  const locale = receipt.locale ?? 'en';
  if (!isConsentLocale(locale)) {
    throw consentInvalid(
      'locale',
      `"${locale}": no consent text was handed out in it (one of ${CONSENT_LOCALES.join(', ')})`,
    );
  }
  const text = resolveConsentText(receipt.consentTextId, receipt.version, locale);
  if (text === null) {
    throw consentInvalid(
      'version',
      `"${receipt.version}" is not a version of ${receipt.consentTextId} handed out in "${locale}"`,
    );
  }
  const acceptedAt = acceptedInstant(receipt.acceptedAt);
  if (acceptedAt.getTime() > now.getTime() + ACCEPTED_AT_MAX_AHEAD_MS) {
    throw consentInvalid('acceptedAt', 'is more than five minutes ahead of the service clock');
  }
  const since = versionFirstHandedOut(receipt.consentTextId, receipt.version);
  if (since && acceptedAt < since) {
    throw consentInvalid(
      'acceptedAt',
      `is before version ${receipt.version} was first handed out (${since.toISOString()})`,
    );
  }
  if (receipt.ip.trim() === '') throw consentInvalid('ip', 'must not be empty');
  if (receipt.userAgent.trim() === '') throw consentInvalid('userAgent', 'must not be empty');
  return { textId: receipt.consentTextId, version: receipt.version, locale, acceptedAt, text };
}
