import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { AuthoredJob, SalaryInterval } from '../../contract/job.ts';
import { Text } from '../../contract/text.ts';
import { notFound } from '../../domain/errors.ts';
import {
  type HtmlValue,
  html,
  joinHtml,
  jsonScript,
  type SafeHtml,
  safeUrl,
  unsafeRaw,
} from '../../lib/html.ts';
import { plainText, sanitizeDescription } from '../../lib/sanitize.ts';
import type { Route } from '../types.ts';
import { readUtm, utmQuery } from './apply/question-fields.ts';
import { type EmbedMode, EmbedQuery, embedHead, embedQuery, readEmbed } from './embed-mode.ts';
import { hostedErrorPage } from './error-page.ts';
import { formatDate, PAGE_LANGS, PAGE_WORDS, type PageLang, type PageWords, pageLang } from './i18n.ts';
import { countryName, LISTING_WORDS } from './listing-words.ts';
import { sendPage } from './page-shell.ts';
import { countPageView } from './page-views.ts';
import { salaryText } from './salary.ts';

const EMPLOYMENT_TYPE: Record<string, string> = {
  full_time: 'FULL_TIME',
  part_time: 'PART_TIME',
  contract: 'CONTRACTOR',
  casual: 'PER_DIEM',
  fixed_term: 'TEMPORARY',
};
/** schema.org's unitText for the salary's interval (issue 33: read from the period or sent). */
const UNIT: Record<SalaryInterval, string> = {
  hour: 'HOUR',
  day: 'DAY',
  week: 'WEEK',
  month: 'MONTH',
  year: 'YEAR',
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
    const unit = salary.interval ? UNIT[salary.interval] : undefined;
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

function facts(job: AuthoredJob, w: PageWords, lang: PageLang): SafeHtml | null {
  const items: HtmlValue[] = [];
  const loc = job.location;
  const where = [loc?.city, loc?.state, loc?.country ? countryName(lang, loc.country) : undefined]
    .filter(Boolean)
    .join(', ');
  if (where || loc?.remotePolicy) {
    items.push(
      html`${w.location}: ${where}${where && loc?.remotePolicy && ' · '}${loc?.remotePolicy && w.remote[loc.remotePolicy]}${loc?.onsiteDays ? ` (${loc.onsiteDays})` : ''}`,
    );
  }
  const pay = salaryText(job.salary, lang);
  if (pay) items.push(`${w.salary}: ${pay}`);
  const x = LISTING_WORDS[lang];
  if (job.seniority) items.push(`${x.seniority}: ${job.seniority}`);
  if (job.yearsExperience) items.push(`${x.experience}: ${x.years(job.yearsExperience)}`);
  if (job.workStyle) items.push(`${x.workStyle}: ${job.workStyle}`);
  if (job.employmentType) items.push(w.employment[job.employmentType]);
  if (job.contractType) items.push(w.contract[job.contractType]);
  if (job.postedAt) items.push(html`${w.posted}: ${timeOf(lang, job.postedAt)}`);
  if (job.expiresAt) items.push(html`${w.closes}: ${timeOf(lang, job.expiresAt)}`);
  return items.length > 0 ? html`<ul class="facts">${items.map((i) => html`<li>${i}</li>`)}</ul>` : null;
}

const timeOf = (lang: PageLang, iso: string) => html`<time datetime="${iso}">${formatDate(lang, iso)}</time>`;

const items = (list: readonly string[]) => list.map((i) => html`<li>${i}</li>`);

function list(title: string, entries: string[]): SafeHtml | null {
  return entries.length > 0 ? html`<h2>${title}</h2><ul>${items(entries)}</ul>` : null;
}

export function siteHeader(lang: PageLang, w: PageWords, pathFor: (l: PageLang) => string): SafeHtml {
  const langs = PAGE_LANGS.map((l) =>
    l === lang
      ? html`<strong aria-current="true">${l.toUpperCase()}</strong>`
      : html`<a href="${pathFor(l)}" hreflang="${l}" lang="${l}">${l.toUpperCase()}</a>`,
  );
  return html`<header class="site"><a href="/${lang}/jobs">${w.jobs}</a><nav class="langs" aria-label="${w.languages}">${joinHtml(langs, ' ')}</nav></header>`;
}

/** The description as sanitize-html leaves it (src/lib/sanitize.ts): the one markup taken as is. */
export function descriptionHtml(description: string): SafeHtml {
  return unsafeRaw(sanitizeDescription(description));
}

function renderJob(
  job: AuthoredJob,
  lang: PageLang,
  live: boolean,
  pathFor: (l: PageLang) => string,
  carry = '',
  embed: EmbedMode | null = null,
): SafeHtml {
  const w = PAGE_WORDS[lang];
  // Inside the embed: the form keeps the mode and says so (channel embed); a way back to the list.
  const mode = embedQuery(embed);
  const via = mode ? `embed&${mode}` : 'job_page';
  const required = job.skills.filter((s) => s.level === 'required').map((s) => s.name);
  const nice = job.skills.filter((s) => s.level === 'nice_to_have').map((s) => s.name);
  const apply = live
    ? html`<p><a class="button" href="${safeUrl(`${job.applyLink}?lang=${lang}&via=${via}${carry}`)}">${w.apply}</a></p>`
    : html`<div class="alert" role="status"><h2>${w.closedTitle}</h2><p>${w.closedBody}</p></div>`;
  const logo =
    job.company.logoUrl &&
    html`<img class="logo" src="${safeUrl(job.company.logoUrl)}" alt="${job.company.name}">`;
  const description = descriptionHtml(job.description);
  const top = embed
    ? html`<p><a href="${pathFor(lang).replace(/\/[^/]+$/, '')}?${mode}">${LISTING_WORDS[lang].jobsAt(job.company.name)}</a></p>`
    : siteHeader(lang, w, pathFor);
  return html`${top}<article>${logo}<p>${job.company.name}</p><h1>${job.title}</h1>${facts(job, w, lang)}${apply}<section class="description">${description}</section>${list(w.responsibilities, job.responsibilities)}${required.length + nice.length > 0 && html`<h2>${w.skills}</h2>`}${required.length > 0 && html`<h3>${w.required}</h3><ul>${items(required)}</ul>`}${nice.length > 0 && html`<h3>${w.niceToHave}</h3><ul>${items(nice)}</ul>`}${list(w.benefits, job.benefits)}${live && apply}</article>`;
}

/**
 * The job page as it would look with `words` (the console's "Preview the job page"): the hosted
 * page's own view, under a banner saying it is a preview; private, saved nowhere.
 */
export function sendJobPreview(
  reply: FastifyReply,
  words: Record<string, unknown>,
  companyName: string,
  logoUrl: string | null,
): FastifyReply {
  const defined = Object.fromEntries(Object.entries(words).filter(([, value]) => value !== null));
  const job = {
    id: 'preview',
    status: 'draft',
    description: '',
    responsibilities: [],
    skills: [],
    benefits: [],
    questions: [],
    ...defined,
    title: typeof words.title === 'string' && words.title !== '' ? words.title : 'Untitled job',
    company: { name: companyName, ...(logoUrl ? { logoUrl } : {}) },
    applyLink: '#preview',
  } as AuthoredJob;
  const banner = html`<div class="alert preview" role="note"><strong>Preview</strong>: this is how the job page will look. Nothing is saved and candidates cannot see it. Close this tab to go back to the form.</div>`;
  return sendPage(
    reply,
    200,
    'en',
    `Preview: ${job.title}`,
    html`${banner}${renderJob(job, 'en', true, (l) => `/${l}/jobs`)}`,
    {
      head: html`<style>.alert.preview{background:#eef3ff;border:2px dashed #1d4ed8;margin-bottom:1rem}</style>`,
    },
  );
}

/** The visible notice on a test job's pages (extensions.md §8). */
export function testNotice(lang: PageLang): SafeHtml {
  const w = PAGE_WORDS[lang];
  return html`<div class="alert test-job" role="note"><strong>${w.testJob}</strong>: ${w.testJobBody}</div>`;
}

/** The page's head: description, canonical and language alternates, the JobPosting when live. */
function pageHead(
  job: AuthoredJob,
  lang: PageLang,
  absolute: (l: PageLang) => string,
  ld: Record<string, unknown> | null,
): SafeHtml {
  return html`<meta name="description" content="${plainText(job.description).slice(0, 160)}">${
    job.url &&
    html`<link rel="canonical" href="${safeUrl(job.url.replace(/\/en\/jobs\//, `/${lang}/jobs/`))}">`
  }${PAGE_LANGS.map((l) => html`<link rel="alternate" hreflang="${l}" href="${safeUrl(absolute(l))}">`)}${ld && jsonScript(ld)}`;
}

const Params = Type.Object({
  lang: Text({ maxLength: 5 }),
  company: Text({ maxLength: 80 }),
  role: Text({ maxLength: 80 }),
});

/** The hosted job page at `url`: `/{lang}/jobs/{company}/{role}`. */
export const jobPage: Route = (app, { services: { publicJobs, pageViews } }) => {
  app.get(
    '/:lang/jobs/:company/:role',
    { schema: { hide: true, params: Params, querystring: Type.Object({ ...EmbedQuery }) } },
    async (request, reply) => {
      const { company, role } = request.params;
      const embed = readEmbed(request);
      const lang = pageLang(request.params.lang);
      // Not a page language (e.g. /v2/jobs/…): the same 404 as any unknown route.
      if (!lang) return reply.callNotFound();
      const found = await publicJobs.page(company, role);
      if (found.kind === 'moved')
        return reply
          .code(301)
          .header('location', `/${lang}/jobs/${found.companyAddress}/${encodeURIComponent(role)}`)
          .send();
      if (found.kind === 'missing') return hostedErrorPage(reply, lang, notFound('Job'));
      const live = found.kind === 'live';
      // A test job (extensions.md §8): marked, noindex, never a JobPosting, not counted.
      const test = !found.account.livemode;
      if (live && !test) countPageView(request, pageViews, found.job.id, 'job_page');
      const pathFor = (l: PageLang) => `/${l}/jobs/${company}/${role}`;
      // hreflang alternates must be absolute URLs.
      const absolute = (l: PageLang) =>
        found.job.url ? new URL(pathFor(l), found.job.url).href : pathFor(l);
      const ld = live && !test ? jobPostingJsonLd(found.job) : null;
      const head = pageHead(found.job, lang, absolute, ld);
      // A closed role's page answers 410 so search engines drop it.
      return sendPage(
        reply,
        live ? 200 : 410,
        lang,
        `${found.job.title} · ${found.job.company.name}`,
        // The landing address's utm_* go on to the apply page, and into the application (§5).
        html`${test && testNotice(lang)}${renderJob(
          found.job,
          lang,
          live,
          pathFor,
          utmQuery(readUtm((name) => (request.query as Record<string, unknown>)[name])),
          embed,
        )}`,
        {
          head: html`${head}${test && html`<style>.test-job{margin-bottom:1rem}</style>`}${embedHead(embed)}`,
          // A test job's page is private: no-store and noindex.
          public: !test,
          noindex: embed !== null,
          frameOrigins: found.account.embed_origins,
        },
      );
    },
  );
};
