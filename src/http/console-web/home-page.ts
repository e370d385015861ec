import { can } from '../../domain/console-users/rights.ts';
import type { AccountSummary } from '../../domain/insights/insight-service.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import type { App } from '../types.ts';
import { homeOf, renderConsole } from './layout.ts';
import { sessionOf, takeFlash, type WebDeps } from './web.ts';
import { sourceWords } from './words.ts';

const STYLE = html`<style>ul.tiles{list-style:none;padding:0;margin:1rem 0;display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:.75rem}
ul.tiles li{background:#fff;border:1px solid #ddd;border-radius:8px;padding:.75rem 1rem}ul.tiles .big{display:block;font-size:1.75rem;font-weight:700;line-height:1.2}
.chart{background:#fff;border:1px solid #ddd;border-radius:8px;padding:1rem;margin:.5rem 0}.chart svg{display:block;width:100%;height:10rem}
.chart .scale,.chart .days{display:flex;justify-content:space-between;color:#555;font-size:.85rem}.chart rect.bar{fill:#1d4ed8}.chart line{stroke:#ccc}
details.figures{margin:.5rem 0 1rem}details.figures summary{cursor:pointer;padding:.35rem 0;color:#1d4ed8;text-decoration:underline}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(20rem,1fr));gap:0 2rem}.columns section{min-width:0}</style>`;

const DAY_LABEL = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const DAY_LONG = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const dayLabel = (day: string) => DAY_LABEL.format(new Date(`${day}T00:00:00Z`));
const dayLong = (day: string) => DAY_LONG.format(new Date(`${day}T00:00:00Z`));
const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;

/** The bar chart of applications per day, drawn on the server (no script), with its figures as a table. */
function perDayChart(summary: AccountSummary): SafeHtml {
  const days = summary.applicationsByDay;
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const most = days.reduce((best, d) => (d.count > best.count ? d : best), days[0]!);
  // A round top for the scale: 1, 2, 5, 10, 20, 50…
  const top = [1, 2, 5]
    .flatMap((m) => [1, 10, 100, 1000, 10_000, 100_000].map((p) => m * p))
    .sort((a, b) => a - b)
    .find((n) => n >= most.count)!;
  const width = 600;
  const height = 160;
  const slot = width / days.length;
  const bars = days.map((d, i) => {
    const h = d.count === 0 ? 0 : Math.max(2, Math.round((d.count / top) * height));
    return html`<rect class="bar" x="${(i * slot + 2).toFixed(1)}" y="${height - h}" width="${(slot - 4).toFixed(1)}" height="${h}" data-day="${d.day}" data-count="${d.count}"><title>${dayLong(d.day)}: ${plural(d.count, 'application', 'applications')}</title></rect>`;
  });
  const summaryText =
    total === 0
      ? 'No applications in the last 30 days.'
      : `${plural(total, 'application', 'applications')} in the last 30 days; the most on ${dayLong(most.day)}: ${most.count}.`;
  const rows = days.map(
    (d) =>
      html`<tr><th scope="row"><time datetime="${d.day}">${dayLong(d.day)}</time></th><td class="n">${d.count.toLocaleString('en-GB')}</td></tr>`,
  );
  return html`<div class="chart"><div class="scale" aria-hidden="true"><span>Bars from 0 to ${top} a day; the line is ${top / 2}</span><span>${plural(total, 'application', 'applications')}</span></div>
<svg id="per-day-chart" viewBox="0 0 ${width} ${height + 1}" role="img" aria-labelledby="per-day-title per-day-desc" preserveAspectRatio="none"><title id="per-day-title">Applications per day, last 30 days</title><desc id="per-day-desc">${summaryText}</desc>
<line x1="0" y1="${height / 2}" x2="${width}" y2="${height / 2}" vector-effect="non-scaling-stroke"/><line x1="0" y1="${height + 0.5}" x2="${width}" y2="${height + 0.5}" vector-effect="non-scaling-stroke"/>${bars}</svg>
<div class="days" aria-hidden="true"><span>${dayLabel(summary.from)}</span><span>${dayLabel(days[15]!.day)}</span><span>${dayLabel(summary.to)}</span></div></div>
<details class="figures"><summary>Show the figures as a table</summary><div class="scroll"><table id="per-day-table"><caption>Applications per day, ${dayLong(summary.from)} to ${dayLong(summary.to)}</caption><thead><tr><th scope="col">Day</th><th scope="col" class="n">Applications</th></tr></thead><tbody>${rows}</tbody></table></div></details>`;
}

