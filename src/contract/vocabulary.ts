import { Type } from 'typebox';

/**
 * The closed sets of words the API and the console are written in. They live here, beside the
 * schemas that enumerate them, so that the contract depends on nothing of ours and the domain takes
 * its vocabulary from the contract rather than the other way round.
 */

/** The languages of consent texts, candidate mail, hosted pages and screening invitations. */
export const LOCALES = ['en', 'es', 'fr', 'pt'] as const;
export type Locale = (typeof LOCALES)[number];

export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

/** What an API key may be minted for (api.md, Authentication). */
export const SCOPES = ['jobs:read', 'jobs:write', 'applications:write', 'screening'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** A string schema of a closed set; its TypeScript type is the set's union. */
/** Test mode (extensions.md §8): a key, its data, its events and a webhook endpoint are live or test. */
export const MODES = ['live', 'test'] as const;
export type Mode = (typeof MODES)[number];

export const enumOf = <T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

export const LocaleSchema = enumOf(LOCALES);
