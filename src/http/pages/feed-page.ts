import { Type } from 'typebox';
import type { AuthoredJob } from '../../contract/job.ts';
import { CATEGORIES } from '../../contract/job.ts';
import { Text } from '../../contract/text.ts';
import type { FeedFilter } from '../../domain/jobs/job-repository.ts';
import { html, type SafeHtml, safeUrl } from '../../lib/html.ts';
import type { Route } from '../types.ts';
import { FeedFilterQuery, filterQuery, readFeedFilter } from './feed-filter.ts';
import { formatDate, PAGE_WORDS, type PageLang, pageLang } from './i18n.ts';
import { siteHeader } from './job-page.ts';
import { CATEGORY_NAMES, countryName, LISTING_WORDS } from './listing-words.ts';
import { sendPage } from './page-shell.ts';
import { salaryText } from './salary.ts';

const PAGE_SIZE = 50;

export const FEED_STYLE = html`<style>form.filters{display:grid;gap:.5rem 1rem;grid-template-columns:1fr;background:#fff;border:1px solid #ddd;border-radius:8px;padding:.75rem 1rem;margin:1rem 0}form.filters label{margin-top:0}form.filters input[type=search],form.filters select{width:100%;box-sizing:border-box;font:inherit;padding:.5rem;border:1px solid #767676;border-radius:4px;background:#fff}form.filters .check{display:flex;gap:.5rem;align-items:center;font-weight:600}form.filters .check input{width:1.25rem;height:1.25rem}form.filters .go{display:flex;gap:1rem;align-items:center;flex-wrap:wrap}select:focus-visible,input[type=search]:focus-visible,input[type=checkbox]:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}@media (min-width:48rem){form.filters{grid-template-columns:2fr 1fr 1fr}form.filters .wide{grid-column:1/-1}}.pay{font-weight:600}.tag{display:inline-block;border:1px solid #1b1b1f;border-radius:999px;padding:0 .5rem;font-size:.85rem;margin-left:.25rem}nav.pages{display:flex;gap:1.5rem;margin:1rem 0}</style>`;

const localPath = (url: string | undefined, lang: PageLang) =>
  url ? new URL(url).pathname.replace(/^\/en\//, `/${lang}/`) : '#';

/** The feed's filter form, posting (GET) to `base`: the feed, or one company's careers page. */
export function filterForm(lang: PageLang, filter: FeedFilter, base = `/${lang}/jobs`, keep = ''): SafeHtml {
  const x = LISTING_WORDS[lang];
  const names = CATEGORY_NAMES[lang];
  const options = [...CATEGORIES]
    .sort((a, b) => names[a].localeCompare(names[b], lang))
    .map((c) => html`<option value="${c}"${filter.category === c && html` selected`}>${names[c]}</option>`);
  const active = filter.text || filter.category || filter.place || filter.remote;
  // What the list keeps across its pages (the embed's mode): hidden inputs, as a GET form's action loses its query.
  const hidden = [...new URLSearchParams(keep)].map(
    ([n, v]) => html`<input type="hidden" name="${n}" value="${v}">`,
  );
  const clear = `${base}${keep ? `?${keep}` : ''}`;
  return html`<form class="filters" method="get" action="${base}" role="search" aria-label="${x.searchLabel}">${hidden}<div><label for="q">${x.searchLabel}</label><input type="search" id="q" name="q" maxlength="100" value="${filter.text}"></div><div><label for="category">${x.category}</label><select id="category" name="category"><option value="">${x.anyCategory}</option>${options}</select></div><div><label for="place">${x.place}</label><input type="search" id="place" name="place" maxlength="80" value="${filter.place}" placeholder="${x.anyPlace}"></div><div class="wide go"><label class="check"><input type="checkbox" name="remote" value="1"${filter.remote && html` checked`}> ${x.remoteOnly}</label><button type="submit">${x.filter}</button>${active && html`<a href="${clear}">${x.clearFilters}</a>`}</div></form>`;
}

/** One role in a list; `query` (e.g. the embed's) goes on its link. */
export function jobItem(job: AuthoredJob, lang: PageLang, query = ''): SafeHtml {
  const w = PAGE_WORDS[lang];
  const loc = job.location;
  const where = [loc?.city, loc?.country ? countryName(lang, loc.country) : undefined]
    .filter(Boolean)
    .join(', ');
  const pay = salaryText(job.salary, lang);
  const remote = loc?.remotePolicy && html`<span class="tag">${w.remote[loc.remotePolicy]}</span>`;
  const posted =
    job.postedAt && html` · <time datetime="${job.postedAt}">${formatDate(lang, job.postedAt)}</time>`;
  return html`<li class="job"><a href="${safeUrl(`${localPath(job.url, lang)}${query ? `?${query}` : ''}`)}"><strong>${job.title}</strong></a>${remote}<br>${job.company.name}${where && ` · ${where}`}${posted}${pay && html`<br><span class="pay">${pay}</span>`}</li>`;
}

/** The links to the previous and the next page of the list at `base`, and the head's rel=next. */
export function paging(
  base: string,
  lang: PageLang,
  query: string,
  cursor: string | null,
  nextCursor: string | null,
): { nav: SafeHtml | null; next: SafeHtml | null } {
  const w = PAGE_WORDS[lang];
  const nextHref = nextCursor && `${base}?${query ? `${query}&` : ''}cursor=${nextCursor}`;
  const previous =
    cursor && html`<a href="${base}${query ? `?${query}` : ''}">${LISTING_WORDS[lang].previous}</a>`;
  const next = nextHref && html`<a rel="next" href="${nextHref}">${w.next}</a>`;
  return {
    nav: previous || next ? html`<nav class="pages" aria-label="${w.next}">${previous}${next}</nav>` : null,
    next: nextHref ? html`<link rel="next" href="${nextHref}">` : null,
  };
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
      const items = page.jobs.map((job) => jobItem(job, lang));
      const filtered = query !== '';
      const pages = paging(`/${lang}/jobs`, lang, query, cursor, page.nextCursor);
      const results =
        items.length > 0
          ? html`<p class="muted" role="status">${x.results(page.jobs.length)}</p><ul class="joblist">${items}</ul>`
          : html`<p role="status">${filtered ? x.noResults : w.noJobs}</p>`;
      const body = html`${siteHeader(lang, w, (l) => `/${l}/jobs${query ? `?${query}` : ''}`)}<h1>${w.jobs}</h1>${filterForm(lang, filter)}${results}${pages.nav}`;
      const head = html`${FEED_STYLE}${pages.next}`;
      return sendPage(reply, 200, lang, w.jobs, body, { head, public: true });
    },
  );
};
