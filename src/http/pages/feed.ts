import { Type } from 'typebox';
import { Text } from '../../contract/text.ts';
import { badRequest } from '../../domain/errors.ts';
import { escapeHtml as e } from '../../lib/html.ts';
import type { Route } from '../types.ts';
import { PAGE_WORDS, type PageLang, formatDate, pageLang } from './i18n.ts';
import { siteHeader } from './job-page.ts';
import { sendPage } from './page-shell.ts';

const PAGE_SIZE = 50;
const Query = Type.Object(
  {
    cursor: Type.Optional(Text({ maxLength: 200 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);

const localPath = (url: string | undefined, lang: PageLang) =>
  url ? new URL(url).pathname.replace(/^\/en\//, `/${lang}/`) : '#';

/** The job seeker feed: an HTML page per language and a JSON feed (the sitemap: sitemap.ts). */
export const jobFeed: Route = (app, { publicJobs }) => {
  app.get(
    '/:lang/jobs',
    {
      schema: {
        hide: true,
        params: Type.Object({ lang: Text({ maxLength: 5 }) }),
        // A page people share: tracking parameters (utm_…) are ignored, not refused.
        querystring: Type.Object({ cursor: Type.Optional(Text({ maxLength: 200 })) }),
      },
    },
    async (request, reply) => {
      const lang = pageLang(request.params.lang);
      // Not a page language (e.g. /v2/jobs): the same 404 as any unknown route.
      if (!lang) return reply.callNotFound();
      const w = PAGE_WORDS[lang];
      // An unreadable cursor (a mangled shared link) starts the list from the top.
      const page =
        (await publicJobs.feed(request.query.cursor ?? null, PAGE_SIZE)) ??
        (await publicJobs.feed(null, PAGE_SIZE))!;
      const items = page.jobs
        .map((job) => {
          const where = [job.location?.city, job.location?.country].filter(Boolean).join(', ');
          return `<li class="job"><a href="${e(localPath(job.url, lang))}"><strong>${e(job.title)}</strong></a><br>${e(job.company.name)}${where ? ` · ${e(where)}` : ''}${job.postedAt ? ` · <time datetime="${e(job.postedAt)}">${e(formatDate(lang, job.postedAt))}</time>` : ''}</li>`;
        })
        .join('');
      const body = [
        siteHeader(lang, w, (l) => `/${l}/jobs`),
        `<h1>${e(w.jobs)}</h1>`,
        items ? `<ul class="joblist">${items}</ul>` : `<p>${e(w.noJobs)}</p>`,
        page.nextCursor
          ? `<p><a rel="next" href="/${lang}/jobs?cursor=${e(page.nextCursor)}">${e(w.next)}</a></p>`
          : '',
      ].join('');
      return sendPage(reply, 200, lang, w.jobs, body, { public: true });
    },
  );

  app.get('/feed/jobs.json', { schema: { hide: true, querystring: Query } }, async (request, reply) => {
    const page = await publicJobs.feed(request.query.cursor ?? null, request.query.limit ?? PAGE_SIZE);
    if (page === null) throw badRequest('cursor is not a cursor this feed handed out.', { field: 'cursor' });
    reply.header('cache-control', 'public, max-age=60');
    return {
      jobs: page.jobs.map(
        ({
          id,
          title,
          company,
          location,
          employmentType,
          contractType,
          salary,
          postedAt,
          expiresAt,
          url,
          applyLink,
          category,
        }) => ({
          id,
          title,
          category,
          company,
          location,
          employmentType,
          contractType,
          salary,
          postedAt,
          expiresAt,
          url,
          applyLink,
        }),
      ),
      nextCursor: page.nextCursor,
    };
  });
};
