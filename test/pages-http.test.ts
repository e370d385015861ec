import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { SITEMAP_TTL_MS } from '../src/http/pages/sitemap.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { consoleCall, intakeAccount, unique } from './support/accounts.ts';
import { BASE_URL, startApp, type TestContext, useTestApp } from './support/app.ts';
import { pdfFixture, putUpload } from './support/intake.ts';
import { createDraft, createPublished } from './support/jobs.ts';
import { linkPath } from './support/mail.ts';
import { DAY } from './support/time.ts';

/** Pages are read at a fixed moment so dates can be checked as each language writes them. */
const T0 = '2026-03-15T09:00:00.000Z';
const LANGS = ['en', 'es', 'fr', 'pt'] as const;
type Lang = (typeof LANGS)[number];

const ctx = useTestApp({
  clock: new ManualClock(T0),
  applyPage: { burstPerAddress: 1000, burstPerJob: 1000 },
});

// ---- Reading pages ----

type Res = LightMyRequestResponse;

function get(url: string, headers: Record<string, string> = {}, app = ctx.app): Promise<Res> {
  return app.inject({ method: 'GET', url, headers });
}

/** The visible text of an HTML fragment, entities decoded and whitespace collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<head>[\s\S]*?<\/head>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

function htmlLang(html: string): string | undefined {
  return /<html lang="([^"]*)"/.exec(html)?.[1];
}

function jsonLdOf(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) =>
    JSON.parse(m[1]!),
  );
}

function scriptTags(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]);
}

/** The service's page headers: a strict CSP, no framing, no sniffing, UTF-8 HTML. */
function assertPageHeaders(res: Res, label: string): void {
  const csp = String(res.headers['content-security-policy'] ?? '');
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
  assert.deepEqual(directives.get('default-src'), ["'none'"], `${label}: default-src in ${csp}`);
  assert.deepEqual(directives.get('script-src'), ["'self'"], `${label}: script-src in ${csp}`);
  assert.deepEqual(directives.get('frame-ancestors'), ["'none'"], `${label}: frame-ancestors`);
  assert.deepEqual(directives.get('base-uri'), ["'none'"], `${label}: base-uri`);
  assert.deepEqual(directives.get('form-action'), ["'self'"], `${label}: form-action`);
  assert.ok(!directives.has('object-src') || directives.get('object-src')?.join(' ') === "'none'", label);
  assert.equal(res.headers['x-frame-options'], 'DENY', `${label}: x-frame-options`);
  assert.equal(res.headers['x-content-type-options'], 'nosniff', `${label}: nosniff`);
  assert.ok(res.headers['referrer-policy'], `${label}: referrer-policy`);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8', `${label}: content-type`);
  assert.match(res.body, /^<!doctype html><html lang="(en|es|fr|pt)">/i, `${label}: doctype and lang`);
}

// ---- Accounts and roles ----

const LOGO = 'https://cdn.example/acme-logo.png';

/** A complete ad: every field the page and the JSON-LD show. */
const FULL_AD = {
  title: 'Senior Data Engineer',
  category: 'data',
  description: '<p>Join our <strong>data</strong> team.</p><ul><li>Modern stack</li></ul>',
  responsibilities: ['Build pipelines', 'Mentor engineers'],
  skills: [
    { name: 'SQL', level: 'required' },
    { name: 'Python', level: 'required' },
    { name: 'Rust', level: 'nice_to_have' },
  ],
  benefits: ['Pension', 'Four-day week'],
  employmentType: 'full_time',
  contractType: 'permanent',
  salary: { min: 60000, max: 80000, currency: 'EUR', period: 'year' },
  location: {
    city: 'Madrid',
    state: 'Comunidad de Madrid',
    country: 'ES',
    remotePolicy: 'hybrid',
    onsiteDays: '3 days',
  },
};

async function account(companyName = 'Acme Ltd', app = ctx.app) {
  const intake = await intakeAccount(app, { companyName });
  const patched = await consoleCall(app, 'PATCH', `/accounts/${intake.account.id}`, { logoUrl: LOGO });
  assert.equal(patched.statusCode, 200, patched.body);
  return intake;
}

type Intake = Awaited<ReturnType<typeof account>>;

async function applicationsOf(accountId: string, jobId: string, app = ctx.app) {
  const res = await consoleCall(app, 'GET', `/accounts/${accountId}/jobs/${jobId}/applications`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().applications as Record<string, unknown>[];
}

async function uploadsOf(accountId: string) {
  return ctx.handle.db.selectFrom('uploads').selectAll().where('account_id', '=', accountId).execute();
}

// ---- The apply form, as a browser without JavaScript sends it ----

let ipSeq = 0;
/** A fresh client address, so the per-address limit only counts what a test sends. */
function freshIp(): string {
  ipSeq += 1;
  return `198.51.${Math.floor(ipSeq / 250)}.${(ipSeq % 250) + 1}`;
}

const UA = 'Mozilla/5.0 (X11; Linux x86_64) PagesTest/1.0';

interface OpenForm {
  res: Res;
  token: string;
  nonce: string;
}

/** GET the apply page; answers its CSRF token and the cookie's nonce. */
async function openForm(applyLink: string, query = '', app = ctx.app): Promise<OpenForm> {
  const res = await get(`${linkPath(applyLink)}${query}`, {}, app);
  assert.equal(res.statusCode, 200, res.body);
  const token = /name="csrf" value="([^"]+)"/.exec(res.body)?.[1];
  const cookie = res.cookies.find((c) => c.name === 'apply_csrf');
  assert.ok(token, 'csrf field');
  assert.ok(cookie, 'apply_csrf cookie');
  return { res, token, nonce: cookie.value };
}

/** POSTs the multipart form; `fields` are sent as given, `file` as the `cv` part. */
async function submit(
  jobId: string,
  fields: Record<string, string>,
  options: {
    file?: { name: string; bytes: Buffer; type?: string };
    nonce?: string | null;
    ip?: string;
    app?: TestContext['app'];
  } = {},
): Promise<Res> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (options.file) {
    form.append(
      'cv',
      new Blob([options.file.bytes], { type: options.file.type ?? 'application/pdf' }),
      options.file.name,
    );
  }
  const request = new Request('http://form.invalid/', { method: 'POST', body: form });
  return (options.app ?? ctx.app).inject({
    method: 'POST',
    // As the form's action: the token and language in the query too, read before the body.
    url: `/apply/${jobId}?lang=${fields.lang ?? ''}&csrf=${encodeURIComponent(fields.csrf ?? '')}`,
    payload: Buffer.from(await request.arrayBuffer()),
    headers: {
      'content-type': request.headers.get('content-type')!,
      'user-agent': UA,
      ...(options.nonce ? { cookie: `apply_csrf=${options.nonce}` } : {}),
    },
    remoteAddress: options.ip ?? freshIp(),
  });
}

