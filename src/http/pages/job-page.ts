import { Type } from 'typebox';
import type { AuthoredJob } from '../../contract/job.ts';
import { Text } from '../../contract/text.ts';
import { escapeHtml as e } from '../../lib/html.ts';
import { plainText, sanitizeDescription } from '../../lib/sanitize.ts';
import type { Route } from '../types.ts';
import { formatDate, PAGE_LANGS, PAGE_WORDS, type PageLang, type PageWords, pageLang } from './i18n.ts';
import { countryName, LISTING_WORDS } from './listing-words.ts';
import { sendPage } from './page-shell.ts';
import { salaryText } from './salary.ts';

const EMPLOYMENT_TYPE: Record<string, string> = {
  full_time: 'FULL_TIME',
  part_time: 'PART_TIME',
  contract: 'CONTRACTOR',
  casual: 'PER_DIEM',
  fixed_term: 'TEMPORARY',
};
const UNIT: Record<string, string> = {
  hour: 'HOUR',
  day: 'DAY',
  week: 'WEEK',
  month: 'MONTH',
  year: 'YEAR',
  annum: 'YEAR',
  annual: 'YEAR',
};

/**
 * Where the job is, as Google requires it: a `jobLocation` with an address, or a remote job
 * (`TELECOMMUTE`) with the applicant's country. Null when the ad gives neither: Google rejects a
 * JobPosting without them, so the page then carries no JobPosting at all (docs/decisions.md).
 */
function jobPlace(job: AuthoredJob): Record<string, unknown> | null {
  const loc = job.location;
  const address =
    loc && (loc.city || loc.state || loc.country)
      ? {
          '@type': 'PostalAddress',
          ...(loc.city ? { addressLocality: loc.city } : {}),
          ...(loc.state ? { addressRegion: loc.state } : {}),
          ...(loc.country ? { addressCountry: loc.country } : {}),
        }
      : null;
  const jobLocation = address ? { jobLocation: { '@type': 'Place', address } } : {};
  if (loc?.remotePolicy === 'remote' && loc.country) {
    return {
      jobLocationType: 'TELECOMMUTE',
      applicantLocationRequirements: { '@type': 'Country', name: loc.country },
    };
  }
  return address ? jobLocation : null;
}

/** schema.org JobPosting, as Google for Jobs reads it; null when Google would reject it. */
export function jobPostingJsonLd(job: AuthoredJob): Record<string, unknown> | null {
  const types = [job.employmentType, job.contractType]
    .map((t) => (t ? EMPLOYMENT_TYPE[t] : undefined))
    .filter(Boolean);
  const ld: Record<string, unknown> = {
    '@context': 'https://schema.org/',
    '@type': 'JobPosting',
    title: job.title,
    description: sanitizeDescription(job.description),
    identifier: { '@type': 'PropertyValue', name: job.company.name, value: job.id },
    hiringOrganization: {
      '@type': 'Organization',
      name: job.company.name,
      ...(job.company.logoUrl ? { logo: job.company.logoUrl } : {}),
    },
    directApply: true,
    ...(job.url ? { url: job.url } : {}),
  };
  if (job.postedAt) ld.datePosted = job.postedAt;
  if (job.expiresAt) ld.validThrough = job.expiresAt;
  if (types.length > 0) ld.employmentType = [...new Set(types)];
  const place = jobPlace(job);
  if (!place) return null;
  Object.assign(ld, place);
  const salary = job.salary;
  if (salary && (salary.min !== undefined || salary.max !== undefined) && salary.currency) {
    const unit = UNIT[(salary.period ?? '').trim().toLowerCase()] ?? undefined;
    ld.baseSalary = {
      '@type': 'MonetaryAmount',
      currency: salary.currency,
      value: {
        '@type': 'QuantitativeValue',
        ...(salary.min !== undefined ? { minValue: salary.min } : {}),
        ...(salary.max !== undefined ? { maxValue: salary.max } : {}),
        ...(salary.min !== undefined && salary.max === undefined ? { value: salary.min } : {}),
        ...(unit ? { unitText: unit } : {}),
      },
    };
  }
  return ld;
}

