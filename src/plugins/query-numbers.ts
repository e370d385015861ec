/**
 * Numbers in a query string or path are written in plain decimal: `limit=10`, never `1e1`, `01`,
 * ` 1`, `0x10`, `+1` or `1.0`. Ajv's coercion (which turns the text into a number) accepts all of
 * those, so each integer or number property is first checked on its text here; a malformed one
 * fails like any schema violation (the spec's 400 naming the parameter).
 */

const INTEGER = /^(0|[1-9][0-9]*)$/;
const SIGNED_INTEGER = /^-?(0|[1-9][0-9]*)$/;
const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

interface PropertySchema {
  type?: unknown;
  minimum?: number;
}

type Validator = ((data: unknown) => boolean) & { errors?: unknown };

/** The text rule of each integer or number property of an object schema. */
function numericRules(schema: object): [name: string, rule: RegExp, what: string][] {
  const properties = (schema as { properties?: Record<string, PropertySchema> }).properties ?? {};
  const rules: [string, RegExp, string][] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (property.type === 'integer') {
      const unsigned = typeof property.minimum === 'number' && property.minimum >= 0;
      rules.push([name, unsigned ? INTEGER : SIGNED_INTEGER, 'a whole number in plain decimal digits']);
    } else if (property.type === 'number') rules.push([name, NUMBER, 'a number in plain decimal digits']);
  }
  return rules;
}

/**
 * `validate` preceded by the text check of the schema's numeric properties; the validator itself
 * when the schema has none.
 */
export function withPlainNumbers(schema: object, validate: Validator): Validator {
  const rules = numericRules(schema);
  if (rules.length === 0) return validate;
  const checked = Object.assign(
    (data: unknown): boolean => {
      const values = (data ?? {}) as Record<string, unknown>;
      for (const [name, rule, what] of rules) {
        const value = values[name];
        if (typeof value === 'string' && !rule.test(value)) {
          checked.errors = [
            {
              keyword: 'type',
              instancePath: `/${name}`,
              params: { type: 'integer' },
              message: `must be ${what}`,
            },
          ];
          return false;
        }
      }
      const ok = validate(data);
      checked.errors = validate.errors;
      return ok;
    },
    { errors: null as unknown },
  );
  return checked;
}