const CV = () => ({ name: 'cv-2-pages.pdf', bytes: pdfFixture('cv-2-pages.pdf') });

function applicant(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    name: 'Inès Oliveira-Núñez',
    email: `${unique('page').toLowerCase()}@example.com`,
    phone: '+34 600 000 000',
    location: 'Valencia, ES',
    coverNote: 'I would love to join.',
    ...overrides,
  };
}

/** Opens the form and sends it filled in, with the real PDF; answers the POST. */
async function applyThroughForm(
  job: { id: string; applyLink: string },
  fields: Record<string, string> = applicant(),
  options: { query?: string; ip?: string; file?: { name: string; bytes: Buffer; type?: string } | null } = {},
) {
  const form = await openForm(job.applyLink, options.query ?? '');
  const lang = /name="lang" value="([^"]*)"/.exec(form.res.body)?.[1] ?? '';
  const via = /name="via" value="([^"]*)"/.exec(form.res.body)?.[1] ?? '';
  return submit(
    job.id,
    { csrf: form.token, lang, via, uploadId: '', website: '', ...fields },
    {
      nonce: form.nonce,
      ...(options.file === null ? {} : { file: options.file ?? CV() }),
      ...(options.ip ? { ip: options.ip } : {}),
    },
  );
}

// =====================================================================================

