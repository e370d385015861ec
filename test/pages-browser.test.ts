import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, test } from 'node:test';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { ManualClock } from '../src/lib/clock.ts';
import { XSS_PAYLOADS } from './pages-xss-payloads.ts';
import { client, consoleCall, intakeAccount, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { ARTIFACTS, NO_CHROMIUM, submitApplyForm, useBrowser } from './support/browser.ts';
import { createDraft, createPublished } from './support/jobs.ts';
import { drainAll } from './support/mail.ts';

// The DOM, as far as the page functions below use it (tsconfig has no DOM lib; they run in Chromium).
interface DomElement {
  id: string;
  tagName: string;
  textContent: string | null;
  innerHTML: string;
  attributes: ArrayLike<{ name: string; value: string }>;
  previousElementSibling: DomElement | null;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}
declare const document: {
  activeElement: DomElement | null;
  documentElement: { scrollWidth: number; clientWidth: number };
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  scripts: ArrayLike<DomElement & { type: string; src: string }>;
};
declare const navigator: { userAgent: string };
declare const window: { innerWidth: number; getComputedStyle(el: DomElement): { outlineStyle: string } };

if (NO_CHROMIUM)
  console.warn(`# ${NO_CHROMIUM}: browser tests skipped (CI's .ci/run installs it with apt-get)`);

const CV_PDF = path.resolve(import.meta.dirname, 'fixtures', 'pdf', 'cv-2-pages.pdf');
const SCAN_PDF = path.resolve(import.meta.dirname, 'fixtures', 'pdf', 'scan-image-only.pdf');
const PNG_PDF = path.resolve(import.meta.dirname, 'fixtures', 'pdf', 'png-renamed.pdf');
const T0 = '2026-03-15T09:00:00.000Z';
const CLOSERS =
  '</style></script></textarea></noscript></template></iframe></object></frameset></mglyph></table></mtext></svg></math></marquee></details></video></form>';
const LOGO = 'https://logo.example/acme.svg';
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="48" viewBox="0 0 160 48"><rect width="160" height="48" rx="8" fill="#0b5fff"/><text x="80" y="31" font-family="sans-serif" font-size="20" fill="#fff" text-anchor="middle">ACME</text></svg>';

type Lang = 'en' | 'es' | 'fr' | 'pt';
const WORDS: Record<
  Lang,
  {
    apply: string;
    name: string;
    email: string;
    phone: string;
    where: string;
    cv: string;
    note: string;
    submit: string;
    thanks: string;
    posted: string;
  }
> = {
  en: {
    apply: 'Apply now',
    name: 'Full name',
    email: 'Email',
    phone: 'Phone',
    where: 'Where you live',
    cv: 'Your CV (PDF)',
    note: 'Cover note',
    submit: 'I agree — send my application',
    thanks: 'Application sent',
    posted: 'March 15, 2026',
  },
  es: {
    apply: 'Postularme',
    name: 'Nombre completo',
    email: 'Correo electrónico',
    phone: 'Teléfono',
    where: 'Dónde vives',
    cv: 'Tu CV (PDF)',
    note: 'Carta de presentación',
    submit: 'Acepto: enviar mi candidatura',
    thanks: 'Candidatura enviada',
    posted: '15 de marzo de 2026',
  },
  fr: {
    apply: 'Postuler',
    name: 'Nom complet',
    email: 'E-mail',
    phone: 'Téléphone',
    where: 'Où vous habitez',
    cv: 'Votre CV (PDF)',
    note: 'Lettre de motivation',
    submit: "J'accepte — envoyer ma candidature",
    thanks: 'Candidature envoyée',
    posted: '15 mars 2026',
  },
  pt: {
    apply: 'Candidatar-me',
    name: 'Nome completo',
    email: 'E-mail',
    phone: 'Telefone',
    where: 'Onde vive',
    cv: 'O seu CV (PDF)',
    note: 'Carta de apresentação',
    submit: 'Aceito — enviar a minha candidatura',
    thanks: 'Candidatura enviada',
    posted: '15 de março de 2026',
  },
};

/** The upload row behind an application's CV. */
async function uploadOf(applicationId: string) {
  const { db } = ctx.handle;
  const row = await db
    .selectFrom('applications')
    .select('blob_key')
    .where('id', '=', applicationId)
    .executeTakeFirstOrThrow();
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('id', '=', String(row.blob_key))
    .executeTakeFirstOrThrow();
}

/** Sends the apply form with its submit button (in `lang`) and answers the page the POST loads. */
function submitByButton(page: Page, jobId: string, lang: Lang): Promise<Response> {
  return submitApplyForm(page, jobId, () => page.getByRole('button', { name: WORDS[lang].submit }).click());
}

const AD = {
  title: 'Platform Engineer',
  category: 'engineering',
  description:
    '<h1>About the team</h1><p>We run the <strong>careers platform</strong> for thousands of employers.</p><ul><li>Small team</li><li>Real ownership</li></ul><p>Read more at <a href="https://example.com/engineering/blog/a-very-long-path-that-should-wrap-on-a-phone-screen-without-overflowing">our blog</a>.</p>',
  responsibilities: ['Run PostgreSQL in production', 'Keep the apply page fast'],
  skills: [
    { name: 'TypeScript', level: 'required' },
    { name: 'PostgreSQL', level: 'required' },
    { name: 'Kubernetes', level: 'nice_to_have' },
  ],
  benefits: ['Remote-first', 'Learning budget'],
  employmentType: 'full_time',
  contractType: 'permanent',
  salary: { min: 70000, max: 90000, currency: 'EUR', period: 'year' },
  location: { city: 'Lisbon', country: 'PT', remotePolicy: 'hybrid', onsiteDays: '2 days' },
  seniority: 'Senior',
  yearsExperience: '5+',
  workStyle: 'Async-first, core hours 10–15',
};

// The burst challenge has tests of its own (apply-hostile.test.ts, apply-screens.test.ts).
const ctx = useTestApp(
  {
    listen: true,
    clock: new ManualClock(T0),
    applyPage: { burstPerAddress: 1000, burstPerJob: 1000 },
  },
  async () => {
    intake = await intakeAccount(ctx.app, { companyName: 'Acme Browser Ltd' });
    const logo = await consoleCall(ctx.app, 'PATCH', `/accounts/${intake.account.id}`, { logoUrl: LOGO });
    assert.equal(logo.statusCode, 200, logo.body);
  },
);
// Closing the browser closes the contexts opened in it.
const browser = useBrowser(['--disable-quic', '--disable-sync']);
let intake: Awaited<ReturnType<typeof intakeAccount>>;

// Each test starts a new minute of the app's clock: the per-address limit counts every POST of
// 127.0.0.1, and this file's browser sends them all from there.
beforeEach(() => {
  ctx.clock.advance(61_000);
});

// ---- Browser helpers ----

/**
 * A fresh browser context: the logo is served locally, an attacker site can be mounted with
 * `attacker`, and nothing else leaves this machine.
 */
async function newContext(
  options: {
    javaScriptEnabled?: boolean;
    viewport?: { width: number; height: number };
    attacker?: string;
  } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: options.viewport ?? { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(20_000);
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith(ctx.baseUrl)) return route.continue();
    if (url === LOGO) return route.fulfill({ status: 200, contentType: 'image/svg+xml', body: LOGO_SVG });
    if (options.attacker && url.startsWith('http://attacker.test/')) {
      return route.fulfill({ status: 200, contentType: 'text/html', body: options.attacker });
    }
    return route.abort();
  });
  return { context, page: await context.newPage() };
}

