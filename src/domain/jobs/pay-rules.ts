import type { ADVISORY_CODES, AuthoredJob } from '../../contract/job.ts';

/**
 * Pay transparency (issue 33, extensions.md §9): what a job ad in its location may need by law,
 * as advisories. Never a refusal: publishing stands as api.md says. The rules are data, one
 * table (RULES); a new law is a row. Sources, as of 2026-11 (docs/decisions.md):
 * - EU: Directive (EU) 2023/970, Art. 5(1) (initial pay or its range in the vacancy notice or
 *   before the interview) and Art. 5(2) (no question about pay history); transposition due
 *   7 June 2026.
 * - California: Labor Code §432.3(c)(3) (pay scale in every posting, employers of 15+) and
 *   §432.3(a)–(b) (no salary-history questions).
 * - Colorado: Equal Pay for Equal Work Act, C.R.S. §8-5-201(2) (hourly or salary range, both
 *   ends) and, since SB 23-105, the date the application window is expected to close;
 *   §8-5-102(1)(b) (no wage-history questions).
 * - Washington: RCW 49.58.110 (wage scale or salary range in postings, both ends) and
 *   RCW 49.58.100 (no wage-history questions).
 * - New York State: Labor Law §194-b (compensation range, a minimum and a maximum) and
 *   §194-a (no salary-history questions).
 * - Ontario: Employment Standards Act, 2000, s. 8.2 and O. Reg. 477/24 (from 1 January 2026:
 *   expected pay or its range in publicly advertised postings; a range no wider than $50,000,
 *   not required above $200,000) and s. 13.1 (no question about past compensation).
 */

export type AdvisoryCode = (typeof ADVISORY_CODES)[number];

export interface Advisory {
  code: AdvisoryCode;
  message: string;
  rule: string;
}

/** Where a job is, as the rules read it: an ISO country code and, where it matters, a region. */
interface Place {
  country: string | null;
  region: string | null;
}

const EU = new Set(
  'AT BE BG HR CY CZ DK EE FI FR DE GR EL HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' '),
);
const COUNTRY_NAMES: Record<string, string> = {
  'UNITED STATES': 'US',
  USA: 'US',
  'UNITED STATES OF AMERICA': 'US',
  CANADA: 'CA',
  GERMANY: 'DE',
  DEUTSCHLAND: 'DE',
  FRANCE: 'FR',
  SPAIN: 'ES',
  ESPAÑA: 'ES',
  PORTUGAL: 'PT',
  IRELAND: 'IE',
  ITALY: 'IT',
  NETHERLANDS: 'NL',
  AUSTRALIA: 'AU',
};
const REGION_NAMES: Record<string, string> = {
  CALIFORNIA: 'CA',
  COLORADO: 'CO',
  WASHINGTON: 'WA',
  'WASHINGTON STATE': 'WA',
  'NEW YORK': 'NY',
  ONTARIO: 'ON',
};

function placeOf(job: AuthoredJob): Place {
  const country = job.location?.country?.trim().toUpperCase() ?? '';
  const region = job.location?.state?.trim().toUpperCase() ?? '';
  return {
    country: COUNTRY_NAMES[country] ?? (country || null),
    region: REGION_NAMES[region] ?? (region || null),
  };
}

const inUs =
  (...states: string[]) =>
  (p: Place) =>
    p.country === 'US' && states.includes(p.region ?? '');
const inEu = (p: Place) => p.country !== null && EU.has(p.country);
const inOntario = (p: Place) => p.country === 'CA' && p.region === 'ON';

const hasPay = (job: AuthoredJob) => job.salary?.min !== undefined || job.salary?.max !== undefined;
const hasBothEnds = (job: AuthoredJob) => job.salary?.min !== undefined && job.salary?.max !== undefined;

/** The words of a question that asks for current or past pay (any of the page languages). */
const PAY_HISTORY =
  /\b(current|present|previous|past|last|prior|former)\s+(base\s+)?(salary|pay|compensation|wage|wages|earnings|remuneration|package)\b|\b(salary|pay|wage|compensation)\s+history\b|\bhow much do you (currently )?(earn|make)\b|\bsalario actual\b|\bsalaire actuel\b|\bsalário atual\b|\b(último|ultimo|dernier) (salario|salário|salaire)\b/i;

