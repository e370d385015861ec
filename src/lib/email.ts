/**
 * The one email check (issue 25.3): the API's `format: email` (app.ts gives it to the validator)
 * and the hosted apply page both use it, so what one takes the other takes. A bare address only:
 * no display name, no angle brackets, no second recipient, a dotted domain (ajv-formats' full
 * `email` pattern). The length is checked first, so the pattern never runs on unbounded text.
 */
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

/** The longest address (RFC 5321's path limit less the brackets). */
export const EMAIL_MAX_LENGTH = 254;

export function isEmailAddress(text: string): boolean {
  return text.length <= EMAIL_MAX_LENGTH && EMAIL.test(text);
}

/** The address as compared for duplicates everywhere (applications, imports, people): trimmed, lower-cased. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}