/** The security headers every HTML page carries. */
async function assertPageHeaders(response: Response | null, label: string): Promise<void> {
  assert.ok(response, `${label}: a response`);
  const headers = await response.allHeaders();
  const csp = headers['content-security-policy'] ?? '';
  assert.match(csp, /(^|;\s*)default-src 'none'(;|$)/, `${label}: CSP default-src in ${csp}`);
  assert.match(csp, /(^|;\s*)script-src 'self'(;|$)/, `${label}: CSP script-src`);
  assert.match(csp, /(^|;\s*)frame-ancestors 'none'(;|$)/, `${label}: CSP frame-ancestors`);
  assert.equal(headers['x-frame-options'], 'DENY', `${label}: X-Frame-Options`);
  assert.equal(headers['x-content-type-options'], 'nosniff', `${label}: nosniff`);
  assert.equal(headers['content-type'], 'text/html; charset=utf-8', `${label}: content-type`);
}

async function htmlLang(page: Page): Promise<string | null> {
  return page.locator('html').getAttribute('lang');
}

async function fillForm(
  page: Page,
  lang: Lang,
  fields: { name: string; email: string; phone?: string; where?: string; note?: string; cv?: string | null },
) {
  const w = WORDS[lang];
  await page.getByLabel(w.name).fill(fields.name);
  await page.getByLabel(w.email, { exact: true }).fill(fields.email);
  if (fields.phone !== undefined) await page.getByLabel(w.phone).fill(fields.phone);
  if (fields.where !== undefined) await page.getByLabel(w.where).fill(fields.where);
  if (fields.note !== undefined) await page.getByLabel(w.note).fill(fields.note);
  if (fields.cv !== null) await page.getByLabel(w.cv).setInputFiles(fields.cv ?? CV_PDF);
}

async function heading(page: Page): Promise<string> {
  return (await page.locator('h1').first().textContent())?.trim() ?? '';
}

