import { escapeHtml } from '../../lib/html.ts';
import type { PageLang } from './i18n.ts';

/** The headings and words the virtual CV is shown with. */
export type CvWords = Record<
  'experience' | 'education' | 'skills' | 'languages' | 'present' | 'empty',
  string
>;

const MONTHS = new Map<PageLang, Intl.DateTimeFormat>();

/** A CV date as the page's language writes it: `2021-03` → "Mar 2021" / "mar 2021"; a year stays a year. */
export function cvDate(lang: PageLang, value: string): string {
  const m = /^(\d{4})-(\d{2})(?:-\d{2})?$/.exec(value);
  if (!m) return value;
  const month = Number(m[2]);
  if (month < 1 || month > 12) return value;
  let format = MONTHS.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, { month: 'short', year: 'numeric', timeZone: 'UTC' });
    MONTHS.set(lang, format);
  }
  return format.format(new Date(Date.UTC(Number(m[1]), month - 1, 1)));
}

type Json = Record<string, unknown>;
const text = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'value' in value) return text((value as Json).value);
  return '';
};
const list = (value: unknown): Json[] =>
  Array.isArray(value) ? (value.filter((v) => v && typeof v === 'object') as Json[]) : [];
const e = escapeHtml;

function period(entry: Json, w: CvWords, lang: PageLang): string {
  const start = cvDate(lang, text(entry.startDate));
  const end = entry.isCurrent === true ? w.present : cvDate(lang, text(entry.endDate));
  return start || end ? ` <span class="muted">(${e(start)}${end ? ` – ${e(end)}` : ''})</span>` : '';
}

/** The name a virtual CV gives, or '' (a page may make it its heading). */
export function cvName(cv: Json | null): string {
  return text(((cv?.basics ?? {}) as Json).name).trim();
}

/**
 * The virtual CV as the employer will see it; every value escaped. Its headings are h2 unless
 * `view.level` says where it sits in the page's outline; `view.name: false` leaves the person's
 * name out (the page shows it as its own heading).
 */
export function renderVirtualCv(
  cv: Json | null,
  w: CvWords,
  lang: PageLang = 'en',
  view: { level?: 2 | 3 | 4; name?: boolean } = {},
): string {
  if (!cv) return `<section class="cv"><p>${e(w.empty)}</p></section>`;
  const h = `h${view.level ?? 2}`;
  const heading = (words: string) => `<${h}>${e(words)}</${h}>`;
  const basics = (cv.basics ?? {}) as Json;
  const parts: string[] = [];
  const name = text(basics.name);
  if (name && view.name !== false) parts.push(heading(name));
  const label = text(basics.label);
  if (label) parts.push(`<p>${e(label)}</p>`);
  const summary = text(basics.summary);
  if (summary) parts.push(`<p>${e(summary)}</p>`);
  const work = list(cv.work);
  if (work.length > 0) {
    parts.push(`${heading(w.experience)}<ul>`);
    for (const job of work) {
      const highlights = (Array.isArray(job.highlights) ? job.highlights : [])
        .map((h) => `<li>${e(text(h))}</li>`)
        .join('');
      parts.push(
        `<li><strong>${e(text(job.position))}</strong>${text(job.name) ? `, ${e(text(job.name))}` : ''}${period(job, w, lang)}${highlights ? `<ul>${highlights}</ul>` : ''}</li>`,
      );
    }
    parts.push('</ul>');
  }
  const education = list(cv.education);
  if (education.length > 0) {
    parts.push(`${heading(w.education)}<ul>`);
    for (const item of education) {
      const what = [text(item.studyType), text(item.area)].filter(Boolean).join(', ');
      parts.push(
        `<li><strong>${e(what || text(item.institution))}</strong>${what && text(item.institution) ? `, ${e(text(item.institution))}` : ''}${period(item, w, lang)}</li>`,
      );
    }
    parts.push('</ul>');
  }
  const skills = list(cv.skills)
    .map((s) => text(s.name))
    .filter(Boolean);
  if (skills.length > 0) parts.push(`${heading(w.skills)}<p>${skills.map(e).join(', ')}</p>`);
  const languages = list(cv.languages)
    .map((l) => [text(l.language), text(l.fluency)].filter(Boolean).join(' — '))
    .filter(Boolean);
  if (languages.length > 0) parts.push(`${heading(w.languages)}<p>${languages.map(e).join(', ')}</p>`);
  return `<section class="cv">${parts.join('') || `<p>${e(w.empty)}</p>`}</section>`;
}
