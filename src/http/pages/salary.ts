import type { AuthoredJob } from '../../contract/job.ts';
import { formatMoney, PAGE_WORDS, type PageLang, type PageWords } from './i18n.ts';

/** The ad's pay as the page's language writes it ("€60,000 – €80,000 per year"); null without a figure. */
export function salaryText(salary: AuthoredJob['salary'], lang: PageLang): string | null {
  if (!salary || (salary.min === undefined && salary.max === undefined)) return null;
  const w = PAGE_WORDS[lang];
  const range = [salary.min, salary.max]
    .filter((n): n is number => n !== undefined)
    .map((n) => formatMoney(lang, n, salary.currency))
    .join(' – ');
  const period = salary.period
    ? (w.periods[salary.period.trim().toLowerCase() as keyof PageWords['periods']] ?? salary.period)
    : null;
  return period ? `${range} ${w.per(period)}` : range;
}