/** JSON inside <script>: `<` escaped so no string in it can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function facts(job: AuthoredJob, w: PageWords, lang: PageLang): string {
  const items: string[] = [];
  const loc = job.location;
  const where = [loc?.city, loc?.state, loc?.country ? countryName(lang, loc.country) : undefined]
    .filter(Boolean)
    .join(', ');
  if (where || loc?.remotePolicy) {
    items.push(
      `${e(w.location)}: ${e(where)}${where && loc?.remotePolicy ? ' · ' : ''}${loc?.remotePolicy ? e(w.remote[loc.remotePolicy]) : ''}${loc?.onsiteDays ? ` (${e(loc.onsiteDays)})` : ''}`,
    );
  }
  const pay = salaryText(job.salary, lang);
  if (pay) items.push(`${e(w.salary)}: ${e(pay)}`);
  const x = LISTING_WORDS[lang];
  if (job.seniority) items.push(`${e(x.seniority)}: ${e(job.seniority)}`);
  if (job.yearsExperience) items.push(`${e(x.experience)}: ${e(x.years(job.yearsExperience))}`);
  if (job.workStyle) items.push(`${e(x.workStyle)}: ${e(job.workStyle)}`);
  if (job.employmentType) items.push(e(w.employment[job.employmentType]));
  if (job.contractType) items.push(e(w.contract[job.contractType]));
  if (job.postedAt)
    items.push(
      `${e(w.posted)}: <time datetime="${e(job.postedAt)}">${e(formatDate(lang, job.postedAt))}</time>`,
    );
  if (job.expiresAt)
    items.push(
      `${e(w.closes)}: <time datetime="${e(job.expiresAt)}">${e(formatDate(lang, job.expiresAt))}</time>`,
    );
  return items.length > 0 ? `<ul class="facts">${items.map((i) => `<li>${i}</li>`).join('')}</ul>` : '';
}

function list(title: string, items: string[]): string {
  return items.length > 0
    ? `<h2>${e(title)}</h2><ul>${items.map((i) => `<li>${e(i)}</li>`).join('')}</ul>`
    : '';
}

export function siteHeader(lang: PageLang, w: PageWords, pathFor: (l: PageLang) => string): string {
  const langs = PAGE_LANGS.map((l) =>
    l === lang
      ? `<strong aria-current="true">${l.toUpperCase()}</strong>`
      : `<a href="${e(pathFor(l))}" hreflang="${l}" lang="${l}">${l.toUpperCase()}</a>`,
  ).join(' ');
  return `<header class="site"><a href="/${lang}/jobs">${e(w.jobs)}</a><nav class="langs" aria-label="${e(w.languages)}">${langs}</nav></header>`;
}

function renderJob(
  job: AuthoredJob,
  lang: PageLang,
  live: boolean,
  pathFor: (l: PageLang) => string,
): string {
  const w = PAGE_WORDS[lang];
  const required = job.skills.filter((s) => s.level === 'required').map((s) => s.name);
  const nice = job.skills.filter((s) => s.level === 'nice_to_have').map((s) => s.name);
  const apply = live
    ? `<p><a class="button" href="${e(`${job.applyLink}?lang=${lang}&via=job_page`)}">${e(w.apply)}</a></p>`
    : `<div class="alert" role="status"><h2>${e(w.closedTitle)}</h2><p>${e(w.closedBody)}</p></div>`;
  return [
    siteHeader(lang, w, pathFor),
    '<article>',
    job.company.logoUrl
      ? `<img class="logo" src="${e(job.company.logoUrl)}" alt="${e(job.company.name)}">`
      : '',
    `<p>${e(job.company.name)}</p>`,
    `<h1>${e(job.title)}</h1>`,
    facts(job, w, lang),
    apply,
    `<section class="description">${sanitizeDescription(job.description)}</section>`,
    list(w.responsibilities, job.responsibilities),
    required.length + nice.length > 0 ? `<h2>${e(w.skills)}</h2>` : '',
    required.length > 0
      ? `<h3>${e(w.required)}</h3><ul>${required.map((n) => `<li>${e(n)}</li>`).join('')}</ul>`
      : '',
    nice.length > 0
      ? `<h3>${e(w.niceToHave)}</h3><ul>${nice.map((n) => `<li>${e(n)}</li>`).join('')}</ul>`
      : '',
    list(w.benefits, job.benefits),
    live ? apply : '',
    '</article>',
  ].join('');
}

const Params = Type.Object({
  lang: Text({ maxLength: 5 }),
  company: Text({ maxLength: 80 }),
  role: Text({ maxLength: 80 }),
});

/** The hosted job page at `url`: `/{lang}/jobs/{company}/{role}`. */
export const jobPage: Route = (app, { services: { publicJobs } }) => {
  app.get(
    '/:lang/jobs/:company/:role',
    { schema: { hide: true, params: Params } },
    async (request, reply) => {
      const { company, role } = request.params;
      const lang = pageLang(request.params.lang);
      // Not a page language (e.g. /v2/jobs/…): the same 404 as any unknown route.
      if (!lang) return reply.callNotFound();
      const w = PAGE_WORDS[lang];
      const found = await publicJobs.page(company, role);
      if (found.kind === 'moved')
        return reply
          .code(301)
          .header('location', `/${lang}/jobs/${found.companyAddress}/${encodeURIComponent(role)}`)
          .send();
      if (found.kind === 'missing')
        return sendPage(reply, 404, lang, w.notFound, `<h1>${e(w.notFound)}</h1><p>${e(w.notFoundBody)}</p>`);
      const live = found.kind === 'live';
      const pathFor = (l: PageLang) => `/${l}/jobs/${company}/${role}`;
      // hreflang alternates must be absolute URLs.
      const absolute = (l: PageLang) =>
        found.job.url ? new URL(pathFor(l), found.job.url).href : pathFor(l);
      const ld = live ? jobPostingJsonLd(found.job) : null;
      const head = [
        `<meta name="description" content="${e(plainText(found.job.description).slice(0, 160))}">`,
        found.job.url
          ? `<link rel="canonical" href="${e(found.job.url.replace(/\/en\/jobs\//, `/${lang}/jobs/`))}">`
          : '',
        ...PAGE_LANGS.map((l) => `<link rel="alternate" hreflang="${l}" href="${e(absolute(l))}">`),
        ld ? `<script type="application/ld+json">${scriptJson(ld)}</script>` : '',
      ].join('');
      // A closed role's page answers 410 so search engines drop it.
      return sendPage(
        reply,
        live ? 200 : 410,
        lang,
        `${found.job.title} · ${found.job.company.name}`,
        renderJob(found.job, lang, live, pathFor),
        {
          head,
          public: true,
        },
      );
    },
  );
};
