const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/** An ISO 8601 timestamp or epoch milliseconds (as digits or a number); null when unreadable. */
export function parseInstant(value: string | number): Date | null {
  if (typeof value === 'number' || /^\d{1,15}$/.test(value)) {
    const ms = Number(value);
    return Number.isSafeInteger(ms) && ms >= 0 ? new Date(ms) : null;
  }
  if (!ISO_8601.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export const DAY_MS = 86_400_000;
