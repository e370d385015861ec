// Field-level precision and recall of the virtual-CV builder on the labelled CVs in
// test/fixtures/cv/ (each <name>.pdf beside a hand-written <name>.json; made by
// scripts/make-cv-fixtures.sh). Runs the real PDF check (parser pool, pdf.js) and then
// buildVirtualCv, with the application's name/email from each label as the prior.
//
// Matching, per field family:
// - text fields compare after folding: lower case, no diacritics, punctuation as spaces
//   ("Fenwick & Lowe Payments Ltd" = "fenwick lowe payments ltd");
// - email: case-insensitive equality; phone: the same digits;
// - location: city, region and countryCode are separate items (postal code and street are not scored);
// - links: basics.url and profile URLs against the labelled links, without scheme, "www." or a
//   trailing slash;
// - work and education entries are paired greedily by similarity, then position, employer,
//   institution and qualification (studyType + area, connectives such as "of"/"en" dropped) compare
//   within a pair; every start and end is a date item ("present" for a current entry) and is equal
//   when the builder's date cut to the labelled precision is the labelled date ("2021-03-15" counts
//   for "2021-03", "2021" does not);
// - skills: the flat list of skill names (a skill's keywords when it has them), as a multiset;
// - languages: language names, as a multiset.
// Precision = matched / produced, recall = matched / labelled; the "all" row sums every item.
//
// Usage: node scripts/cv-eval.ts [--json]

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildVirtualCv, type CvPrior, type VirtualCv } from '../src/cv-builder/index.ts';
import { normKey } from '../src/cv-builder/text.ts';
import { type CvChecker, createCvChecker, type PdfPage } from '../src/pdf/cv-check.ts';

export const FIXTURE_DIR = fileURLToPath(new URL('../test/fixtures/cv/', import.meta.url));

export const FAMILIES = [
  'name',
  'email',
  'phone',
  'location',
  'links',
  'work.position',
  'work.employer',
  'work.dates',
  'education.institution',
  'education.qualification',
  'education.dates',
  'skills',
  'languages',
] as const;
export type Family = (typeof FAMILIES)[number];

export interface Counts {
  matched: number;
  produced: number;
  labelled: number;
}

interface LabelledEntry {
  position?: string;
  name?: string;
  location?: string;
  institution?: string;
  studyType?: string;
  area?: string;
  startDate?: string;
  endDate?: string;
  isCurrent?: boolean;
}

export interface Label {
  /** 'held-out': written after the builder was tuned on the others, and never tuned on since. */
  set?: 'dev' | 'held-out' | 'held-out-2';
  producer: string;
  layout: 'one_column' | 'two_column';
  language: 'en' | 'es' | 'fr' | 'pt';
  prior: CvPrior;
  expected: {
    basics: {
      name?: string;
      label?: string;
      email?: string;
      phone?: string;
      location?: { city?: string; region?: string; countryCode?: string };
      links: string[];
    };
    work: LabelledEntry[];
    education: LabelledEntry[];
    skills: string[];
    languages: { language: string; fluency?: string }[];
  };
}

export interface Fixture {
  id: string;
  pdf: string;
  label: Label;
}

export async function loadFixtures(dir = FIXTURE_DIR): Promise<Fixture[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  return Promise.all(
    names.map(async (name) => ({
      id: name.replace(/\.json$/, ''),
      pdf: join(dir, name.replace(/\.json$/, '.pdf')),
      label: JSON.parse(await readFile(join(dir, name), 'utf8')) as Label,
    })),
  );
}

const empty = (): Counts => ({ matched: 0, produced: 0, labelled: 0 });

export function emptyScores(): Record<Family, Counts> {
  return Object.fromEntries(FAMILIES.map((f) => [f, empty()])) as Record<Family, Counts>;
}

