import fs from 'node:fs';
import type { Route } from '../types.ts';

/** The script inside the frame (a static file beside this module, read once at start-up). */
const FRAME_SCRIPT = fs.readFileSync(new URL('./embed-frame.js', import.meta.url), 'utf8');

/**
 * The script an employer pastes (`<script src="{base}/embed/{company}.js" data-lang="en"
 * data-category="engineering" data-accent="#0a7d5a" async>`): no dependencies, a few hundred
 * bytes. It inserts an iframe of the careers page in its compact layout where the tag stands (or
 * into `data-target`, an element id), sizes it to the height the frame reports, and takes only
 * messages from that frame's window and this service's origin, of the one known shape.
 */
function hostScript(base: string, company: string, title: string): string {
  return `(() => {
  const BASE = ${JSON.stringify(base)};
  const COMPANY = ${JSON.stringify(company)};
  const ORIGIN = new URL(BASE).origin;
  const script = document.currentScript;
  if (!script) return;
  const d = script.dataset;
  const lang = /^(en|es|fr|pt)$/.test(d.lang || '') ? d.lang : 'en';
  const params = new URLSearchParams({ embed: '1' });
  const accent = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.exec((d.accent || '').trim());
  if (accent) params.set('accent', accent[1]);
  else if (d.accent) console.warn('careers embed: data-accent must be a hex colour such as #0a7d5a');
  for (const name of ['category', 'q', 'place', 'remote']) if (d[name]) params.set(name, String(d[name]).slice(0, 100));
  const frame = document.createElement('iframe');
  frame.src = BASE + '/' + lang + '/jobs/' + encodeURIComponent(COMPANY) + '?' + params;
  frame.title = d.title || ${JSON.stringify(title)};
  frame.style.cssText = 'display:block;width:100%;height:480px;border:0;overflow:hidden';
  let pages = 0;
  window.addEventListener('message', (event) => {
    if (event.source !== frame.contentWindow || event.origin !== ORIGIN) return;
    const m = event.data;
    if (m === null || typeof m !== 'object') return;
    if (m.type === 'careers-embed:height') {
      const h = m.height;
      if (typeof h === 'number' && Number.isFinite(h) && h > 0 && h < 100000) frame.style.height = Math.ceil(h) + 'px';
    } else if (m.type === 'careers-embed:page') {
      pages += 1;
      if (pages > 1 && frame.getBoundingClientRect().top < 0) frame.scrollIntoView({ block: 'start' });
    }
  });
  const place = () => {
    const target = d.target ? document.getElementById(d.target) : null;
    if (target) target.appendChild(frame);
    else if (script.parentNode && script.parentNode !== document.head) script.after(frame);
    else document.body.appendChild(frame);
  };
  if (document.body || !d.target) place();
  else document.addEventListener('DOMContentLoaded', place);
})();
`;
}

/** GET /embed/{company}.js (the host page's script) and /assets/embed-frame.js (the frame's). */
export const embedScripts: Route = (app, { services: { publicJobs }, publicBaseUrl }) => {
  app.get('/assets/embed-frame.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(FRAME_SCRIPT),
  );
  app.get<{ Params: { file: string } }>(
    '/embed/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      const company = /^([a-z0-9-]{2,60})\.js$/.exec(request.params.file)?.[1];
      const account = company ? await publicJobs.company(company) : undefined;
      reply.type('text/javascript; charset=utf-8').header('cross-origin-resource-policy', 'cross-origin');
      if (!company || !account)
        return reply.code(404).header('cache-control', 'no-store').send('// No such company.\n');
      const name = account.company_name ?? account.name;
      return reply
        .header('cache-control', 'public, max-age=300')
        .send(hostScript(publicBaseUrl, company, `Jobs at ${name}`));
    },
  );
};
