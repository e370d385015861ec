import { Type } from 'typebox';
import { Text } from '../../contract/text.ts';
import { notFound } from '../../domain/errors.ts';
import { html, safeUrl } from '../../lib/html.ts';
import type { Route } from '../types.ts';
import { EmbedQuery, embedHead, embedQuery, readEmbed } from './embed-mode.ts';
import { hostedErrorPage } from './error-page.ts';
import { FeedFilterQuery, filterQuery, readFeedFilter } from './feed-filter.ts';
import { FEED_STYLE, filterForm, jobItem, paging } from './feed-page.ts';
import { PAGE_LANGS, PAGE_WORDS, type PageLang, pageLang } from './i18n.ts';
import { siteHeader } from './job-page.ts';
import { LISTING_WORDS } from './listing-words.ts';
import { sendPage } from './page-shell.ts';

const PAGE_SIZE = 50;

const CAREERS_STYLE = html`<style>.company{display:flex;gap:1rem;align-items:center;flex-wrap:wrap;margin:.5rem 0}.company h1{margin:0}</style>`;

const Params = Type.Object({ lang: Text({ maxLength: 5 }), company: Text({ maxLength: 80 }) });

/**
 * One company's careers page, `/{lang}/jobs/{company}` (extensions.md §9): its live roles with its
 * logo and name, the feed's filters and paging, each role linking to its job page. Public and
 * indexable, cached like the feed (max-age 60); an unknown company is the 404 page, a retired
 * address moves (301) to the current one.
 */
export const careersPage: Route = (app, { services: { publicJobs }, publicBaseUrl }) => {
  app.get(
    '/:lang/jobs/:company',
    {
      schema: {
        hide: true,
        params: Params,
        querystring: Type.Object({
          cursor: Type.Optional(Text({ maxLength: 200 })),
          ...FeedFilterQuery,
          ...EmbedQuery,
        }),
      },
    },
    async (request, reply) => {
      const lang = pageLang(request.params.lang);
      if (!lang) return reply.callNotFound();
      const { company } = request.params;
      const filter = readFeedFilter(request.query);
      // Inside the embed every link keeps the mode (embed-mode.ts).
      const embed = readEmbed(request);
      const keep = embedQuery(embed);
      const query = [filterQuery(filter), keep].filter(Boolean).join('&');
      const found = await publicJobs.careers(company, request.query.cursor ?? null, PAGE_SIZE, filter);
      if (found.kind === 'missing') return hostedErrorPage(reply, lang, notFound('Company'));
      const base = (l: PageLang) => `/${l}/jobs/${found.kind === 'moved' ? found.companyAddress : company}`;
      if (found.kind === 'moved')
        return reply
          .code(301)
          .header('location', `${base(lang)}${query ? `?${query}` : ''}`)
          .send();
      const w = PAGE_WORDS[lang];
      const x = LISTING_WORDS[lang];
      const { account, jobs, nextCursor } = found;
      const name = account.company_name ?? account.name;
      const cursor = found.cursorRead ? (request.query.cursor ?? null) : null;
      const pages = paging(base(lang), lang, query, cursor, nextCursor);
      const logo = account.logo_url && html`<img class="logo" src="${safeUrl(account.logo_url)}" alt="">`;
      const results =
        jobs.length > 0
          ? html`<p class="muted" role="status">${x.results(jobs.length)}</p><ul class="joblist">${jobs.map((job) => jobItem(job, lang, keep))}</ul>`
          : html`<p role="status">${filterQuery(filter) ? x.noResults : x.noOpenings(name)}</p>`;
      const header = !embed && siteHeader(lang, w, (l) => `${base(l)}${query ? `?${query}` : ''}`);
      const body = html`${header}<div class="company">${logo}<h1>${x.jobsAt(name)}</h1></div>${filterForm(lang, filter, base(lang), keep)}${results}${pages.nav}`;
      const absolute = (l: PageLang) => `${publicBaseUrl}${base(l)}`;
      const head = html`${FEED_STYLE}${CAREERS_STYLE}${embedHead(embed)}${pages.next}<meta name="description" content="${x.jobsAt(name)}"><link rel="canonical" href="${safeUrl(absolute(lang))}">${PAGE_LANGS.map((l) => html`<link rel="alternate" hreflang="${l}" href="${safeUrl(absolute(l))}">`)}`;
      // Framed only by the account's own sites; the embedded copy is not indexed (canonical: the page).
      return sendPage(reply, 200, lang, x.jobsAt(name), body, {
        head,
        public: true,
        noindex: embed !== null,
        frameOrigins: account.embed_origins,
      });
    },
  );
};