function add(counts: Counts, produced: unknown, labelled: unknown, equal: boolean): void {
  const has = (v: unknown) => v !== undefined && v !== null && v !== '';
  if (has(produced)) counts.produced++;
  if (has(labelled)) counts.labelled++;
  if (has(produced) && has(labelled) && equal) counts.matched++;
}

const text = (a?: string, b?: string) => a !== undefined && b !== undefined && normKey(a) === normKey(b);
const digits = (s?: string) => (s ?? '').replace(/\D/g, '');
const link = (url: string) =>
  url
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '');
const CONNECTIVES = new Set(['of', 'in', 'en', 'em', 'de', 'del', 'da', 'do', 'du', 'des', 'd']);
const qualification = (studyType?: string, area?: string) =>
  normKey(`${studyType ?? ''} ${area ?? ''}`)
    .split(' ')
    .filter((w) => w && !CONNECTIVES.has(w))
    .join(' ');

/** Items matched as multisets of folded strings. */
function multiset(counts: Counts, produced: string[], labelled: string[]): void {
  const pool = new Map<string, number>();
  for (const p of produced) pool.set(normKey(p), (pool.get(normKey(p)) ?? 0) + 1);
  counts.produced += produced.length;
  counts.labelled += labelled.length;
  for (const l of labelled) {
    const k = normKey(l);
    const n = pool.get(k) ?? 0;
    if (n > 0) {
      counts.matched++;
      pool.set(k, n - 1);
    }
  }
}

/** Labelled date equals the produced one cut to the labelled precision. */
function sameDate(produced?: string, labelled?: string): boolean {
  if (!produced || !labelled) return false;
  if (labelled === 'present' || produced === 'present') return produced === labelled;
  return produced.length >= labelled.length && produced.slice(0, labelled.length) === labelled;
}

interface Comparable {
  a?: string;
  b?: string;
  start?: string;
  end?: string;
}

function endOf(e: { endDate?: string; isCurrent?: boolean }): string | undefined {
  return e.isCurrent ? 'present' : e.endDate;
}

/** Greedy pairing by similarity: equal fields weigh most, shared words break ties. */
function pair<T extends Comparable>(
  produced: T[],
  labelled: T[],
): { pairs: [T, T][]; extra: T[]; missed: T[] } {
  const overlap = (x?: string, y?: string) => {
    const a = new Set(
      normKey(x ?? '')
        .split(' ')
        .filter(Boolean),
    );
    const b = normKey(y ?? '')
      .split(' ')
      .filter(Boolean);
    return b.length && a.size ? b.filter((w) => a.has(w)).length / Math.max(a.size, b.length) : 0;
  };
  const similarity = (p: T, l: T) =>
    (text(p.a, l.a) ? 2 : overlap(p.a, l.a)) +
    (text(p.b, l.b) ? 2 : overlap(p.b, l.b)) +
    (sameDate(p.start, l.start) ? 1 : 0) +
    (sameDate(p.end, l.end) ? 1 : 0);
  const candidates: [number, number, number][] = [];
  produced.forEach((p, i) => {
    labelled.forEach((l, j) => {
      const s = similarity(p, l);
      if (s > 0) candidates.push([s, i, j]);
    });
  });
  candidates.sort((x, y) => y[0] - x[0] || x[1] - y[1]);
  const usedP = new Set<number>();
  const usedL = new Set<number>();
  const pairs: [T, T][] = [];
  for (const [, i, j] of candidates) {
    if (usedP.has(i) || usedL.has(j)) continue;
    usedP.add(i);
    usedL.add(j);
    pairs.push([produced[i]!, labelled[j]!]);
  }
  return {
    pairs,
    extra: produced.filter((_, i) => !usedP.has(i)),
    missed: labelled.filter((_, j) => !usedL.has(j)),
  };
}

