import type { SalaryInterval } from '../../contract/job.ts';

/**
 * `salary.period` is free text as entered; `salary.interval` is what it means (issue 33): one of
 * hour, day, week, month, year, or null when the period cannot be read. Words in the four page
 * languages, their abbreviations, and "per …" / "a …" / "/…" forms.
 */
const WORDS: Record<SalaryInterval, readonly string[]> = {
  hour: ['hour', 'hourly', 'hr', 'hrs', 'h', 'ph', 'hora', 'heure'],
  day: ['day', 'daily', 'diem', 'd', 'día', 'dia', 'diario', 'jour', 'journalier'],
  week: ['week', 'weekly', 'wk', 'pw', 'semana', 'semanal', 'semaine', 'hebdomadaire'],
  month: ['month', 'monthly', 'mo', 'mth', 'pm', 'mes', 'mensual', 'mês', 'mensal', 'mois', 'mensuel'],
  year: [
    'year',
    'yearly',
    'annual',
    'annually',
    'annum',
    'pa',
    'yr',
    'y',
    'año',
    'anual',
    'ano',
    'an',
    'année',
    'annuel',
  ],
};

const LOOKUP = new Map<string, SalaryInterval>(
  (Object.entries(WORDS) as [SalaryInterval, readonly string[]][]).flatMap(([interval, words]) =>
    words.map((w) => [w, interval] as const),
  ),
);

/** The interval a period names, or null. */
export function intervalOf(period: string | undefined | null): SalaryInterval | null {
  if (!period) return null;
  const text = period
    .trim()
    .toLowerCase()
    .replace(/[.\s]+$/g, '')
    .replace(/^(?:(?:per|a|an|each|every|por|par)\s+|\/\s*)/u, '')
    .replace(/\./g, '')
    .trim();
  return LOOKUP.get(text) ?? null;
}
