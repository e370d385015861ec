import { type HtmlValue, html, joinHtml, type SafeHtml } from '../../lib/html.ts';
import type { PageLang } from './i18n.ts';

/** The headings and words the virtual CV is shown with. */
export type CvWords = Record<
  | 'experience'
  | 'education'
  | 'skills'
  | 'languages'
  | 'present'
  | 'empty'
  | 'contact'
  | 'email'
  | 'phone'
  | 'location'
  | 'links',
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

function period(entry: Json, w: CvWords, lang: PageLang): SafeHtml | null {
  const start = cvDate(lang, text(entry.startDate));
  const end = entry.isCurrent === true ? w.present : cvDate(lang, text(entry.endDate));
  return start || end ? html` <span class="muted">(${start}${end && ` – ${end}`})</span>` : null;
}

/** A value as the CV printed it: the builder's `raw` reading when it normalised the value. */
function asPrinted(basics: Json, key: string): string {
  const meta = ((basics.x as Json | undefined)?.fields as Json | undefined)?.[key] as Json | undefined;
  const raw = text(meta?.raw).trim();
  return raw || text(basics[key]).trim();
}

/** The place the CV gives: as printed, else its parts joined. */
function placeOf(basics: Json): string {
  const printed = asPrinted(basics, 'location');
  if (printed) return printed;
  const location = (basics.location ?? {}) as Json;
  return ['address', 'postalCode', 'city', 'region', 'countryCode']
    .map((key) => text(location[key]).trim())
    .filter(Boolean)
    .join(', ');
}

/** The contact details the builder read (email, phone, place, site and profiles), as a list of terms. */
function contactDetails(basics: Json, w: CvWords): SafeHtml | null {
  const links = [
    text(basics.url).trim(),
    ...list(basics.profiles).map((p) => {
      const url = text(p.url).trim();
      const network = text(p.network).trim();
      return network && url && !url.toLowerCase().includes(network.toLowerCase())
        ? `${network}: ${url}`
        : url;
    }),
  ].filter(Boolean);
  const rows: [string, HtmlValue][] = [
    [w.email, text(basics.email).trim()],
    [w.phone, asPrinted(basics, 'phone')],
    [w.location, placeOf(basics)],
    [w.links, links.length > 0 && html`<ul class="cv-links">${links.map((l) => html`<li>${l}</li>`)}</ul>`],
  ];
  const shown = rows.filter(([, value]) => value);
  if (shown.length === 0) return null;
  return html`<dl class="cv-contact facts">${shown.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}</dl>`;
}

/** The name a virtual CV gives, or '' (a page may make it its heading). */
export function cvName(cv: Json | null): string {
  return text(((cv?.basics ?? {}) as Json).name).trim();
}

/**
 * The virtual CV as the employer will see it; every value escaped. Its headings are h2 unless
 * `view.level` says where it sits in the page's outline; `view.name: false` leaves the person's
 * name out (the page shows it as its own heading); `view.contact: false` leaves the contact details
 * out (a page whose reader may not contact the person directly).
 */
export function renderVirtualCv(
  cv: Json | null,
  w: CvWords,
  lang: PageLang = 'en',
  view: { level?: 2 | 3 | 4; name?: boolean; contact?: boolean } = {},
): SafeHtml {
  if (!cv) return html`<section class="cv"><p>${w.empty}</p></section>`;
  const level = view.level ?? 2;
  const heading = (words: string) => HEADINGS[level](words);
  const basics = (cv.basics ?? {}) as Json;
  const parts: HtmlValue[] = [];
  const name = text(basics.name);
  if (name && view.name !== false) parts.push(heading(name));
  const label = text(basics.label);
  if (label) parts.push(html`<p>${label}</p>`);
  const contact = view.contact !== false && contactDetails(basics, w);
  if (contact) parts.push(html`${heading(w.contact)}${contact}`);
  const summary = text(basics.summary);
  if (summary) parts.push(html`<p>${summary}</p>`);
  const work = list(cv.work);
  if (work.length > 0) {
    const jobs = work.map((job) => {
      const highlights = (Array.isArray(job.highlights) ? job.highlights : []).map(
        (h) => html`<li>${text(h)}</li>`,
      );
      const where = text(job.location);
      const summary = text(job.summary);
      return html`<li><strong>${text(job.position)}</strong>${text(job.name) && `, ${text(job.name)}`}${where && ` · ${where}`}${period(job, w, lang)}${summary && html`<p>${summary}</p>`}${highlights.length > 0 && html`<ul>${highlights}</ul>`}</li>`;
    });
    parts.push(html`${heading(w.experience)}<ul>${jobs}</ul>`);
  }
  const education = list(cv.education);
  if (education.length > 0) {
    const items = education.map((item) => {
      const what = [text(item.studyType), text(item.area)].filter(Boolean).join(', ');
      const institution = text(item.institution);
      return html`<li><strong>${what || institution}</strong>${what && institution && `, ${institution}`}${period(item, w, lang)}</li>`;
    });
    parts.push(html`${heading(w.education)}<ul>${items}</ul>`);
  }
  // A category ("Languages: Go, Python") keeps its keywords; a level is shown as printed.
  const skills = list(cv.skills)
    .map((s) => {
      const keywords = (Array.isArray(s.keywords) ? s.keywords : []).map(text).filter(Boolean);
      const name = text(s.name);
      const level = text(s.level);
      const named = level ? `${name} (${level})` : name;
      return keywords.length > 0 ? `${named}: ${keywords.join(', ')}` : named;
    })
    .filter(Boolean);
  const grouped = list(cv.skills).some((s) => Array.isArray(s.keywords) && s.keywords.length > 0);
  if (skills.length > 0)
    parts.push(
      grouped
        ? html`${heading(w.skills)}<ul>${skills.map((s) => html`<li>${s}</li>`)}</ul>`
        : html`${heading(w.skills)}<p>${joinHtml(skills, ', ')}</p>`,
    );
  const languages = list(cv.languages)
    .map((l) => [text(l.language), text(l.fluency)].filter(Boolean).join(' — '))
    .filter(Boolean);
  if (languages.length > 0) parts.push(html`${heading(w.languages)}<p>${joinHtml(languages, ', ')}</p>`);
  return html`<section class="cv">${parts.length > 0 ? parts : html`<p>${w.empty}</p>`}</section>`;
}

/** The CV's headings at each level the pages place it. */
const HEADINGS: Record<2 | 3 | 4, (words: string) => SafeHtml> = {
  2: (words) => html`<h2>${words}</h2>`,
  3: (words) => html`<h3>${words}</h3>`,
  4: (words) => html`<h4>${words}</h4>`,
};
