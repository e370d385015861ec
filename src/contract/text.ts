import { type TString, Type } from 'typebox';

/**
 * Text the service can store: no NUL character (PostgreSQL's text refuses it) and no unpaired
 * UTF-16 surrogate (its JSON refuses one, and UTF-8 cannot carry it). A well-formed pair — an emoji,
 * any character beyond the Basic Multilingual Plane — is accepted: the validator reads patterns with
 * the `u` flag, where a pair is one code point outside the refused range.
 */
export const SAFE_TEXT_PATTERN = '^[^\\u0000\\uD800-\\uDFFF]*$';

/** What a client is told when a string breaks SAFE_TEXT_PATTERN. */
export const SAFE_TEXT_RULE = 'must not contain a NUL character or an unpaired UTF-16 surrogate';

type StringOptions = NonNullable<Parameters<typeof Type.String>[0]>;

/**
 * Every string the API and the console read (bodies, query strings, path parameters, headers) is
 * declared through this, so the validator refuses what the database would and the OpenAPI document
 * says so. A schema with its own, narrower `pattern` keeps it (it must refuse NUL and surrogates
 * itself: test/hostile-strings.test.ts checks every served schema).
 */
export function Text(options: StringOptions = {}): TString {
  return Type.String({ pattern: SAFE_TEXT_PATTERN, ...options });
}

/** The property names of an open object (one whose extra keys are stored): the same rule, bounded. */
export const SafePropertyName = { pattern: SAFE_TEXT_PATTERN, maxLength: 100 } as const;
