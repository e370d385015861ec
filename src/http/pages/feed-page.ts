import { Type } from 'typebox';
import type { AuthoredJob } from '../../contract/job.ts';
import { CATEGORIES } from '../../contract/job.ts';
import { Text } from '../../contract/text.ts';
import type { FeedFilter } from '../../domain/jobs/job-repository.ts';
import { escapeHtml as e } from '../../lib/html.ts';
import type { Route } from '../types.ts';
import { FeedFilterQuery, filterQuery, readFeedFilter } from './feed-filter.ts';
import { formatDate, PAGE_WORDS, type PageLang, pageLang } from './i18n.ts';
import { siteHeader } from './job-page.ts';
import { CATEGORY_NAMES, countryName, LISTING_WORDS } from './listing-words.ts';
import { sendPage } from './page-shell.ts';
import { salaryText } from './salary.ts';

const PAGE_SIZE = 50;

const FEED_STYLE =
  '<style>form.filters{display:grid;gap:.5rem 1rem;grid-template-columns:1fr;background:#fff;border:1px solid #ddd;border-radius:8px;padding:.75rem 1rem;margin:1rem 0}' +
  'form.filters label{margin-top:0}form.filters input[type=search],form.filters select{width:100%;box-sizing:border-box;font:inherit;padding:.5rem;border:1px solid #767676;border-radius:4px;background:#fff}' +
  'form.filters .check{display:flex;gap:.5rem;align-items:center;font-weight:600}form.filters .check input{width:1.25rem;height:1.25rem}' +
  'form.filters .go{display:flex;gap:1rem;align-items:center;flex-wrap:wrap}select:focus-visible,input[type=search]:focus-visible,input[type=checkbox]:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}' +
  '@media (min-width:48rem){form.filters{grid-template-columns:2fr 1fr 1fr}form.filters .wide{grid-column:1/-1}}' +
  '.pay{font-weight:600}.tag{display:inline-block;border:1px solid #1b1b1f;border-radius:999px;padding:0 .5rem;font-size:.85rem;margin-left:.25rem}nav.pages{display:flex;gap:1.5rem;margin:1rem 0}</style>';

const localPath = (url: string | undefined, lang: PageLang) =>
  url ? new URL(url).pathname.replace(/^\/en\//, `/${lang}/`) : '#';

function filterForm(lang: PageLang, filter: FeedFilter): string {
  const x = LISTING_WORDS[lang];
  const names = CATEGORY_NAMES[lang];
  const options = [
    `<option value="">${e(x.anyCategory)}</option>`,
    ...[...CATEGORIES]
      .sort((a, b) => names[a].localeCompare(names[b], lang))
      .map((c) => `<option value="${c}"${filter.category === c ? ' selected' : ''}>${e(names[c])}</option>`),
  ].join('');
  const active = filter.text || filter.category || filter.place || filter.remote;
  return [
    `<form class="filters" method="get" action="/${lang}/jobs" role="search" aria-label="${e(x.searchLabel)}">`,
    `<div><label for="q">${e(x.searchLabel)}</label><input type="search" id="q" name="q" maxlength="100" value="${e(filter.text ?? '')}"></div>`,
    `<div><label for="category">${e(x.category)}</label><select id="category" name="category">${options}</select></div>`,
    `<div><label for="place">${e(x.place)}</label><input type="search" id="place" name="place" maxlength="80" value="${e(filter.place ?? '')}" placeholder="${e(x.anyPlace)}"></div>`,
    `<div class="wide go"><label class="check"><input type="checkbox" name="remote" value="1"${filter.remote ? ' checked' : ''}> ${e(x.remoteOnly)}</label>`,
    `<button type="submit">${e(x.filter)}</button>`,
    active ? `<a href="/${lang}/jobs">${e(x.clearFilters)}</a>` : '',
    '</div></form>',
  ].join('');
}

function jobItem(job: AuthoredJob, lang: PageLang): string {
  const w = PAGE_WORDS[lang];
  const loc = job.location;
  const where = [loc?.city, loc?.country ? countryName(lang, loc.country) : undefined]
    .filter(Boolean)
    .join(', ');
  const pay = salaryText(job.salary, lang);
  const remote = loc?.remotePolicy ? `<span class="tag">${e(w.remote[loc.remotePolicy])}</span>` : '';
  return [
    `<li class="job"><a href="${e(localPath(job.url, lang))}"><strong>${e(job.title)}</strong></a>${remote}<br>`,
    e(job.company.name),
    where ? ` · ${e(where)}` : '',
    job.postedAt ? ` · <time datetime="${e(job.postedAt)}">${e(formatDate(lang, job.postedAt))}</time>` : '',
    pay ? `<br><span class="pay">${e(pay)}</span>` : '',
    '</li>',
  ].join('');
}

/** The job seeker feed as an HTML page per language, with server-side filters and paging. */
export const jobFeedPage: Route = (app, { services: { publicJobs } }) => {
  app.get(
    '/:lang/jobs',
    {
      schema: {
        hide: true,
        params: Type.Object({ lang: Text({ maxLength: 5 }) }),
        // A page people share: tracking parameters (utm_…) are ignored, not refused.
        querystring: Type.Object({ cursor: Type.Optional(Text({ maxLength: 200 })), ...FeedFilterQuery }),
      },
    },
    async (request, reply) => {
      const lang = pageLang(request.params.lang);
      // Not a page language (e.g. /v2/jobs): the same 404 as any unknown route.
      if (!lang) return reply.callNotFound();
      const w = PAGE_WORDS[lang];
      const x = LISTING_WORDS[lang];
      const filter = readFeedFilter(request.query);
      const query = filterQuery(filter);
      // An unreadable cursor (a mangled shared link) starts the list from the top.
      let cursor = request.query.cursor ?? null;
      let page = await publicJobs.feed(cursor, PAGE_SIZE, filter);
      if (page === null) {
        cursor = null;
        page = (await publicJobs.feed(null, PAGE_SIZE, filter))!;
      }
      const items = page.jobs.map((job) => jobItem(job, lang)).join('');
      const filtered = query !== '';
      const pages = [
        cursor ? `<a href="/${lang}/jobs${query ? `?${e(query)}` : ''}">${e(x.previous)}</a>` : '',
        page.nextCursor
          ? `<a rel="next" href="/${lang}/jobs?${e(query ? `${query}&` : '')}cursor=${e(page.nextCursor)}">${e(w.next)}</a>`
          : '',
      ].filter(Boolean);
      const body = [
        siteHeader(lang, w, (l) => `/${l}/jobs${query ? `?${query}` : ''}`),
        `<h1>${e(w.jobs)}</h1>`,
        filterForm(lang, filter),
        items
          ? `<p class="muted" role="status">${e(x.results(page.jobs.length))}</p><ul class="joblist">${items}</ul>`
          : `<p role="status">${e(filtered ? x.noResults : w.noJobs)}</p>`,
        pages.length > 0 ? `<nav class="pages" aria-label="${e(w.next)}">${pages.join('')}</nav>` : '',
      ].join('');
      const head = [
        FEED_STYLE,
        page.nextCursor
          ? `<link rel="next" href="/${lang}/jobs?${e(query ? `${query}&` : '')}cursor=${e(page.nextCursor)}">`
          : '',
      ].join('');
      return sendPage(reply, 200, lang, w.jobs, body, { head, public: true });
    },
  );
};