describe('job page /{lang}/jobs/{company}/{role}', () => {
  let intake: Intake;
  before(async () => {
    intake = await account();
  });

  test('a published role: 200 with the whole ad, an apply button to applyLink, and JobPosting JSON-LD', async () => {
    const job = await createPublished(intake.api, FULL_AD, { expiryDays: 30 });
    assert.equal(job.url, `${BASE_URL}/en/jobs/${intake.account.companyAddress}/senior-data-engineer`);
    const res = await get(linkPath(job.url!));
    assert.equal(res.statusCode, 200, res.body);
    assertPageHeaders(res, 'job page');
    assert.equal(htmlLang(res.body), 'en');
    const text = textOf(res.body);
    for (const piece of [
      'Acme Ltd',
      'Senior Data Engineer',
      'Location: Madrid, Comunidad de Madrid, Spain · Hybrid (3 days)',
      'Salary: €60,000 – €80,000 per year',
      'Full time',
      'Permanent',
      'Posted: March 15, 2026',
      'Applications close: April 14, 2026',
      'Join our data team. Modern stack',
      'What you will do Build pipelines Mentor engineers',
      'Skills Required SQL Python Nice to have Rust',
      'Benefits Pension Four-day week',
    ]) {
      assert.ok(text.includes(piece), `page shows ${JSON.stringify(piece)}: ${text}`);
    }
    assert.match(res.body, /<h1>Senior Data Engineer<\/h1>/);
    assert.match(res.body, new RegExp(`<img class="logo" src="${LOGO}" alt="Acme Ltd">`));
    assert.match(res.body, /<time datetime="2026-03-15T09:00:00.000Z">March 15, 2026<\/time>/);
    const applyHrefs = [...res.body.matchAll(/<a class="button" href="([^"]+)">Apply now<\/a>/g)].map(
      (m) => m[1],
    );
    assert.ok(applyHrefs.length >= 1, 'an apply button');
    for (const href of applyHrefs) assert.equal(href, `${job.applyLink}?lang=en&amp;via=job_page`);

    const [ld, ...more] = jsonLdOf(res.body);
    assert.equal(more.length, 0, 'one JSON-LD block');
    assert.ok(ld);
    assert.equal(ld['@context'], 'https://schema.org/');
    assert.equal(ld['@type'], 'JobPosting');
    assert.equal(ld.title, 'Senior Data Engineer');
    assert.equal(ld.description, '<p>Join our <strong>data</strong> team.</p><ul><li>Modern stack</li></ul>');
    assert.equal(ld.datePosted, job.postedAt);
    assert.equal(ld.datePosted, T0);
    assert.equal(ld.validThrough, job.expiresAt);
    assert.equal(ld.validThrough, new Date(Date.parse(T0) + 30 * DAY).toISOString());
    assert.deepEqual(ld.employmentType, ['FULL_TIME']);
    assert.deepEqual(ld.hiringOrganization, { '@type': 'Organization', name: 'Acme Ltd', logo: LOGO });
    assert.deepEqual(ld.jobLocation, {
      '@type': 'Place',
      address: {
        '@type': 'PostalAddress',
        addressLocality: 'Madrid',
        addressRegion: 'Comunidad de Madrid',
        addressCountry: 'ES',
      },
    });
    assert.equal(ld.jobLocationType, undefined);
    assert.deepEqual(ld.baseSalary, {
      '@type': 'MonetaryAmount',
      currency: 'EUR',
      value: { '@type': 'QuantitativeValue', minValue: 60000, maxValue: 80000, unitText: 'YEAR' },
    });
    assert.deepEqual(ld.identifier, { '@type': 'PropertyValue', name: 'Acme Ltd', value: job.id });
    assert.equal(ld.url, job.url);
  });

  test('a remote role: TELECOMMUTE with applicantLocationRequirements; hourly pay; part-time contract', async () => {
    const job = await createPublished(intake.api, {
      title: 'Support Specialist',
      employmentType: 'part_time',
      contractType: 'contract',
      salary: { min: 25, currency: 'USD', period: 'hour' },
      location: { country: 'PT', remotePolicy: 'remote' },
    });
    const res = await get(linkPath(job.url!));
    assert.equal(res.statusCode, 200);
    const [ld] = jsonLdOf(res.body);
    assert.ok(ld);
    assert.equal(ld.jobLocationType, 'TELECOMMUTE');
    assert.deepEqual(ld.applicantLocationRequirements, { '@type': 'Country', name: 'PT' });
    assert.equal(ld.jobLocation, undefined);
    assert.deepEqual([...(ld.employmentType as string[])].sort(), ['CONTRACTOR', 'PART_TIME']);
    const salary = ld.baseSalary as { currency: string; value: Record<string, unknown> };
    assert.equal(salary.currency, 'USD');
    assert.equal(salary.value.unitText, 'HOUR');
    assert.equal(salary.value.minValue, 25);
    assert.equal(ld.validThrough, undefined, 'no expiry, no validThrough');
    const text = textOf(res.body);
    assert.ok(text.includes('Location: Portugal · Remote'), text);
    assert.ok(text.includes('Salary: $25 per hour'), text);
  });

  test('unknown company, unknown role, an unsupported language and a draft answer the 404 page', async () => {
    const draft = await createDraft(intake.api, { title: 'Hidden Draft Role' });
    assert.equal(draft.url, undefined, 'a draft has no page');
    const live = await createPublished(intake.api, { title: 'Visible Role' });
    const company = intake.account.companyAddress!;
    for (const url of [
      `/en/jobs/${unique('nobody')}/visible-role`,
      `/en/jobs/${company}/no-such-role`,
      `/en/jobs/${company}/hidden-draft-role`,
    ]) {
      const res = await get(url);
      assert.equal(res.statusCode, 404, url);
      assertPageHeaders(res, url);
      assert.ok(textOf(res.body).includes('Page not found'), url);
      assert.equal(jsonLdOf(res.body).length, 0);
      assert.match(res.body, /<meta name="robots" content="noindex">/, `${url}: not indexed`);
    }
    // A language the pages do not have is no page at all: the service's plain 404, like /v2/jobs.
    const unsupported = await get(`/de/jobs/${company}/visible-role`);
    assert.equal(unsupported.statusCode, 404);
    assert.equal(unsupported.json().error.code, 'not_found');
    assert.equal((await get(linkPath(live.url!))).statusCode, 200);
  });

  test('a closed role: 410, says it closed, no apply link, no form, no JSON-LD, in every language', async () => {
    const job = await createPublished(intake.api, FULL_AD);
    const closed = await intake.api.post(`/v1/jobs/${job.id}/close`);
    assert.equal(closed.statusCode, 200, closed.body);
    const closedText: Record<Lang, string> = {
      en: 'This role has closed',
      es: 'Este puesto está cerrado',
      fr: 'Ce poste est pourvu ou fermé',
      pt: 'Esta vaga está fechada',
    };
    for (const lang of LANGS) {
      const res = await get(linkPath(job.url!).replace('/en/', `/${lang}/`));
      assert.equal(res.statusCode, 410, `${lang}: ${res.statusCode}`);
      assertPageHeaders(res, `closed ${lang}`);
      assert.equal(htmlLang(res.body), lang);
      const text = textOf(res.body);
      assert.ok(text.includes(closedText[lang]), `${lang}: ${text}`);
      assert.ok(text.includes('Senior Data Engineer'), 'still names the role');
      assert.doesNotMatch(res.body, /\/apply\//, `${lang}: no link to the apply page`);
      assert.doesNotMatch(res.body, /<form/i, `${lang}: no form`);
      assert.equal(jsonLdOf(res.body).length, 0, `${lang}: no JobPosting for a closed role`);
    }
  });

  test('after a company-address change the old address answers 301 to the new one, in every language', async () => {
    const moving = await account('Moving Co');
    const job = await createPublished(moving.api, {
      title: 'Warehouse Lead',
      location: { city: 'Lisbon', country: 'PT' },
    });
    const oldAddress = moving.account.companyAddress!;
    const newAddress = unique('moved');
    const patched = await consoleCall(ctx.app, 'PATCH', `/accounts/${moving.account.id}`, {
      companyAddress: newAddress,
    });
    assert.equal(patched.statusCode, 200, patched.body);

    for (const lang of LANGS) {
      const res = await get(`/${lang}/jobs/${oldAddress}/warehouse-lead`);
      assert.equal(res.statusCode, 301, `${lang}: ${res.statusCode} ${res.body}`);
      assert.equal(res.headers.location, `/${lang}/jobs/${newAddress}/warehouse-lead`);
      const moved = await get(String(res.headers.location));
      assert.equal(moved.statusCode, 200, `${lang}: new address`);
      assert.equal(htmlLang(moved.body), lang);
    }
    const read = await moving.api.get(`/v1/jobs/${job.id}`);
    assert.equal(read.json().job.url, `${BASE_URL}/en/jobs/${newAddress}/warehouse-lead`);
    const [ld] = jsonLdOf((await get(`/en/jobs/${newAddress}/warehouse-lead`)).body);
    assert.equal(ld?.url, `${BASE_URL}/en/jobs/${newAddress}/warehouse-lead`);

    // Moving back: the first address serves the page again and the second one redirects.
    const back = await consoleCall(ctx.app, 'PATCH', `/accounts/${moving.account.id}`, {
      companyAddress: oldAddress,
    });
    assert.equal(back.statusCode, 200, back.body);
    assert.equal((await get(`/en/jobs/${oldAddress}/warehouse-lead`)).statusCode, 200);
    const again = await get(`/fr/jobs/${newAddress}/warehouse-lead`);
    assert.equal(again.statusCode, 301);
    assert.equal(again.headers.location, `/fr/jobs/${oldAddress}/warehouse-lead`);
  });

  test('a re-published role keeps its slug, also when the address changed while it was closed', async () => {
    const intake2 = await account('Republish Co');
    const job = await createPublished(intake2.api, { title: 'Night Nurse' });
    const firstUrl = job.url!;
    assert.ok(firstUrl.endsWith('/night-nurse'));
    // Another role with the same title takes the next slug, so the slug is really kept, not re-derived.
    const twin = await createPublished(intake2.api, { title: 'Night Nurse' });
    assert.ok(twin.url!.endsWith('/night-nurse-2'), twin.url);

    assert.equal((await intake2.api.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
    const edited = await intake2.api.patch(`/v1/jobs/${job.id}`, { title: 'Night Nurse (Band 6)' });
    assert.equal(edited.statusCode, 200, edited.body);
    const republished = await intake2.api.post(`/v1/jobs/${job.id}/publish`, {});
    assert.equal(republished.statusCode, 200, republished.body);
    assert.equal(republished.json().job.url, firstUrl, 'same url after re-publish, though the title changed');
    const page = await get(linkPath(firstUrl));
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<h1>Night Nurse \(Band 6\)<\/h1>/);

    assert.equal((await intake2.api.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
    const newAddress = unique('renamed');
    assert.equal(
      (await consoleCall(ctx.app, 'PATCH', `/accounts/${intake2.account.id}`, { companyAddress: newAddress }))
        .statusCode,
      200,
    );
    const again = await intake2.api.post(`/v1/jobs/${job.id}/publish`, {});
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().job.url, `${BASE_URL}/en/jobs/${newAddress}/night-nurse`);
    assert.equal((await get(`/en/jobs/${newAddress}/night-nurse`)).statusCode, 200);
    const old = await get(linkPath(firstUrl));
    assert.equal(old.statusCode, 301);
    assert.equal(old.headers.location, `/en/jobs/${newAddress}/night-nurse`);
  });

  test('hostile title and company name are escaped in the page and intact in the JSON-LD', async () => {
    const hostile = await account('Evil "Co" <b>&</b>');
    const title = '</script><script>alert(1)</script> & <img src=x onerror=alert(2)>';
    const job = await createPublished(hostile.api, { title, location: { country: 'AU' } });
    const res = await get(linkPath(job.url!));
    assert.equal(res.statusCode, 200);
    assert.deepEqual(
      scriptTags(res.body),
      ['<script type="application/ld+json">'],
      'no script element but the JSON-LD',
    );
    assert.doesNotMatch(res.body, /<img src=x|<b>&<\/b>/);
    assert.ok(
      res.body.includes(
        '<h1>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(2)&gt;</h1>',
      ),
    );
    const [ld] = jsonLdOf(res.body);
    assert.ok(ld);
    assert.equal(ld.title, title);
    assert.equal((ld.hiringOrganization as { name: string }).name, 'Evil "Co" <b>&</b>');
  });
});

// =====================================================================================

describe('apply page /apply/{jobId}', () => {
  let intake: Intake;
  before(async () => {
    intake = await account('Apply Co');
  });

  test("a draft's applyLink and an unknown id answer the 404 page", async () => {
    const draft = await createDraft(intake.api, { title: 'Draft Only' });
    assert.equal(draft.applyLink, `${BASE_URL}/apply/${draft.id}`);
    for (const url of [
      linkPath(draft.applyLink),
      '/apply/job_doesnotexist0000000000000',
      `/apply/${draft.id}?lang=fr`,
    ]) {
      const res = await get(url);
      assert.equal(res.statusCode, 404, url);
      assertPageHeaders(res, url);
      assert.doesNotMatch(res.body, /<form/);
      assert.match(res.body, /<meta name="robots" content="noindex">/);
    }
    const post = await submit(draft.id, { ...applicant(), csrf: 'x', lang: 'en' }, { file: CV() });
    assert.equal(post.statusCode, 404);
    assert.equal((await applicationsOf(intake.account.id, draft.id)).length, 0);
  });

  test('a closed role: the apply page and the form POST answer 410 and store nothing', async () => {
    const job = await createPublished(intake.api, { title: 'Closing Soon' });
    const form = await openForm(job.applyLink, '?lang=es');
    assert.equal((await intake.api.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
    const page = await get(`${linkPath(job.applyLink)}?lang=es`);
    assert.equal(page.statusCode, 410);
    assertPageHeaders(page, 'closed apply page');
    assert.ok(textOf(page.body).includes('Este puesto está cerrado'));
    assert.doesNotMatch(page.body, /<form|<input/);
    const post = await submit(
      job.id,
      { ...applicant(), csrf: form.token, lang: 'es' },
      { nonce: form.nonce, file: CV() },
    );
    assert.equal(post.statusCode, 410);
    assertPageHeaders(post, 'closed POST');
    assert.equal((await applicationsOf(intake.account.id, job.id)).length, 0);
  });

  test('an open role: labelled controls, CSRF token and cookie, honeypot, and the consent text unmodified', async () => {
    const job = await createPublished(intake.api, { title: 'Line Cook' });
    const consentApi = intake.api;
    for (const lang of LANGS) {
      const { res, nonce } = await openForm(job.applyLink, `?lang=${lang}`);
      assertPageHeaders(res, `apply ${lang}`);
      assert.equal(htmlLang(res.body), lang);
      assert.match(res.body, /<meta name="robots" content="noindex">/, 'the form is not indexed');
      assert.equal(res.headers['cache-control'], 'no-store');
      const cookie = res.cookies.find((c) => c.name === 'apply_csrf')!;
      assert.equal(cookie.value, nonce);
      assert.equal(cookie.httpOnly, true);
      assert.equal(cookie.sameSite, 'Strict');
      assert.equal(cookie.path, '/apply');
      assert.equal(cookie.secure, true, 'Secure on an https base URL');
      // Every visible control has a label, and the form posts multipart to the same page.
      assert.match(
        res.body,
        new RegExp(
          `<form method="post" action="/apply/${job.id}\\?lang=${lang}&amp;csrf=[^"]+" enctype="multipart/form-data"`,
        ),
      );
      for (const id of ['name', 'email', 'phone', 'location', 'cv', 'coverNote']) {
        assert.match(res.body, new RegExp(`<label for="${id}">`), `${lang}: label for ${id}`);
        assert.match(
          res.body,
          new RegExp(`<(input|textarea) id="${id}" name="${id}"`),
          `${lang}: control ${id}`,
        );
      }
      assert.match(
        res.body,
        /<input id="website" name="website" type="text" tabindex="-1" autocomplete="off">/,
      );
      assert.match(res.body, /<div class="hp" aria-hidden="true">/);
      assert.deepEqual(scriptTags(res.body), ['<script src="/assets/apply.js" defer>']);
      const consent = await consentApi.get(`/v1/consent-text?locale=${lang}`);
      assert.equal(consent.statusCode, 200);
      const words = consent.json().text as string;
      assert.ok(textOf(res.body).includes(words), `${lang}: consent text shown unmodified`);
    }
    const script = await get('/assets/apply.js');
    assert.equal(script.statusCode, 200);
    assert.match(String(script.headers['content-type']), /^text\/javascript/);
    assert.equal(script.headers['x-content-type-options'], 'nosniff');
  });

  test('the plain form (no JavaScript) creates the application with the receipt the service records', async () => {
    const job = await createPublished(intake.api, { title: 'Barista' });
    const ip = freshIp();
    const fields = applicant();
    const res = await applyThroughForm(job, fields, { query: '?lang=pt', ip });
    assert.equal(res.statusCode, 201, res.body);
    assertPageHeaders(res, 'thanks');
    assert.equal(htmlLang(res.body), 'pt');
    assert.ok(textOf(res.body).includes('Candidatura enviada'));
    assert.ok(textOf(res.body).includes(fields.email!), 'names the address the link goes to');

    const [app, ...more] = await applicationsOf(intake.account.id, job.id);
    assert.equal(more.length, 0);
    assert.ok(app);
    assert.equal(app.name, fields.name);
    assert.equal(app.email, fields.email);
    assert.equal(app.phone, fields.phone);
    assert.equal(app.location, fields.location);
    assert.equal(app.coverNote, fields.coverNote);
    assert.equal(app.source, 'integrator_site', 'applyLink reached directly');
    assert.equal(app.status, 'received');
    assert.equal(app.cvStatus, 'processing');
    assert.deepEqual(app.consent, {
      consentTextId: 'console_api_apply',
      version: 'api_apply_v1',
      locale: 'pt',
      acceptedAt: ctx.clock.now().toISOString(),
      ip,
      userAgent: UA,
    });
    const consentText = app.consentText as Record<string, string>;
    assert.equal(consentText.locale, 'pt');
    assert.equal(consentText.text, (await intake.api.get('/v1/consent-text?locale=pt')).json().text);
  });

  test('a form reached from the job page records the source job_page', async () => {
    const job = await createPublished(intake.api, { title: 'Sous Chef' });
    const page = await get(linkPath(job.url!).replace('/en/', '/fr/'));
    const href = /<a class="button" href="([^"]+)">Postuler<\/a>/
      .exec(page.body)?.[1]
      ?.replace(/&amp;/g, '&');
    assert.ok(href, 'the job page links to the apply page');
    const url = new URL(href);
    assert.equal(`${url.origin}${url.pathname}`, job.applyLink);
    const res = await applyThroughForm(job, applicant(), { query: url.search });
    assert.equal(res.statusCode, 201, res.body);
    const [app] = await applicationsOf(intake.account.id, job.id);
    assert.ok(app, 'the application is stored');
    assert.equal(app.source, 'job_page');
    assert.equal((app.consent as { locale: string }).locale, 'fr');
  });

  test('the enhanced path: an upload slot (CSRF-checked), the PUT, then the form with uploadId', async () => {
    const job = await createPublished(intake.api, { title: 'Pastry Chef' });
    const form = await openForm(job.applyLink);
    const bytes = pdfFixture('cv-2-pages.pdf');
    const slotFor = (body: Record<string, unknown>, nonce: string | null) =>
      ctx.app.inject({
        method: 'POST',
        url: `/apply/${job.id}/upload`,
        payload: body,
        headers: nonce ? { cookie: `apply_csrf=${nonce}` } : {},
        remoteAddress: freshIp(),
      });
    const noCookie = await slotFor({ bytes: bytes.length, csrf: form.token }, null);
    assert.equal(noCookie.statusCode, 403, noCookie.body);
    const badToken = await slotFor({ bytes: bytes.length, csrf: `${form.token}x` }, form.nonce);
    assert.equal(badToken.statusCode, 403, badToken.body);
    const tooBig = await slotFor({ bytes: 10_485_761, csrf: form.token }, form.nonce);
    assert.equal(tooBig.statusCode, 400, tooBig.body);
    const slot = await slotFor({ bytes: bytes.length, csrf: form.token }, form.nonce);
    assert.equal(slot.statusCode, 201, slot.body);
    const { uploadId, uploadUrl } = slot.json() as { uploadId: string; uploadUrl: string };
    assert.ok(uploadUrl.startsWith(`${BASE_URL}/uploads/`), uploadUrl);
    const put = await putUpload(ctx.app, uploadUrl, bytes);
    assert.equal(put.statusCode, 200, put.body);

    const fields = applicant();
    const res = await submit(
      job.id,
      { ...fields, csrf: form.token, lang: 'en', via: '', uploadId, website: '' },
      { nonce: form.nonce },
    );
    assert.equal(res.statusCode, 201, res.body);
    const [app] = await applicationsOf(intake.account.id, job.id);
    assert.equal(app?.email, fields.email);
    assert.equal(
      (
        await ctx.handle.db
          .selectFrom('uploads')
          .select('used_at')
          .where('id', '=', uploadId)
          .executeTakeFirst()
      )?.used_at instanceof Date,
      true,
      'the upload was spent',
    );
  });

  test('validation errors are shown next to their field, with the values kept', async () => {
    const job = await createPublished(intake.api, { title: 'Waiter' });
    const res = await applyThroughForm(
      job,
      applicant({ name: '  ', email: 'not-an-email', phone: '+1 555', coverNote: 'Note <b>x</b>' }),
    );
    assert.equal(res.statusCode, 400, res.body);
    assertPageHeaders(res, 'validation');
    assert.match(res.body, /<p class="alert" role="alert">Please correct the fields marked below\.<\/p>/);
    assert.match(
      res.body,
      /<p class="error" id="name-error">This field is required\.<\/p><input id="name" name="name"[^>]*aria-describedby="name-error" aria-invalid="true">/,
    );
    assert.match(
      res.body,
      /<p class="error" id="email-error">Enter an email address like name@example\.com\.<\/p><input id="email" name="email" type="email"[^>]*value="not-an-email"[^>]*aria-describedby="email-error" aria-invalid="true">/,
    );
    assert.match(res.body, /<input id="phone" name="phone" type="tel"[^>]*value="\+1 555"/, 'phone kept');
    assert.doesNotMatch(res.body, /id="phone-error"/, 'no error on a valid field');
    assert.match(
      res.body,
      /<textarea id="coverNote"[^>]*>Note &lt;b&gt;x&lt;\/b&gt;<\/textarea>/,
      'cover note kept, escaped',
    );
    assert.equal((await applicationsOf(intake.account.id, job.id)).length, 0);

    const tooLong = await applyThroughForm(job, applicant({ name: 'n'.repeat(201) }));
    assert.equal(tooLong.statusCode, 400);
    assert.match(tooLong.body, /<p class="error" id="name-error">This is too long\.<\/p>/);

    const noCv = await applyThroughForm(job, applicant(), { file: null });
    assert.equal(noCv.statusCode, 400);
    assert.match(
      noCv.body,
      /<p class="error" id="cv-error">This field is required\.<\/p><input id="cv"[^>]*aria-describedby="cv-hint cv-error" aria-invalid="true">/,
    );
    assert.equal((await applicationsOf(intake.account.id, job.id)).length, 0);
  });

  test('a refused CV: the cv_rejected detail and fix, in the page language, next to the CV field', async () => {
    const job = await createPublished(intake.api, { title: 'Dishwasher' });
    const cases: { lang: Lang; file: string; words: string[] }[] = [
      {
        lang: 'es',
        file: 'scan-image-only.pdf',
        words: ['Tu PDF parece un escaneo o una foto', 'Exporta tu CV a PDF directamente'],
      },
      {
        lang: 'en',
        file: 'png-renamed.pdf',
        words: ["This file is not a PDF, so we can't read it.", 'Save or export your CV as a PDF'],
      },
    ];
    for (const c of cases) {
      const res = await applyThroughForm(job, applicant(), {
        query: `?lang=${c.lang}`,
        file: { name: c.file, bytes: pdfFixture(c.file) },
      });
      assert.equal(res.statusCode, 422, res.body);
      assertPageHeaders(res, 'cv_rejected');
      const error =
        /<p class="error" id="cv-error">([^<]*)<\/p><input id="cv"[^>]*aria-describedby="cv-hint cv-error"/.exec(
          res.body,
        )?.[1];
      assert.ok(error, `${c.lang}: error next to the CV field`);
      for (const w of c.words)
        assert.ok(textOf(error).includes(w), `${c.lang}: ${JSON.stringify(w)} in ${error}`);
    }
    assert.equal((await applicationsOf(intake.account.id, job.id)).length, 0, 'nothing stored');
  });

  test('applying twice with the same address answers the very same page as a first application; one application', async () => {
    const job = await createPublished(intake.api, { title: 'Host' });
    const fields = applicant();
    const first = await applyThroughForm(job, fields);
    assert.equal(first.statusCode, 201);
    for (const lang of ['en', 'fr'] as const) {
      const again = await applyThroughForm(
        job,
        { ...fields, email: fields.email!.toUpperCase(), name: 'Someone Else' },
        { query: `?lang=${lang}` },
      );
      assert.equal(again.statusCode, 201, again.body);
      assertPageHeaders(again, 'duplicate');
      assert.ok(
        textOf(again.body).includes(lang === 'en' ? 'Application sent' : 'Candidature envoyée'),
        again.body,
      );
      assert.doesNotMatch(textOf(again.body), /already applied|déjà postulé/i);
    }
    const apps = await applicationsOf(intake.account.id, job.id);
    assert.equal(apps.length, 1);
    assert.equal(apps[0]?.name, fields.name, 'the first application stands');
  });

  test('a filled honeypot is thanked and nothing is stored, not even the file', async () => {
    const job = await createPublished(intake.api, { title: 'Runner' });
    const before = (await uploadsOf(intake.account.id)).length;
    const res = await applyThroughForm(job, applicant({ website: 'http://spam.example' }));
    assert.equal(res.statusCode, 201, res.body);
    assertPageHeaders(res, 'honeypot');
    assert.ok(textOf(res.body).includes('Application sent'));
    assert.equal((await applicationsOf(intake.account.id, job.id)).length, 0);
    assert.equal((await uploadsOf(intake.account.id)).length, before, 'no upload kept');
  });

  test("CSRF: without the cookie, without the token, or with another form's token: 403 page, nothing stored", async () => {
    const job = await createPublished(intake.api, { title: 'Bartender' });
    const other = await createPublished(intake.api, { title: 'Cellar Hand' });
    const form = await openForm(job.applyLink);
    const otherForm = await openForm(other.applyLink);
    const secondForm = await openForm(job.applyLink);
    const base = { ...applicant(), lang: 'en', via: '', uploadId: '', website: '' };
    const attempts: { label: string; fields: Record<string, string>; nonce: string | null }[] = [
      { label: 'no cookie', fields: { ...base, csrf: form.token }, nonce: null },
      { label: 'no token', fields: base, nonce: form.nonce },
      { label: 'empty token', fields: { ...base, csrf: '' }, nonce: form.nonce },
      {
        label: "another job's token and cookie",
        fields: { ...base, csrf: otherForm.token },
        nonce: otherForm.nonce,
      },
      { label: "another form's cookie", fields: { ...base, csrf: form.token }, nonce: secondForm.nonce },
      {
        label: 'forged signature',
        fields: { ...base, csrf: form.token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) },
        nonce: form.nonce,
      },
    ];
    for (const a of attempts) {
      const res = await submit(job.id, a.fields, { nonce: a.nonce, file: CV() });
      assert.equal(res.statusCode, 403, `${a.label}: ${res.statusCode}`);
      assertPageHeaders(res, a.label);
      assert.ok(textOf(res.body).includes('This form expired. Please send it again.'), a.label);
      assert.match(res.body, /<form /, `${a.label}: a fresh form to send again`);
    }
    assert.equal((await applicationsOf(intake.account.id, job.id)).length, 0, 'nothing stored');
    // The same form, sent properly, still works.
    const ok = await submit(job.id, { ...base, csrf: form.token }, { nonce: form.nonce, file: CV() });
    assert.equal(ok.statusCode, 201, ok.body);
  });

  test('per-address limit: 10 POSTs a minute, then the 429 page with Retry-After; others unaffected', async () => {
    const job = await createPublished(intake.api, { title: 'Porter' });
    const ip = freshIp();
    const form = await openForm(job.applyLink, '?lang=fr');
    const bad = { name: '', email: '', csrf: form.token, lang: 'fr' };
    for (let i = 1; i <= 10; i++) {
      const res = await submit(job.id, bad, { nonce: form.nonce, ip });
      assert.equal(res.statusCode, 400, `POST ${i} is answered`);
    }
    const limited = await submit(
      job.id,
      { ...applicant(), csrf: form.token, lang: 'fr' },
      { nonce: form.nonce, ip, file: CV() },
    );
    assert.equal(limited.statusCode, 429, limited.body);
    assertPageHeaders(limited, '429');
    assert.equal(htmlLang(limited.body), 'fr');
    assert.ok(textOf(limited.body).includes('Trop de tentatives depuis votre connexion'), limited.body);
    const retry = Number(limited.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${limited.headers['retry-after']}`);
    const slot = await ctx.app.inject({
      method: 'POST',
      url: `/apply/${job.id}/upload`,
      payload: { bytes: 100, csrf: form.token },
      headers: { cookie: `apply_csrf=${form.nonce}` },
      remoteAddress: ip,
    });
    assert.equal(slot.statusCode, 429, 'the upload slot counts against the same limit');
    assert.equal((await applicationsOf(intake.account.id, job.id)).length, 0);

    const elsewhere = await submit(
      job.id,
      { ...applicant(), csrf: form.token, lang: 'fr' },
      { nonce: form.nonce, file: CV() },
    );
    assert.equal(elsewhere.statusCode, 201, 'another address is not limited');

    ctx.clock.advance(60_000);
    const nextMinute = await submit(
      job.id,
      { ...applicant(), csrf: form.token, lang: 'fr' },
      { nonce: form.nonce, ip, file: CV() },
    );
    assert.equal(nextMinute.statusCode, 201, 'the next minute is allowed again');
  });
});

// =====================================================================================

describe('pages in four languages', () => {
  const WORDS: Record<
    Lang,
    {
      apply: string;
      posted: string;
      salary: RegExp;
      remote: string;
      name: string;
      submit: string;
      jobs: string;
    }
  > = {
    en: {
      apply: 'Apply now',
      posted: 'Posted: March 15, 2026',
      salary: /Salary: €60,000 – €80,000 per year/,
      remote: 'Hybrid',
      name: 'Full name',
      submit: 'I agree — send my application',
      jobs: 'Jobs',
    },
    es: {
      apply: 'Postularme',
      posted: 'Publicado: 15 de marzo de 2026',
      salary: /Salario: 60\.000 € – 80\.000 € por año/,
      remote: 'Híbrido',
      name: 'Nombre completo',
      submit: 'Acepto: enviar mi candidatura',
      jobs: 'Empleos',
    },
    fr: {
      apply: 'Postuler',
      posted: 'Publiée le: 15 mars 2026',
      salary: /Salaire: 60 000 € – 80 000 € par an/,
      remote: 'Hybride',
      name: 'Nom complet',
      submit: "J'accepte — envoyer ma candidature",
      jobs: 'Offres',
    },
    pt: {
      apply: 'Candidatar-me',
      posted: 'Publicada em: 15 de março de 2026',
      salary: /Salário: € 60\.000 – € 80\.000 por ano/,
      remote: 'Híbrido',
      name: 'Nome completo',
      submit: 'Aceito — enviar a minha candidatura',
      jobs: 'Vagas',
    },
  };

  test('job page, apply page and feed: html lang, labels, dates and salary as each language writes them', async () => {
    const intake = await account('Lingua SA');
    const job = await createPublished(intake.api, FULL_AD);
    assert.ok(job.postedAt?.startsWith('2026-03-15'), job.postedAt);
    for (const lang of LANGS) {
      const w = WORDS[lang];
      const page = await get(linkPath(job.url!).replace('/en/', `/${lang}/`));
      assert.equal(page.statusCode, 200);
      assert.equal(htmlLang(page.body), lang);
      const text = textOf(page.body);
      assert.ok(text.includes(w.posted), `${lang}: ${w.posted} in ${text}`);
      assert.match(text, w.salary, lang);
      assert.ok(text.includes(w.remote), `${lang}: remote policy`);
      assert.match(
        page.body,
        new RegExp(`<a class="button" href="[^"]+\\?lang=${lang}&amp;via=job_page">${w.apply}</a>`),
        `${lang}: apply button`,
      );
      // The other languages are linked, each in its own language.
      for (const other of LANGS.filter((l) => l !== lang)) {
        assert.match(
          page.body,
          new RegExp(`<link rel="alternate" hreflang="${other}" href="${BASE_URL}/${other}/jobs/`),
        );
      }

      const form = await get(`${linkPath(job.applyLink)}?lang=${lang}`);
      assert.equal(htmlLang(form.body), lang);
      assert.match(form.body, new RegExp(`<label for="name">${w.name}</label>`));
      assert.ok(textOf(form.body).includes(w.submit.replace(/'/g, "'")), `${lang}: submit`);
      assert.match(form.body, new RegExp(`<input type="hidden" name="lang" value="${lang}">`));

      const feed = await get(`/${lang}/jobs`);
      assert.equal(feed.statusCode, 200);
      assertPageHeaders(feed, `feed ${lang}`);
      assert.equal(htmlLang(feed.body), lang);
      assert.match(feed.body, new RegExp(`<h1>${w.jobs}</h1>`));
    }
  });

  test('the apply page without ?lang follows Accept-Language, else English', async () => {
    const intake = await account('Accept Co');
    const job = await createPublished(intake.api, { title: 'Cleaner' });
    const cases: [string | undefined, Lang][] = [
      ['pt-BR,pt;q=0.9,en;q=0.5', 'pt'],
      ['de-DE,fr;q=0.8', 'fr'],
      ['de-DE', 'en'],
      [undefined, 'en'],
    ];
    for (const [header, lang] of cases) {
      const res = await get(linkPath(job.applyLink), header ? { 'accept-language': header } : {});
      assert.equal(htmlLang(res.body), lang, `${header}`);
    }
  });
});

// =====================================================================================

/** Follows the JSON feed's cursors; answers every job it lists, in order. */
async function jsonFeed(
  app = ctx.app,
  limit = 100,
): Promise<{ id: string; url: string; applyLink: string; title: string }[]> {
  const jobs: { id: string; url: string; applyLink: string; title: string }[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const res = await get(
      `/feed/jobs.json?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      {},
      app,
    );
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { jobs: typeof jobs; nextCursor: string | null };
    jobs.push(...body.jobs);
    cursor = body.nextCursor;
    if (cursor === null) return jobs;
  }
  throw new Error('the feed did not end');
}

/** Follows the HTML feed's rel=next links; answers every job page path it lists, in order. */
async function htmlFeed(lang: Lang, app = ctx.app): Promise<string[]> {
  const paths: string[] = [];
  let url: string | null = `/${lang}/jobs`;
  for (let pages = 0; url && pages < 1000; pages++) {
    const res = await get(url, {}, app);
    assert.equal(res.statusCode, 200, res.body);
    for (const m of res.body.matchAll(/<li class="job"><a href="([^"]+)">/g)) paths.push(m[1]!);
    url = /<a rel="next" href="([^"]+)">/.exec(res.body)?.[1]?.replace(/&amp;/g, '&') ?? null;
  }
  return paths;
}

async function sitemap(app = ctx.app): Promise<string[]> {
  const res = await get('/sitemap.xml', {}, app);
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8');
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.match(
    res.body,
    /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
  );
  return [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
}

describe('job feed: HTML per language, JSON, sitemap', () => {
  test('a published role enters all three on publish and leaves them on close; drafts never appear', async () => {
    const intake = await account('Feed Co');
    const job = await createPublished(intake.api, FULL_AD);
    const draft = await createDraft(intake.api, { title: 'Draft In Feed?' });
    const path = linkPath(job.url!);

    for (const lang of LANGS) {
      assert.ok((await htmlFeed(lang)).includes(path.replace('/en/', `/${lang}/`)), `${lang} HTML feed`);
    }
    const listed = (await jsonFeed()).find((j) => j.id === job.id);
    assert.ok(listed, 'in the JSON feed');
    assert.equal(listed.url, job.url);
    assert.equal(listed.applyLink, job.applyLink);
    assert.equal(listed.title, FULL_AD.title);
    assert.ok((await sitemap()).includes(job.url!), 'in the sitemap');
    assert.ok(!(await jsonFeed()).some((j) => j.id === draft.id), 'no draft');

    const feedRes = await get('/feed/jobs.json');
    assert.match(String(feedRes.headers['content-type']), /^application\/json/);
    assert.equal(feedRes.headers['x-content-type-options'], 'nosniff');

    assert.equal((await intake.api.post(`/v1/jobs/${job.id}/close`)).statusCode, 200);
    for (const lang of LANGS) {
      assert.ok(
        !(await htmlFeed(lang)).includes(path.replace('/en/', `/${lang}/`)),
        `${lang}: gone after close`,
      );
    }
    assert.ok(!(await jsonFeed()).some((j) => j.id === job.id), 'gone from JSON');
    // The sitemap is built at most once per five minutes (a crawler's request costs no query).
    assert.ok((await sitemap()).includes(job.url!), 'the sitemap built before the close is served');
    ctx.clock.advance(SITEMAP_TTL_MS);
    assert.ok(!(await sitemap()).includes(job.url!), 'gone from the sitemap');

    // Re-published: back in the feed at the same address.
    assert.equal((await intake.api.post(`/v1/jobs/${job.id}/publish`, {})).statusCode, 200);
    assert.ok(
      (await jsonFeed()).some((j) => j.id === job.id && j.url === job.url),
      'back after re-publish',
    );
  });

  test('pages: every role exactly once, newest first, in the JSON feed and the HTML feed', async () => {
    const intake = await account('Many Roles Co');
    const ids: string[] = [];
    for (let i = 0; i < 53; i++) {
      ctx.clock.advance(1);
      ids.push((await createPublished(intake.api, { title: `Role number ${i}` })).id);
    }
    const mine = new Set(ids);
    const all = await jsonFeed(ctx.app, 20);
    assert.equal(new Set(all.map((j) => j.id)).size, all.length, 'no job twice');
    const listed = all.filter((j) => mine.has(j.id)).map((j) => j.id);
    assert.deepEqual(listed, [...ids].reverse(), 'all 53, newest first');

    const html = await htmlFeed('es');
    assert.equal(new Set(html).size, html.length, 'no page twice');
    const slugs = html.filter((p) => p.startsWith(`/es/jobs/${intake.account.companyAddress}/`));
    assert.equal(slugs.length, 53);
    assert.ok(all.length > 50, 'more than one HTML page was followed');
  });

  test('the JSON feed refuses a cursor it did not hand out; the HTML feed starts from the top', async () => {
    for (const url of ['/feed/jobs.json?cursor=nonsense', '/feed/jobs.json?limit=0']) {
      const res = await get(url);
      assert.equal(res.statusCode, 400, url);
    }
    const mangled = await get('/en/jobs?cursor=nonsense&utm_source=newsletter');
    assert.equal(mangled.statusCode, 200);
    assert.match(String(mangled.headers['content-type']), /text\/html/);
    assert.equal(mangled.body, (await get('/en/jobs')).body);
    assert.equal((await get('/xx/jobs')).statusCode, 404);
  });
});

// =====================================================================================

describe('time passing: expiry and old form tokens', () => {
  let timed: TestContext;
  before(async () => {
    timed = await startApp({ clock: new ManualClock(T0), handle: ctx.handle });
  });
  after(async () => {
    await timed?.close();
  });

  test('a role whose expiresAt passes leaves the feeds; its pages answer 410', async () => {
    const intake = await account('Expiring Co', timed.app);
    const job = await createPublished(intake.api, { title: 'Seasonal Picker' }, { expiryDays: 30 });
    const form = await openForm(job.applyLink, '', timed.app);
    assert.ok((await jsonFeed(timed.app)).some((j) => j.id === job.id));
    assert.ok((await htmlFeed('en', timed.app)).includes(linkPath(job.url!)));
    assert.ok((await sitemap(timed.app)).includes(job.url!));

    timed.clock.advance(30 * DAY - 1000);
    assert.equal((await get(linkPath(job.url!), {}, timed.app)).statusCode, 200, 'live until expiresAt');

    timed.clock.advance(2000);
    const page = await get(linkPath(job.url!), {}, timed.app);
    assert.equal(page.statusCode, 410);
    assert.ok(textOf(page.body).includes('This role has closed'));
    assert.doesNotMatch(page.body, /\/apply\//);
    assert.equal((await get(linkPath(job.applyLink), {}, timed.app)).statusCode, 410);
    const post = await submit(
      job.id,
      { ...applicant(), csrf: form.token, lang: 'en' },
      { nonce: form.nonce, file: CV(), app: timed.app },
    );
    assert.equal(post.statusCode, 410);
    assert.ok(!(await jsonFeed(timed.app)).some((j) => j.id === job.id), 'gone from JSON');
    assert.ok(!(await htmlFeed('en', timed.app)).includes(linkPath(job.url!)), 'gone from HTML');
    assert.ok(!(await sitemap(timed.app)).includes(job.url!), 'gone from the sitemap');
    assert.equal((await applicationsOf(intake.account.id, job.id, timed.app)).length, 0);
  });

  test('a form older than two hours is refused with the 403 page; a new one works', async () => {
    const intake = await account('Slow Co', timed.app);
    const job = await createPublished(intake.api, { title: 'Slow Applicant Role' });
    const stale = await openForm(job.applyLink, '', timed.app);
    timed.clock.advance(2 * 60 * 60_000 + 1000);
    const res = await submit(
      job.id,
      { ...applicant(), csrf: stale.token, lang: 'en' },
      { nonce: stale.nonce, file: CV(), app: timed.app },
    );
    assert.equal(res.statusCode, 403);
    assert.equal((await applicationsOf(intake.account.id, job.id, timed.app)).length, 0);
    const fresh = await openForm(job.applyLink, '', timed.app);
    const ok = await submit(
      job.id,
      { ...applicant(), csrf: fresh.token, lang: 'en' },
      { nonce: fresh.nonce, file: CV(), app: timed.app },
    );
    assert.equal(ok.statusCode, 201, ok.body);
  });
});