function scoreEntries(
  scores: Record<Family, Counts>,
  families: [Family, Family, Family],
  produced: Comparable[],
  labelled: Comparable[],
): void {
  const [fa, fb, fd] = families;
  const { pairs, extra, missed } = pair(produced, labelled);
  for (const [p, l] of pairs) {
    add(scores[fa], p.a, l.a, text(p.a, l.a));
    add(scores[fb], p.b, l.b, text(p.b, l.b));
    add(scores[fd], p.start, l.start, sameDate(p.start, l.start));
    add(scores[fd], p.end, l.end, sameDate(p.end, l.end));
  }
  for (const p of extra) {
    add(scores[fa], p.a, undefined, false);
    add(scores[fb], p.b, undefined, false);
    add(scores[fd], p.start, undefined, false);
    add(scores[fd], p.end, undefined, false);
  }
  for (const l of missed) {
    add(scores[fa], undefined, l.a, false);
    add(scores[fb], undefined, l.b, false);
    add(scores[fd], undefined, l.start, false);
    add(scores[fd], undefined, l.end, false);
  }
}

export function scoreCv(cv: VirtualCv, expected: Label['expected']): Record<Family, Counts> {
  const scores = emptyScores();
  const b = cv.basics;
  const e = expected.basics;
  add(scores.name, b.name, e.name, text(b.name, e.name));
  add(scores.email, b.email, e.email, (b.email ?? '').toLowerCase() === (e.email ?? '').toLowerCase());
  add(scores.phone, b.phone, e.phone, digits(b.phone) === digits(e.phone));
  for (const key of ['city', 'region', 'countryCode'] as const) {
    add(scores.location, b.location?.[key], e.location?.[key], text(b.location?.[key], e.location?.[key]));
  }
  const links = [...(b.url ? [b.url] : []), ...b.profiles.map((p) => p.url)].map(link);
  multiset(scores.links, links, e.links.map(link));

  scoreEntries(
    scores,
    ['work.position', 'work.employer', 'work.dates'],
    cv.work.map((w) => ({
      a: w.position,
      b: w.name,
      start: w.startDate,
      end: endOf(w),
    })),
    expected.work.map((w) => ({ a: w.position, b: w.name, start: w.startDate, end: endOf(w) })),
  );
  const q = (s?: string, a?: string) => (s || a ? qualification(s, a) : undefined);
  scoreEntries(
    scores,
    ['education.institution', 'education.qualification', 'education.dates'],
    cv.education.map((d) => ({
      a: d.institution,
      b: q(d.studyType, d.area),
      start: d.startDate,
      end: endOf(d),
    })),
    expected.education.map((d) => ({
      a: d.institution,
      b: q(d.studyType, d.area),
      start: d.startDate,
      end: endOf(d),
    })),
  );
  multiset(
    scores.skills,
    cv.skills.flatMap((s) => (s.keywords && s.keywords.length > 0 ? s.keywords : [s.name])),
    expected.skills,
  );
  multiset(
    scores.languages,
    cv.languages.map((l) => l.language),
    expected.languages.map((l) => l.language),
  );
  return scores;
}

export interface FixtureResult {
  fixture: Fixture;
  scores: Record<Family, Counts>;
  /** The same CV built without the application's name and email. */
  scoresWithoutPrior: Record<Family, Counts>;
  buildMs: number;
  cv: VirtualCv;
}

export async function evaluate(checker: CvChecker, fixtures: Fixture[]): Promise<FixtureResult[]> {
  const results: FixtureResult[] = [];
  for (const fixture of fixtures) {
    const checked = await checker.check(fixture.pdf);
    const pages: PdfPage[] = checked.ok ? checked.text : [];
    const started = performance.now();
    const cv = buildVirtualCv(pages, fixture.label.prior);
    const buildMs = performance.now() - started;
    const bare = buildVirtualCv(pages, {});
    results.push({
      fixture,
      scores: scoreCv(cv, fixture.label.expected),
      scoresWithoutPrior: scoreCv(bare, fixture.label.expected),
      buildMs,
      cv,
    });
  }
  return results;
}