async function applicationsOf(jobId: string) {
  const res = await consoleCall(ctx.app, 'GET', `/accounts/${intake.account.id}/jobs/${jobId}/applications`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().applications as Record<string, unknown>[];
}

function email(): string {
  return `${unique('browser').toLowerCase()}@example.com`;
}

async function publish(overrides: Record<string, unknown> = {}, body: Record<string, unknown> = {}) {
  return createPublished(intake.api, { ...AD, ...overrides }, body);
}

/** No element may fail this: nothing executable and nothing that can run on an event. */
function findExecutable(): string[] {
  const found: string[] = [];
  const all = document.querySelectorAll('*');
  for (let i = 0; i < all.length; i++) {
    const el = all[i]!;
    for (let j = 0; j < el.attributes.length; j++) {
      const { name, value } = el.attributes[j]!;
      // Browsers ignore whitespace and control characters in a URL's scheme.
      const v = Array.from(value)
        .filter((c) => c.charCodeAt(0) > 0x20)
        .join('')
        .toLowerCase();
      if (name.toLowerCase().startsWith('on')) found.push(`${el.tagName} ${name}`);
      if (
        ['href', 'src', 'action', 'formaction', 'data', 'srcdoc', 'xlink:href'].includes(name.toLowerCase())
      ) {
        if (/^(javascript|vbscript|data):/.test(v) || name === 'srcdoc')
          found.push(`${el.tagName} ${name}=${value}`);
      }
    }
  }
  const dangerous = document.querySelectorAll(
    'main iframe, main frame, main object, main embed, main svg, main math, main style, main link, main template, main noscript, main form, main input, main textarea, main button, main video, main meta, base, meta[http-equiv]',
  );
  for (let i = 0; i < dangerous.length; i++) found.push(`element ${dangerous[i]!.tagName}`);
  return found;
}

// =====================================================================================

describe('hosted pages in Chromium', { skip: NO_CHROMIUM }, () => {
  test('job page → JSON-LD → apply button → form filled by label → real PDF via the presigned upload → console shows the receipt', async () => {
    const job = await publish({}, { expiryDays: 60 });
    const { page } = await newContext();
    const response = await page.goto(job.url!);
    assert.equal(response?.status(), 200);
    await assertPageHeaders(response, 'job page');
    assert.equal(await htmlLang(page), 'en');
    assert.equal(await heading(page), 'Platform Engineer');
    assert.ok(
      await page
        .locator('img.logo')
        .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth > 0),
      'the logo loaded (img-src allows it)',
    );

    // The JSON-LD as Google for Jobs reads it.
    const blocks = page.locator('script[type="application/ld+json"]');
    assert.equal(await blocks.count(), 1);
    const ld = JSON.parse((await blocks.textContent()) ?? '');
    assert.equal(ld['@context'], 'https://schema.org/');
    assert.equal(ld['@type'], 'JobPosting');
    assert.equal(ld.title, 'Platform Engineer');
    assert.match(ld.description, /^<h2>About the team<\/h2><p>We run the <strong>careers platform<\/strong>/);
    assert.equal(ld.datePosted, job.postedAt);
    assert.equal(ld.validThrough, job.expiresAt);
    assert.ok(Date.parse(ld.validThrough) - Date.parse(ld.datePosted) === 60 * 86_400_000);
    assert.deepEqual(ld.employmentType, ['FULL_TIME']);
    assert.deepEqual(ld.hiringOrganization, {
      '@type': 'Organization',
      name: 'Acme Browser Ltd',
      logo: LOGO,
    });
    assert.deepEqual(ld.jobLocation, {
      '@type': 'Place',
      address: { '@type': 'PostalAddress', addressLocality: 'Lisbon', addressCountry: 'PT' },
    });
    assert.deepEqual(ld.baseSalary, {
      '@type': 'MonetaryAmount',
      currency: 'EUR',
      value: { '@type': 'QuantitativeValue', minValue: 70000, maxValue: 90000, unitText: 'YEAR' },
    });
    assert.deepEqual(ld.identifier, { '@type': 'PropertyValue', name: 'Acme Browser Ltd', value: job.id });

    // Apply: the button leads to applyLink, marked as coming from the job page.
    const [applyResponse] = await Promise.all([
      page.waitForResponse(
        (r) => new URL(r.url()).pathname === `/apply/${job.id}` && r.request().method() === 'GET',
      ),
      page.getByRole('link', { name: 'Apply now' }).first().click(),
    ]);
    await page.waitForURL(`${job.applyLink}?lang=en&via=job_page`);
    await assertPageHeaders(applyResponse, 'apply page');
    assert.equal(await heading(page), 'Apply for Platform Engineer at Acme Browser Ltd');
    const consentText = (await intake.api.get('/v1/consent-text?locale=en')).json().text;
    assert.equal(
      (await page.locator('.consent p').textContent())?.trim(),
      consentText,
      'consent text shown as the API gives it',
    );

    const requests: string[] = [];
    page.on('request', (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`));
    const address = email();
    await fillForm(page, 'en', {
      name: 'Amaia Etxeberria',
      email: address,
      phone: '+351 912 345 678',
      where: 'Porto, PT',
      note: 'Keen on PostgreSQL.',
    });
    const result = await submitByButton(page, job.id, 'en');
    assert.equal(result.status(), 201);
    await assertPageHeaders(result, 'thanks page');
    assert.equal(await heading(page), 'Application sent');
    assert.ok((await page.locator('main').textContent())?.includes(address));

    // The enhanced path: a slot, the PUT of the PDF, then a form post without the file.
    assert.ok(requests.includes(`POST /apply/${job.id}/upload`), requests.join('\n'));
    assert.ok(
      requests.some((r) => r.startsWith('PUT /uploads/')),
      requests.join('\n'),
    );
    const finalBody = result.request().postDataBuffer();
    assert.ok(finalBody, 'the form post has a body');
    assert.match(finalBody.toString('latin1'), /name="uploadId"\r\n\r\nupl_/);
    assert.doesNotMatch(
      finalBody.toString('latin1'),
      /name="cv"/,
      'the PDF went to the upload, not again in the form post',
    );

    const userAgent = await page.evaluate(() => navigator.userAgent);
    const [app, ...more] = await applicationsOf(job.id);
    assert.equal(more.length, 0);
    assert.ok(app);
    assert.equal(app.name, 'Amaia Etxeberria');
    assert.equal(app.email, address);
    assert.equal(app.phone, '+351 912 345 678');
    assert.equal(app.location, 'Porto, PT');
    assert.equal(app.coverNote, 'Keen on PostgreSQL.');
    assert.equal(app.source, 'job_page');
    assert.deepEqual(app.consent, {
      consentTextId: 'console_api_apply',
      version: 'api_apply_v1',
      locale: 'en',
      acceptedAt: ctx.clock.now().toISOString(),
      ip: '127.0.0.1',
      userAgent,
    });
    assert.equal((app.consentText as { text: string }).text, consentText);

    // The uploaded file is the real PDF, sent by the PUT: the worker builds the virtual CV from it.
    const upload = await uploadOf(String(app.applicationId));
    assert.equal(upload.bytes, fs.statSync(CV_PDF).size);
    assert.equal(upload.file_name, null, 'a presigned slot, not the form post');
    assert.ok(requests.includes(`PUT /uploads/${upload.id}`), 'the browser PUT this very upload');
    await drainAll(ctx.worker);
    const key = await client(ctx.app, intake.key.secret).get(`/v1/applications/${app.applicationId}`);
    assert.equal(key.statusCode, 200, key.body);
    assert.equal(key.json().cvStatus, 'staged', key.body);
  });

  test('applyLink opened directly, in French: source integrator_site, receipt locale fr', async () => {
    const job = await publish({ title: 'Ingénieur·e logiciel' });
    const { page } = await newContext();
    const response = await page.goto(`${job.applyLink}?lang=fr`);
    assert.equal(response?.status(), 200);
    assert.equal(await htmlLang(page), 'fr');
    const address = email();
    await fillForm(page, 'fr', { name: 'Léa Dubois', email: address });
    const result = await submitByButton(page, job.id, 'fr');
    assert.equal(result.status(), 201);
    assert.equal(await heading(page), 'Candidature envoyée');
    const [app] = await applicationsOf(job.id);
    assert.ok(app, 'the application is stored');
    assert.equal(app.source, 'integrator_site');
    assert.equal((app.consent as { locale: string }).locale, 'fr');
    assert.equal((app.consentText as { locale: string }).locale, 'fr');
  });

  test('JavaScript disabled: the Spanish job page and the plain multipart form', async () => {
    const job = await publish({ title: 'Analista de datos' });
    const { page } = await newContext({ javaScriptEnabled: false });
    const response = await page.goto(job.url!.replace('/en/jobs/', '/es/jobs/'));
    assert.equal(response?.status(), 200);
    assert.equal(await htmlLang(page), 'es');
    await page.getByRole('link', { name: 'Postularme' }).first().click();
    await page.waitForURL(`${job.applyLink}?lang=es&via=job_page`);
    assert.equal(await htmlLang(page), 'es');

    const requests: string[] = [];
    page.on('request', (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`));
    await fillForm(page, 'es', { name: 'Lucía Fernández', email: email(), note: 'Hola.' });
    const result = await submitByButton(page, job.id, 'es');
    assert.equal(result.status(), 201);
    assert.equal(await heading(page), 'Candidatura enviada');
    assert.ok(!requests.some((r) => r.includes('/upload')), `no JavaScript upload: ${requests.join(', ')}`);
    assert.match(result.request().headers()['content-type'] ?? '', /^multipart\/form-data; boundary=/);
    const [app] = await applicationsOf(job.id);
    assert.ok(app, 'the application is stored');
    assert.equal(app.source, 'job_page');
    assert.equal((app.consent as { locale: string }).locale, 'es');
    // The file came in the form post, and the worker builds the CV from it. The browser's file name
    // it came with is erased once the application used the upload (issue 25: erasure leaves no
    // trace; test/erasure-traces.test.ts).
    const upload = await uploadOf(String(app?.applicationId));
    assert.equal(upload.file_name, null);
    assert.equal(upload.bytes, fs.statSync(CV_PDF).size);
    await drainAll(ctx.worker);
    const status = await client(ctx.app, intake.key.secret).get(`/v1/applications/${app?.applicationId}`);
    assert.equal(status.json().cvStatus, 'staged', status.body);
  });

  test('validation errors appear next to their field; corrected, the form goes through', async () => {
    const job = await publish({ title: 'QA Engineer' });
    const { page } = await newContext();
    await page.goto(job.applyLink);
    await fillForm(page, 'en', { name: '', email: 'someone@', phone: '+44 20 7946 0018' });
    const result = await submitByButton(page, job.id, 'en');
    assert.equal(result.status(), 400);
    await assertPageHeaders(result, 'validation page');
    assert.ok(await page.getByRole('alert').first().isVisible());
    for (const [id, message] of [
      ['name', 'This field is required.'],
      ['email', 'Enter an email address like name@example.com.'],
    ] as const) {
      const input = page.locator(`#${id}`);
      assert.equal(await input.getAttribute('aria-invalid'), 'true', id);
      assert.equal(await input.getAttribute('aria-describedby'), `${id}-error`, id);
      const error = page.locator(`#${id}-error`);
      assert.ok(await error.isVisible(), `${id}: error visible`);
      assert.equal(await error.textContent(), message);
      assert.equal(
        await input.evaluate((el) => (el as unknown as DomElement).previousElementSibling?.id),
        `${id}-error`,
        `${id}: error right above the field`,
      );
      const [inputBox, errorBox] = [await input.boundingBox(), await error.boundingBox()];
      assert.ok(
        inputBox && errorBox && inputBox.y - (errorBox.y + errorBox.height) < 40,
        `${id}: error close to the field`,
      );
    }
    assert.equal(await page.getByLabel('Email', { exact: true }).inputValue(), 'someone@', 'value kept');
    assert.equal(await page.getByLabel('Phone').inputValue(), '+44 20 7946 0018', 'value kept');
    assert.equal(await page.locator('#phone').getAttribute('aria-invalid'), null);
    assert.equal((await applicationsOf(job.id)).length, 0);

    await fillForm(page, 'en', { name: 'Tomás Ruiz', email: email() });
    const fixed = await submitByButton(page, job.id, 'en');
    assert.equal(fixed.status(), 201);
    assert.equal((await applicationsOf(job.id)).length, 1);
  });

  test('a refused CV: cv_rejected detail and fix next to the CV field, in the page language (with and without JavaScript)', async () => {
    const job = await publish({ title: 'Technical Writer' });
    const cases = [
      {
        js: true,
        lang: 'fr' as const,
        file: SCAN_PDF,
        words: ['Votre PDF semble être un scan ou une photo', 'Exportez votre CV en PDF directement'],
      },
      {
        js: false,
        lang: 'pt' as const,
        file: PNG_PDF,
        words: ['Este arquivo não é um PDF', 'Salve ou exporte seu currículo em PDF'],
      },
    ];
    for (const c of cases) {
      const { page } = await newContext({ javaScriptEnabled: c.js });
      await page.goto(`${job.applyLink}?lang=${c.lang}`);
      await fillForm(page, c.lang, { name: 'Rui Costa', email: email(), cv: c.file });
      const result = await submitByButton(page, job.id, c.lang);
      assert.equal(result.status(), 422, `${c.lang}`);
      assert.equal(await htmlLang(page), c.lang);
      const error = page.locator('#cv-error');
      assert.ok(await error.isVisible(), 'the CV error is shown');
      const text = (await error.textContent()) ?? '';
      for (const w of c.words)
        assert.ok(text.includes(w), `${c.lang}: ${JSON.stringify(w)} in ${JSON.stringify(text)}`);
      const cv = page.getByLabel(WORDS[c.lang].cv);
      assert.match((await cv.getAttribute('aria-describedby')) ?? '', /\bcv-error\b/);
      assert.equal(await cv.getAttribute('aria-invalid'), 'true');
      assert.equal(
        await cv.evaluate((el) => (el as unknown as DomElement).previousElementSibling?.id),
        'cv-error',
      );
    }
    assert.equal((await applicationsOf(job.id)).length, 0, 'nothing stored');
  });

  test('applying twice with one address shows the page a first application gets; one application', async () => {
    const job = await publish({ title: 'Data Steward' });
    const address = email();
    const { page } = await newContext();
    await page.goto(job.url!);
    await page.getByRole('link', { name: 'Apply now' }).first().click();
    await fillForm(page, 'en', { name: 'Noor Haddad', email: address });
    assert.equal((await submitByButton(page, job.id, 'en')).status(), 201);

    await page.goto(job.applyLink);
    await fillForm(page, 'en', { name: 'Noor H.', email: address.toUpperCase() });
    const again = await submitByButton(page, job.id, 'en');
    assert.equal(again.status(), 201);
    assert.equal(await heading(page), 'Application sent');
    const apps = await applicationsOf(job.id);
    assert.equal(apps.length, 1);
    assert.equal(apps[0]?.name, 'Noor Haddad');
  });

  test('a filled honeypot shows the thank-you page and stores nothing; people never see the field', async () => {
    const job = await publish({ title: 'Honeypot Role' });
    const { page } = await newContext({ javaScriptEnabled: false });
    await page.goto(job.applyLink);
    const trap = page.locator('#website');
    const box = await trap.boundingBox();
    assert.ok(box === null || box.x + box.width <= 0, `the trap is off screen: ${JSON.stringify(box)}`);
    assert.equal(await trap.getAttribute('tabindex'), '-1');
    assert.equal(
      await page.getByLabel('Leave this field empty').count(),
      1,
      'labelled for screen readers that ignore aria-hidden',
    );
    await fillForm(page, 'en', { name: 'Spam Bot', email: email() });
    await trap.fill('https://spam.example/', { force: true });
    const result = await submitByButton(page, job.id, 'en');
    assert.equal(result.status(), 201);
    assert.equal(await heading(page), 'Application sent');
    assert.equal((await applicationsOf(job.id)).length, 0);
  });

  test('CSRF: a form posted from another site gets the 403 page (SameSite cookie not sent); so does one whose cookie is gone', async () => {
    const job = await publish({ title: 'CSRF Target' });
    const victim = email();
    // The attacker even holds a valid token (from its own visit); without the cookie it is useless.
    const { context, page } = await newContext();
    await page.goto(job.applyLink);
    const token = await page.locator('input[name="csrf"]').inputValue();
    const attackerPage = `<!doctype html><form method="post" action="${ctx.baseUrl}/apply/${job.id}" enctype="multipart/form-data">
      <input name="csrf" value="${token}"><input name="lang" value="en"><input name="name" value="Forged">
      <input name="email" value="${victim}"><input name="uploadId" value=""><button>Win a prize</button></form>`;
    await context.unroute('**/*');
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (url.startsWith(ctx.baseUrl)) return route.continue();
      if (url.startsWith('http://attacker.test/'))
        return route.fulfill({ status: 200, contentType: 'text/html', body: attackerPage });
      return route.abort();
    });
    const evil = await context.newPage();
    await evil.goto('http://attacker.test/');
    const forged = await submitApplyForm(evil, job.id, () =>
      evil.getByRole('button', { name: 'Win a prize' }).click(),
    );
    assert.equal(forged.status(), 403);
    await assertPageHeaders(forged, '403 page');
    assert.ok(
      ((await evil.locator('main').textContent()) ?? '').includes('This form expired. Please send it again.'),
    );
    const cookieSent = (await forged.request().allHeaders()).cookie ?? '';
    assert.doesNotMatch(cookieSent, /apply_csrf=/, 'SameSite=Strict kept the cookie home');
    assert.equal((await applicationsOf(job.id)).length, 0, 'nothing stored');

    // The real page, but the cookie is gone (cleared, or a replayed form): 403 as well, with JS on.
    await page.goto(job.applyLink);
    await fillForm(page, 'en', { name: 'Real Person', email: victim });
    await context.clearCookies();
    const noCookie = await submitByButton(page, job.id, 'en');
    assert.equal(noCookie.status(), 403);
    assert.equal((await applicationsOf(job.id)).length, 0, 'nothing stored');

    // The 403 page is a fresh form: sent again, it goes through.
    await fillForm(page, 'en', { name: 'Real Person', email: victim });
    const ok = await submitByButton(page, job.id, 'en');
    assert.equal(ok.status(), 201);
    assert.equal((await applicationsOf(job.id)).length, 1);
  });

  test('per-address limit: after 10 POSTs in a minute the 11th gets the 429 page', async () => {
    const job = await publish({ title: 'Rate Limited Role' });
    const { page } = await newContext({ javaScriptEnabled: false });
    await page.goto(`${job.applyLink}?lang=es`);
    for (let i = 1; i <= 10; i++) {
      const res = await submitByButton(page, job.id, 'es');
      assert.equal(res.status(), 400, `POST ${i}`);
    }
    const limited = await submitByButton(page, job.id, 'es');
    assert.equal(limited.status(), 429);
    await assertPageHeaders(limited, '429 page');
    assert.ok(Number((await limited.allHeaders())['retry-after']) >= 1);
    assert.equal(
      await heading(page),
      'Demasiados intentos desde tu conexión. Espera un minuto y vuelve a intentarlo.',
    );
    assert.equal((await applicationsOf(job.id)).length, 0);
  });

  test('a closed role: the job page answers 410, says so, offers no apply link or form; the apply page answers 410', async () => {
    const job = await publish({ title: 'Closed Role' });
    const { page } = await newContext();
    await page.goto(job.applyLink);
    assert.equal((await intake.api.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
    const response = await page.goto(job.url!);
    assert.equal(response?.status(), 410);
    await assertPageHeaders(response, 'closed job page');
    assert.ok(await page.getByText('This role has closed').isVisible());
    assert.equal(await page.getByRole('link', { name: 'Apply now' }).count(), 0);
    assert.equal(await page.locator('a[href*="/apply/"]').count(), 0);
    assert.equal(await page.locator('form').count(), 0);
    assert.equal(await page.locator('script[type="application/ld+json"]').count(), 0);

    const apply = await page.goto(`${job.applyLink}?lang=pt`);
    assert.equal(apply?.status(), 410);
    await assertPageHeaders(apply, 'closed apply page');
    assert.ok(await page.getByText('Esta vaga está fechada').isVisible());
    assert.equal(await page.locator('form').count(), 0);
  });

  test("a draft's applyLink answers the 404 page", async () => {
    const draft = await createDraft(intake.api, { title: 'Secret Draft' });
    const { page } = await newContext();
    const response = await page.goto(draft.applyLink);
    assert.equal(response?.status(), 404);
    await assertPageHeaders(response, 'draft apply page');
    assert.equal(await heading(page), 'Page not found');
    assert.equal(await page.locator('form').count(), 0);
    assert.ok(!(await page.content()).includes('Secret Draft'), 'the draft is not revealed');
  });

  test('XSS payloads in a description: no dialog, no foreign script, nothing executable in the DOM', async () => {
    // Each payload is followed by closers, so an unclosed <svg> or <style> cannot swallow (and so
    // hide from the test) the payloads after it.
    const description = XSS_PAYLOADS.map((p) => `<p>${p.name}:</p>${p.html}${CLOSERS}`).join('\n');
    const title = '</script><script>alert("title")</script><img src=x onerror=alert("title")>';
    const job = await publish({
      title,
      description,
      responsibilities: ['<img src=x onerror=alert("r")>'],
      benefits: ['<svg onload=alert("b")>'],
    });
    const { page } = await newContext();
    const dialogs: string[] = [];
    page.on('dialog', async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    const response = await page.goto(job.url!);
    assert.equal(response?.status(), 200);
    await assertPageHeaders(response, 'xss job page');
    // Give anything that could run a chance to: hover and focus every element of the ad.
    for (const el of await page.locator('article *').all())
      await el.hover({ force: true, timeout: 1000 }).catch(() => {});
    await page.waitForTimeout(300);
    assert.deepEqual(dialogs, [], 'no dialog');
    assert.deepEqual(
      await page.evaluate(() => Array.from(document.scripts, (s) => `${s.type}|${s.src}`)),
      ['application/ld+json|'],
      'the only script is the JSON-LD',
    );
    assert.deepEqual(await page.evaluate(findExecutable), []);
    assert.equal(await heading(page), title, 'the title is shown as text');
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '');
    assert.equal(ld.title, title);
    const allowed = new Set([
      'P',
      'BR',
      'UL',
      'OL',
      'LI',
      'STRONG',
      'B',
      'EM',
      'I',
      'U',
      'H2',
      'H3',
      'H4',
      'BLOCKQUOTE',
      'A',
    ]);
    const tags = await page
      .locator('section.description *')
      .evaluateAll((els) =>
        els.map(
          (e) =>
            `${(e as unknown as DomElement).tagName}:${Array.from((e as unknown as DomElement).attributes, (a) => a.name).join(',')}`,
        ),
      );
    for (const t of tags) {
      const [tag, attrs] = t.split(':');
      assert.ok(allowed.has(tag!), `element ${t} in the description`);
      for (const a of attrs ? attrs.split(',') : [])
        assert.ok(tag === 'A' && (a === 'href' || a === 'rel'), `attribute ${t}`);
    }
    for (const p of XSS_PAYLOADS) {
      assert.equal(
        await page.getByText(`${p.name}:`, { exact: true }).count(),
        1,
        `payload "${p.name}" was rendered`,
      );
    }
    // The rendered text leaves out what CSS hides (display:none, the hidden attribute).
    const rendered = (await page.locator('section.description').allInnerTexts()).join('\n');
    for (const words of ['hidden clause', 'off screen', 'not hidden', 'tiny text', 'honey text']) {
      assert.ok(rendered.includes(words), `"${words}" is rendered, not hidden by a style`);
    }

    // Defence in depth: the sanitised markup is inert even on a page without any CSP...
    const sanitised = await page.locator('section.description').innerHTML();
    const bare = await (await newContext()).context.newPage();
    const bareDialogs: string[] = [];
    bare.on('dialog', async (d) => {
      bareDialogs.push(d.message());
      await d.dismiss();
    });
    await bare.setContent(`<!doctype html><html><body>${sanitised}</body></html>`);
    for (const el of await bare.locator('body *').all())
      await el.hover({ force: true, timeout: 1000 }).catch(() => {});
    await bare.waitForTimeout(300);
    assert.deepEqual(bareDialogs, [], 'the sanitised description runs nothing without CSP');
    assert.deepEqual(await bare.evaluate(findExecutable), []);
    // ...while the raw payloads on that same CSP-less page do run: the check above can fail.
    await bare.setContent(
      `<!doctype html><html><body>${XSS_PAYLOADS.map((p) => p.html).join('\n')}</body></html>`,
    );
    await bare.waitForTimeout(500);
    assert.ok(bareDialogs.length > 0, 'control: the raw payloads do open dialogs');

    // The apply page of the same role shows the title as text and runs only its own script.
    await page.goto(job.applyLink);
    assert.equal(await heading(page), `Apply for ${title} at Acme Browser Ltd`);
    assert.deepEqual(
      await page.evaluate(() => Array.from(document.scripts, (s) => new URL(s.src).pathname)),
      ['/assets/apply.js'],
    );
    assert.deepEqual(dialogs, []);
  });

  test('four languages: html lang, the apply button, the posted date and the form labels', async () => {
    const job = await publish({ title: 'Translator' });
    const { page } = await newContext();
    for (const lang of ['en', 'es', 'fr', 'pt'] as const) {
      const w = WORDS[lang];
      const response = await page.goto(job.url!.replace('/en/jobs/', `/${lang}/jobs/`));
      assert.equal(response?.status(), 200);
      assert.equal(await htmlLang(page), lang);
      assert.ok(
        await page.getByRole('link', { name: w.apply, exact: true }).first().isVisible(),
        `${lang}: "${w.apply}"`,
      );
      assert.equal(await page.locator('time').first().textContent(), w.posted, `${lang}: date`);
      await page.getByRole('link', { name: w.apply, exact: true }).first().click();
      await page.waitForURL(/\/apply\//);
      assert.equal(await htmlLang(page), lang);
      for (const label of [w.name, w.phone, w.where, w.cv, w.note]) {
        assert.equal(await page.getByLabel(label).count(), 1, `${lang}: label ${label}`);
      }
      assert.equal(await page.getByLabel(w.email, { exact: true }).count(), 1);
      assert.ok(await page.getByRole('button', { name: w.submit }).isVisible());
      // Every visible control has a label.
      const unlabelled = await page
        .locator('input:not([type=hidden]), textarea, select')
        .evaluateAll((els) =>
          els
            .filter((e) => ((e as unknown as { labels: ArrayLike<unknown> }).labels?.length ?? 0) === 0)
            .map((e) => (e as unknown as DomElement).id),
        );
      assert.deepEqual(unlabelled, [], `${lang}: unlabelled controls`);
    }
  });

  test('keyboard: Enter on the apply button opens the form; Tab walks the fields and reaches the submit button in order', async () => {
    const job = await publish({ title: 'Keyboard Role' });
    const { page } = await newContext();
    await page.goto(job.url!);
    let onApply = false;
    for (let i = 0; i < 20 && !onApply; i++) {
      await page.keyboard.press('Tab');
      onApply = (await page.evaluate(() => document.activeElement?.textContent)) === 'Apply now';
    }
    assert.ok(onApply, 'Tab reaches the apply button');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/apply\//);

    const order: string[] = [];
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement;
        if (!el) return { id: '', tag: '', outline: 'none' };
        return { id: el.id, tag: el.tagName, outline: window.getComputedStyle(el).outlineStyle };
      });
      if (focused.tag === 'INPUT' || focused.tag === 'TEXTAREA' || focused.tag === 'BUTTON') {
        order.push(focused.tag === 'BUTTON' ? 'submit' : focused.id);
        assert.notEqual(focused.outline, 'none', `${focused.id || focused.tag}: focus is visible`);
      }
      if (focused.tag === 'BUTTON') break;
    }
    assert.deepEqual(order, ['name', 'email', 'phone', 'location', 'cv', 'coverNote', 'submit']);

    // Typing works where the focus lands.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.type('Typed by keyboard');
    assert.equal(await page.getByLabel('Cover note').inputValue(), 'Typed by keyboard');
  });

  test('the feed in the browser lists the role and links to its page', async () => {
    const title = `Feed Browser Role ${unique('r')}`;
    const job = await publish({ title });
    const { page } = await newContext();
    await page.goto(`${ctx.baseUrl}/fr/jobs`);
    assert.equal(await htmlLang(page), 'fr');
    const link = page.getByRole('link', { name: title });
    for (let i = 0; i < 100 && (await link.count()) === 0; i++) {
      const next = page.getByRole('link', { name: "Plus d'offres" });
      if ((await next.count()) === 0) break;
      await next.click();
      await page.waitForLoadState('domcontentloaded');
    }
    await link.click();
    await page.waitForURL(job.url!.replace('/en/jobs/', '/fr/jobs/'));
    assert.ok(await page.getByRole('link', { name: 'Postuler' }).first().isVisible());
  });

  test('screenshots at phone and desktop widths; nothing overflows sideways on a phone', async () => {
    const job = await publish({
      title: 'Principal Site Reliability Engineer, Payments Infrastructure (EMEA)',
      // Employers paste raw links and long compound words; they must wrap, not widen the page.
      description: `${AD.description}<p>Apply via https://careers.example.com/engineering/site-reliability/payments-infrastructure/emea/principal-engineer?utm_source=jobboard or read Rechtsschutzversicherungsgesellschaften-Betriebsvereinbarung.</p>`,
      location: { city: 'Lisbon', country: 'PT', remotePolicy: 'hybrid', onsiteDays: '2 days' },
    });
    const shots: string[] = [];
    for (const [label, viewport] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 900 }],
    ] as const) {
      const { page } = await newContext({ viewport });
      for (const [name, url] of [
        ['job-page', job.url!],
        ['apply-page', `${job.applyLink}?lang=en&via=job_page`],
      ] as const) {
        const response = await page.goto(url);
        assert.equal(response?.status(), 200);
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
        }));
        assert.ok(
          scrollWidth <= innerWidth,
          `${name} at ${label}: page is ${scrollWidth}px wide in a ${innerWidth}px window`,
        );
        const file = path.join(ARTIFACTS, `${name}-${label}.png`);
        await page.screenshot({ path: file, fullPage: true });
        shots.push(file);
      }
      // The apply page with its errors, where long messages must wrap too.
      if (label === 'phone') {
        await page.goto(`${job.applyLink}?lang=fr`);
        await fillForm(page, 'fr', { name: '', email: 'x', cv: SCAN_PDF });
        await submitByButton(page, job.id, 'fr');
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(wide <= 390, `apply page with errors is ${wide}px wide`);
        const file = path.join(ARTIFACTS, 'apply-page-errors-phone.png');
        await page.screenshot({ path: file, fullPage: true });
        shots.push(file);
      }
    }
    for (const file of shots) assert.ok(fs.statSync(file).size > 5_000, `${file} written`);
  });
});