function bySource(summary: AccountSummary): SafeHtml {
  const list = summary.applicationsBySource;
  if (list.length === 0) return html`<p>No applications in the last 30 days.</p>`;
  const total = list.reduce((sum, s) => sum + s.count, 0);
  const rows = list.map(
    (s) =>
      html`<tr><th scope="row">${sourceWords(s.source)}</th><td class="n">${s.count.toLocaleString('en-GB')}</td><td class="n">${Math.round((s.count / total) * 100)}%</td></tr>`,
  );
  return html`<table id="by-source"><caption class="hp">Applications by source, last 30 days</caption><thead><tr><th scope="col">Source</th><th scope="col" class="n">Applications</th><th scope="col" class="n">Share</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function funnel(summary: AccountSummary): SafeHtml {
  const f = summary.funnel;
  const steps: [string, number][] = [
    ['Job page views', f.jobPageViews],
    ['Apply page views', f.applyPageViews],
    ['Applications', f.applications],
    ['CVs claimed by candidates', f.cvsClaimed],
    ['Screenings', f.screenings],
  ];
  const rows = steps.map(([label, n], i) => {
    const before = i === 0 ? null : steps[i - 1]![1];
    const rate = before === null ? '' : before === 0 ? '—' : `${Math.round((n / before) * 100)}%`;
    return html`<tr><th scope="row">${label}</th><td class="n">${n.toLocaleString('en-GB')}</td><td class="n">${rate}</td></tr>`;
  });
  return html`<table id="funnel"><caption class="hp">From job page to screening, last 30 days</caption><thead><tr><th scope="col">Step</th><th scope="col" class="n">Count</th><th scope="col" class="n">Of the step before</th></tr></thead><tbody>${rows}</tbody></table>
<p class="hint">Page views are counted per job and day, without cookies and without anything about the visitor; robots that say so are not counted.</p>`;
}

export function homeBody(summary: AccountSummary): SafeHtml {
  const applications = summary.applicationsByDay.reduce((sum, d) => sum + d.count, 0);
  const today = summary.applicationsByDay.at(-1)!.count;
  return html`<p class="muted">Your account over the last 30 days, ${dayLong(summary.from)} to ${dayLong(summary.to)} (UTC).</p>
<ul class="tiles"><li><span class="big" id="open-jobs">${summary.openJobs.toLocaleString('en-GB')}</span><a href="/console/jobs">${summary.openJobs === 1 ? 'Open job' : 'Open jobs'}</a> · <a href="/console/jobs/new">Create a job</a></li><li><span class="big" id="applications-30">${applications.toLocaleString('en-GB')}</span>Applications in 30 days</li><li><span class="big">${today.toLocaleString('en-GB')}</span>Applications today</li><li><span class="big">${summary.funnel.jobPageViews.toLocaleString('en-GB')}</span>Job page views</li></ul>
<section aria-labelledby="per-day-h"><h2 id="per-day-h">Applications per day</h2>${perDayChart(summary)}</section>
<div class="columns"><section aria-labelledby="source-h"><h2 id="source-h">Applications by source</h2>${bySource(summary)}</section>
<section aria-labelledby="funnel-h"><h2 id="funnel-h">From job page to screening</h2>${funnel(summary)}</section></div>`;
}

/**
 * GET /console: Home for a role that works with jobs (the account at a glance, extensions.md §4);
 * any other role is sent to the first page it may open, and a signed-out person to sign in.
 */
export function registerHomePage(app: App, deps: WebDeps): void {
  app.get('/console', { schema: { hide: true } }, async (request, reply) => {
    const session = await sessionOf(request, deps);
    if (session === null) return reply.redirect('/console/login', 303);
    if (!can(session.role, 'jobs')) return reply.redirect(homeOf(session), 303);
    const summary = await deps.services.insights.summary(session.accountId);
    return renderConsole(reply, session, {
      title: 'Home',
      active: 'home',
      flash: takeFlash(request, reply, deps),
      head: STYLE,
      body: homeBody(summary),
    });
  });
}