export function sum(list: Record<Family, Counts>[]): Record<Family, Counts> {
  const total = emptyScores();
  for (const scores of list) {
    for (const f of FAMILIES) {
      total[f].matched += scores[f].matched;
      total[f].produced += scores[f].produced;
      total[f].labelled += scores[f].labelled;
    }
  }
  return total;
}

export function overall(scores: Record<Family, Counts>): Counts {
  return FAMILIES.reduce(
    (acc, f) => ({
      matched: acc.matched + scores[f].matched,
      produced: acc.produced + scores[f].produced,
      labelled: acc.labelled + scores[f].labelled,
    }),
    empty(),
  );
}

export const precision = (c: Counts) => (c.produced ? c.matched / c.produced : 1);
export const recall = (c: Counts) => (c.labelled ? c.matched / c.labelled : 1);

const pct = (v: number) => `${(v * 100).toFixed(1)}`;

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [
    line(head),
    `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}

export function report(results: FixtureResult[]): string {
  const out: string[] = [];
  const total = sum(results.map((r) => r.scores));
  const bare = sum(results.map((r) => r.scoresWithoutPrior));
  const rows = FAMILIES.map((f) => {
    const c = total[f];
    return [
      f,
      pct(precision(c)),
      pct(recall(c)),
      `${c.matched}/${c.produced}/${c.labelled}`,
      pct(recall(bare[f])),
    ];
  });
  const all = overall(total);
  rows.push([
    'all fields',
    pct(precision(all)),
    pct(recall(all)),
    `${all.matched}/${all.produced}/${all.labelled}`,
    pct(recall(overall(bare))),
  ]);
  out.push(
    `Labelled set: ${results.length} CVs. Matched/produced/labelled items; the last column is recall without the prior.`,
  );
  out.push(table(['family', 'P %', 'R %', 'm/p/l', 'R % no prior'], rows));

  for (const [title, keyOf] of [
    ['set', (r: FixtureResult) => r.fixture.label.set ?? 'dev'],
    ['producer', (r: FixtureResult) => r.fixture.label.producer],
    ['layout', (r: FixtureResult) => r.fixture.label.layout],
    ['language', (r: FixtureResult) => r.fixture.label.language],
  ] as const) {
    const groups = [...new Set(results.map(keyOf))].sort();
    const sums = groups.map((g) => sum(results.filter((r) => keyOf(r) === g).map((r) => r.scores)));
    const head = [
      'family',
      ...groups.map((g) => `${g} (${results.filter((r) => keyOf(r) === g).length}) P/R`),
    ];
    const body = FAMILIES.map((f) => [f, ...sums.map((s) => `${pct(precision(s[f]))}/${pct(recall(s[f]))}`)]);
    body.push(['all fields', ...sums.map((s) => `${pct(precision(overall(s)))}/${pct(recall(overall(s)))}`)]);
    out.push('', `By ${title}:`, table(head, body));
  }

  out.push('', 'By CV:');
  out.push(
    table(
      ['cv', 'P %', 'R %', 'build ms'],
      results.map((r) => {
        const c = overall(r.scores);
        return [r.fixture.id, pct(precision(c)), pct(recall(c)), r.buildMs.toFixed(1)];
      }),
    ),
  );
  return out.join('\n');
}

if (import.meta.main) {
  const checker = createCvChecker({ maxBytes: 10 * 1024 * 1024, maxPages: 10 });
  try {
    const results = await evaluate(checker, await loadFixtures());
    if (process.argv.includes('--json')) {
      const total = sum(results.map((r) => r.scores));
      const summary = Object.fromEntries(
        [...FAMILIES.map((f) => [f, total[f]] as const), ['all', overall(total)] as const].map(([f, c]) => [
          f,
          { precision: precision(c), recall: recall(c), ...c },
        ]),
      );
      console.log(JSON.stringify(summary, null, 2));
    } else console.log(report(results));
  } finally {
    await checker.close();
  }
}
