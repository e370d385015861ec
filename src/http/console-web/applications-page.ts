import { html } from '../../lib/html.ts';
import { renderVirtualCv } from '../pages/virtual-cv-view.ts';
import type { App } from '../types.ts';
import { renderConsole, when } from './layout.ts';
import { getPage, type WebDeps } from './web.ts';

type Json = Record<string, unknown>;

/** The virtual CV's headings in the console (English), also the Matches' CV page's. */
export const CV_WORDS = {
  experience: 'Experience',
  education: 'Education',
  skills: 'Skills',
  languages: 'Languages',
  present: 'present',
  contact: 'Contact details',
  email: 'Email',
  phone: 'Phone',
  location: 'Location',
  links: 'Links',
  empty: 'No virtual CV yet: it is built from the PDF shortly after the application arrives.',
} as unknown as Parameters<typeof renderVirtualCv>[1];

/** The virtual CV under this page's h3: its own headings one level down. */
const cvSection = (document: Json | null) => renderVirtualCv(document, CV_WORDS, 'en', { level: 4 });

const text = (value: unknown): string => (value === null || value === undefined ? '—' : String(value));

/** A job's applications (recruiters and admins): candidate, answers, consent receipt and words, virtual CV. */
export function registerApplicationsPage(app: App, deps: WebDeps): void {
  jobsApplicationsPage(app, deps);
}

function jobsApplicationsPage(app: App, deps: WebDeps): void {
  const { applications, jobs, cv } = deps.services;
  getPage(
    app,
    deps,
    '/console/jobs/:jobId/applications',
    'jobs',
    async ({ request, reply, session, flash }) => {
      const { jobId } = request.params as { jobId: string };
      const list = await applications.listForJob(session.accountId, jobId);
      const job = (await jobs.listForConsole(session.accountId)).find((j) => j.id === jobId);
      const cards = await Promise.all(
        list.map(async (a, index) => {
          const document = await cv.virtualCvFor(session.accountId, 'application', a.applicationId);
          const answers = (a.answers as { question: string; answer: string }[]).map(
            (qa) => html`<dt>${qa.question}</dt><dd>${qa.answer}</dd>`,
          );
          const consent = (a.consent ?? {}) as Json;
          const location =
            a.location && typeof a.location === 'object'
              ? Object.values(a.location as Json)
                  .filter(Boolean)
                  .join(', ')
              : a.location;
          const invite =
            job?.managed &&
            html` · <a href="/console/screening?job=${jobId}&amp;candidate=${a.applicationId}">Invite to screening<span class="hp"> ${text(a.name)}</span></a>`;
          return html`<article class="card" aria-labelledby="app-${index}"><h2 id="app-${index}">${text(a.name)}</h2>
<dl class="facts"><dt>Application id</dt><dd><code>${a.applicationId}</code>${invite}</dd><dt>Email</dt><dd>${text(a.email)}</dd><dt>Phone</dt><dd>${text(a.phone)}</dd><dt>Location</dt><dd>${text(location)}</dd><dt>Applied</dt><dd>${when(a.createdAt)}</dd><dt>Status</dt><dd>${text(a.status)}</dd><dt>cvStatus</dt><dd>${text(a.cvStatus)}</dd><dt>Source</dt><dd>${text(a.source)}</dd></dl>
<h3>Cover note</h3><p>${a.coverNote || html`<span class="muted">None</span>`}</p>
<h3>Answers</h3>${answers.length > 0 ? html`<dl class="facts">${answers}</dl>` : html`<p class="muted">No questions answered.</p>`}
<h3>Consent receipt</h3><dl class="facts"><dt>Consent text</dt><dd>${text(consent.consentTextId)}, version ${text(consent.version)} (${text(consent.locale ?? a.consentText.locale)})</dd><dt>Accepted at</dt><dd>${text(consent.acceptedAt)}</dd><dt>IP address</dt><dd>${text(consent.ip)}</dd><dt>Browser</dt><dd>${text(consent.userAgent)}</dd></dl>
<p>The words the candidate agreed to:</p><blockquote class="consent">${text(a.consentText.text)}</blockquote>
<h3>Virtual CV</h3>${a.cvStatus === 'deleted' ? html`<p class="muted">The candidate deleted the CV.</p>` : cvSection(document as Json | null)}</article>`;
        }),
      );
      const body = html`<p><a href="/console/jobs/${jobId}">Back to the job</a></p>${
        cards.length
          ? cards
          : html`<p>No applications yet — they appear here as soon as candidates apply.</p>`
      }`;
      return renderConsole(reply, session, {
        title: `Applications: ${job?.title ?? 'job'}`,
        active: 'jobs',
        flash,
        body,
      });
    },
  );
}