const asksPayHistory = (job: AuthoredJob) =>
  (job.questions ?? []).some((q) => !q.demographic && PAY_HISTORY.test(`${q.label} ${q.helpText ?? ''}`));

interface Rule {
  code: AdvisoryCode;
  /** Where the rule applies (every location when absent). */
  applies?: (place: Place) => boolean;
  /** Whether the ad falls short of it. */
  fails: (job: AuthoredJob) => boolean;
  message: string;
  rule: string;
}

const ONTARIO_RANGE_MAX = 50_000;
const ONTARIO_CEILING = 200_000;

/** The table: a law is a row (code, where, what fails, what to tell, its source). */
export const RULES: readonly Rule[] = [
  {
    code: 'pay_range_missing',
    applies: inEu,
    fails: (job) => !hasPay(job),
    message: 'Jobs in the EU must state the starting pay or its range before the interview.',
    rule: 'EU Directive 2023/970, Art. 5(1)',
  },
  {
    code: 'pay_range_missing',
    applies: inUs('CA'),
    fails: (job) => !hasPay(job),
    message: 'California requires the pay scale in every job posting.',
    rule: 'California Labor Code §432.3(c)(3)',
  },
  {
    code: 'pay_range_missing',
    applies: inUs('CO'),
    fails: (job) => !hasPay(job),
    message: 'Colorado requires the pay range in every job posting.',
    rule: 'Colorado C.R.S. §8-5-201(2)',
  },
  {
    code: 'pay_range_missing',
    applies: inUs('WA'),
    fails: (job) => !hasPay(job),
    message: 'Washington requires the wage scale or salary range in every job posting.',
    rule: 'Washington RCW 49.58.110',
  },
  {
    code: 'pay_range_missing',
    applies: inUs('NY'),
    fails: (job) => !hasPay(job),
    message: 'New York requires the compensation range in every job posting.',
    rule: 'New York Labor Law §194-b',
  },
  {
    code: 'pay_range_missing',
    applies: inOntario,
    fails: (job) => !hasPay(job),
    message: 'Ontario requires the expected pay or its range in publicly advertised job postings.',
    rule: 'Ontario ESA 2000 s. 8.2; O. Reg. 477/24',
  },
  {
    code: 'pay_range_open_ended',
    applies: inUs('CA', 'CO', 'WA', 'NY'),
    fails: (job) => hasPay(job) && !hasBothEnds(job),
    message: 'This state requires a range with both a minimum and a maximum, not an open-ended one.',
    rule: 'California Labor Code §432.3; Colorado C.R.S. §8-5-201; Washington RCW 49.58.110; New York Labor Law §194-b',
  },
  {
    code: 'pay_range_too_wide',
    applies: inOntario,
    fails: (job) =>
      hasBothEnds(job) &&
      (job.salary?.currency ?? 'CAD') === 'CAD' &&
      job.salary!.min! < ONTARIO_CEILING &&
      job.salary!.max! - job.salary!.min! > ONTARIO_RANGE_MAX,
    message: 'In Ontario a pay range under $200,000 may be no wider than $50,000.',
    rule: 'Ontario O. Reg. 477/24',
  },
  {
    code: 'closing_date_missing',
    applies: inUs('CO'),
    fails: (job) => !job.expiresAt,
    message: 'Colorado requires the date the application window is expected to close; set an expiry.',
    rule: 'Colorado C.R.S. §8-5-201 (as amended by SB 23-105)',
  },
  {
    code: 'pay_history_question',
    fails: asksPayHistory,
    message:
      'A question asks for current or past pay; the EU, Ontario and many US states forbid asking for pay history.',
    rule: 'EU Directive 2023/970, Art. 5(2); Ontario ESA 2000 s. 13.1; California Labor Code §432.3; Colorado C.R.S. §8-5-102; Washington RCW 49.58.100; New York Labor Law §194-a',
  },
];

/** The job's advisories, in the table's order; [] when none applies (or nothing falls short). */
export function payAdvisories(job: AuthoredJob): Advisory[] {
  const place = placeOf(job);
  return RULES.filter((r) => (r.applies ? r.applies(place) : true) && r.fails(job)).map(
    ({ code, message, rule }) => ({ code, message, rule }),
  );
}
