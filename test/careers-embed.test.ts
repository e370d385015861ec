import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { multipart } from './apply-form-client.ts';
import { signedIn } from './console-web-client.ts';
import { consoleCall, intakeAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { createPublished } from './support/jobs.ts';

/**
 * The careers embed without a browser (issue 33 item 2, extensions.md §9): embedOrigins on the
 * account and their checks, the framing headers of every embeddable page, the host page's script,
 * the compact themed mode, and the apply form's cookie-less CSRF inside the frame (channel embed).
 * test/careers-embed-browser.test.ts drives the same through Chromium from another origin.
 */

const ctx = useTestApp();
const CV = fs.readFileSync(path.resolve(import.meta.dirname, 'fixtures', 'pdf', 'cv-2-pages.pdf'));

let acme: Awaited<ReturnType<typeof intakeAccount>>;
let job: { id: string; applyLink: string; url: string };
let company: string;

const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });
const patch = (body: Record<string, unknown>) =>
  consoleCall(ctx.app, 'PATCH', `/accounts/${acme.account.id}`, body);

describe('embedOrigins', () => {
  test('seed', async () => {
    acme = await intakeAccount(ctx.app, { companyName: 'Acme Rockets' });
    company = acme.account.companyAddress!;
    job = (await createPublished(acme.api, { title: 'Rocket Engineer' })) as typeof job;
  });

  test('normalised and deduplicated; the account shows them; an empty list clears them', async () => {
    const res = await patch({
      embedOrigins: [
        'https://WWW.Acme.example:443/',
        'https://www.acme.example',
        'http://localhost:5173',
        'https://jobs.acme.example:8443',
      ],
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().account.embedOrigins, [
      'https://www.acme.example',
      'http://localhost:5173',
      'https://jobs.acme.example:8443',
    ]);
    const read = await consoleCall(ctx.app, 'GET', `/accounts/${acme.account.id}`);
    assert.deepEqual(read.json().account.embedOrigins.length, 3);
    assert.deepEqual((await patch({ embedOrigins: [] })).json().account.embedOrigins, []);
  });

  test('anything but an origin is a 400 naming the field: http elsewhere, a path, a wildcard, a CSP breaker, 21 origins', async () => {
    const bad = [
      ['http://www.acme.example'],
      ['https://www.acme.example/careers'],
      ['https://*.acme.example'],
      ['https://www.acme.example; script-src *'],
      ["'self'"],
      ['https://user@www.acme.example'],
      ['https://www.acme.example?x=1'],
      ['ftp://www.acme.example'],
      ['https://intranet'],
      Array.from({ length: 21 }, (_, i) => `https://s${i}.acme.example`),
    ];
    for (const embedOrigins of bad) {
      const res = await patch({ embedOrigins });
      assert.equal(res.statusCode, 400, `${embedOrigins[0]}: ${res.body}`);
      assert.equal(res.json().error.code, 'bad_request');
    }
    assert.deepEqual(
      (await consoleCall(ctx.app, 'GET', `/accounts/${acme.account.id}`)).json().account.embedOrigins,
      [],
    );
  });
});

describe('framing', () => {
  test('no origins: every page refuses to be framed, as before', async () => {
    for (const url of [`/en/jobs/${company}`, new URL(job.url).pathname, `/apply/${job.id}`]) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/, url);
      assert.equal(res.headers['x-frame-options'], 'DENY', url);
    }
  });

  test('with origins: the careers, job and apply pages name exactly them, without X-Frame-Options', async () => {
    assert.equal(
      (await patch({ embedOrigins: ['https://www.acme.example', 'http://localhost:5173'] })).statusCode,
      200,
    );
    for (const url of [
      `/en/jobs/${company}`,
      `/en/jobs/${company}?embed=1`,
      `${new URL(job.url).pathname}?embed=1`,
      `/apply/${job.id}?embed=1`,
      `/apply/${job.id}`,
    ]) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, url);
      assert.match(
        String(res.headers['content-security-policy']),
        /; frame-ancestors https:\/\/www\.acme\.example http:\/\/localhost:5173$/,
        url,
      );
      assert.equal(res.headers['x-frame-options'], undefined, url);
    }
    // Another account's pages, and the feed of everyone's, still refuse.
    const other = await intakeAccount(ctx.app);
    const theirs = await get(`/en/jobs/${other.account.companyAddress}`);
    assert.match(String(theirs.headers['content-security-policy']), /frame-ancestors 'none'/);
    assert.match(
      String((await get('/en/jobs')).headers['content-security-policy']),
      /frame-ancestors 'none'/,
    );
  });
});

describe('the host page’s script and the compact mode', () => {
  test('GET /embed/{company}.js: a script naming this service and the company; 404 for an unknown one', async () => {
    const res = await get(`/embed/${company}.js`);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/javascript/);
    assert.equal(res.headers['cache-control'], 'public, max-age=300');
    assert.match(res.body, new RegExp(`const BASE = "${ctx.baseUrl}";`));
    assert.match(res.body, new RegExp(`const COMPANY = "${company}";`));
    assert.match(res.body, /event\.source !== frame\.contentWindow \|\| event\.origin !== ORIGIN/);
    assert.ok(res.body.length < 4000, `small: ${res.body.length} bytes`);
    assert.equal((await get('/embed/no-such-company.js')).statusCode, 404);
    assert.equal((await get(`/embed/${company}`)).statusCode, 404);
    const frame = await get('/assets/embed-frame.js');
    assert.equal(frame.statusCode, 200);
    assert.match(frame.body, /careers-embed:height/);
  });

  test('embed=1: no site header, the accent (hex only), the frame script, noindex, and every link keeps the mode', async () => {
    const res = await get(`/en/jobs/${company}?embed=1&accent=0A7D5A`);
    assert.doesNotMatch(res.body, /<header class="site">/);
    assert.match(res.body, /button,a\.button\{background:#0a7d5a;border-color:#0a7d5a;color:#fff\}/);
    assert.match(res.body, /<script src="\/assets\/embed-frame\.js" defer><\/script>/);
    assert.match(res.body, /<meta name="robots" content="noindex">/);
    assert.match(
      res.body,
      /<a href="\/en\/jobs\/[^"]+\/rocket-engineer[^"]*\?embed=1&amp;accent=0a7d5a"><strong>Rocket Engineer/,
    );
    assert.match(
      res.body,
      /<input type="hidden" name="embed" value="1"><input type="hidden" name="accent" value="0a7d5a">/,
    );
    // A light accent gets dark text; a colour that is not hex is no accent at all.
    assert.match((await get(`/en/jobs/${company}?embed=1&accent=ffeb3b`)).body, /color:#000\}/);
    for (const accent of ['red', '0a7d5a;}body{x', 'url(x)', '%230a7d5a%3B']) {
      const page = await get(`/en/jobs/${company}?embed=1&accent=${encodeURIComponent(accent)}`);
      // Too long for the parameter: the 400 page; else the page without an accent.
      assert.ok(page.statusCode === 200 || page.statusCode === 400, accent);
      assert.doesNotMatch(page.body, /button,a\.button\{background/, accent);
    }
    const jobPage = await get(`${new URL(job.url).pathname}?embed=1&accent=0a7d5a`);
    assert.match(
      jobPage.body,
      /href="[^"]*\/apply\/[^"]+\?lang=en&amp;via=embed&amp;embed=1&amp;accent=0a7d5a"/,
    );
    assert.match(
      jobPage.body,
      new RegExp(`<a href="/en/jobs/${company}\\?embed=1&amp;accent=0a7d5a">Jobs at Acme Rockets</a>`),
    );
  });
});

/** The embedded form: its token, action and hidden fields, and whether it set a cookie. */
async function embeddedForm() {
  const res = await get(`/apply/${job.id}?lang=en&via=embed&embed=1`);
  assert.equal(res.statusCode, 200, res.body);
  const action = /<form method="post" action="([^"]+)"/.exec(res.body)![1]!.replace(/&amp;/g, '&');
  const hidden: Record<string, string> = {};
  for (const m of res.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    hidden[m[1]!] = m[2]!;
  return { res, action, hidden };
}

async function post(
  action: string,
  fields: Record<string, string>,
  headers: Record<string, string>,
  ip: string,
) {
  const { body, contentType } = await multipart({ website: '', ...fields }, { name: 'cv.pdf', bytes: CV });
  return ctx.app.inject({
    method: 'POST',
    url: action,
    payload: body,
    headers: { 'content-type': contentType, 'user-agent': 'EmbedTest/1.0', ...headers },
    remoteAddress: ip,
  });
}

describe('applying inside the frame without cookies', () => {
  test('the embedded form sets no cookie; its post needs no cookie when the browser says same-origin; channel embed', async () => {
    const form = await embeddedForm();
    assert.equal(form.res.headers['set-cookie'], undefined, 'no third-party cookie to depend on');
    assert.match(form.action, /&embed=1$/);
    assert.equal(form.hidden.via, 'embed');
    assert.doesNotMatch(form.res.body, /<header class="site">/);
    const fields = { ...form.hidden, name: 'Framed Applicant', email: 'framed@example.com' };
    // From another site (a forged post): refused, nothing stored.
    const forged = await post(form.action, fields, { 'sec-fetch-site': 'cross-site' }, '10.33.0.1');
    assert.equal(forged.statusCode, 403);
    // No Sec-Fetch-Site and an Origin of null (the page's no-referrer): refused too.
    const unknown = await post(form.action, fields, { origin: 'null' }, '10.33.0.2');
    assert.equal(unknown.statusCode, 403);
    const sent = await post(form.action, fields, { 'sec-fetch-site': 'same-origin' }, '10.33.0.3');
    assert.equal(sent.statusCode, 201, sent.body);
    assert.match(
      sent.headers['content-security-policy'] as string,
      /frame-ancestors https:\/\/www\.acme\.example/,
    );
    assert.match(sent.body, new RegExp(`href="/en/jobs/${company}\\?embed=1"`));
    const rows = await ctx.handle.db
      .selectFrom('applications')
      .select(['source_channel', 'source'])
      .where('job_id', '=', job.id)
      .execute();
    assert.deepEqual(rows, [{ source_channel: 'embed', source: 'job_page' }]);
  });

  test('the page’s own token still needs its cookie: without it, same-origin or not, 403', async () => {
    const res = await get(`/apply/${job.id}?lang=en`);
    const cookie = res.cookies.find((c) => c.name === 'apply_csrf');
    assert.ok(cookie, 'the page outside the frame keeps its SameSite cookie');
    const action = /<form method="post" action="([^"]+)"/.exec(res.body)![1]!.replace(/&amp;/g, '&');
    const hidden: Record<string, string> = {};
    for (const m of res.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
      hidden[m[1]!] = m[2]!;
    const fields = { ...hidden, name: 'Plain Applicant', email: 'plain@example.com' };
    // Its token, taken into the embed's mode: the framed MAC differs, so it does not pass there.
    const posing = await post(`${action}&embed=1`, fields, { 'sec-fetch-site': 'same-origin' }, '10.33.0.4');
    assert.equal(posing.statusCode, 403);
    const ok = await post(
      action,
      fields,
      { cookie: `apply_csrf=${cookie.value}`, 'sec-fetch-site': 'same-origin' },
      '10.33.0.5',
    );
    assert.equal(ok.statusCode, 201, ok.body);
  });

  test('the upload slot takes the framed token from this origin only', async () => {
    const form = await embeddedForm();
    const slot = (site: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/apply/${job.id}/upload`,
        payload: { bytes: CV.length, csrf: form.hidden.csrf },
        headers: { 'sec-fetch-site': site },
        remoteAddress: '10.33.0.6',
      });
    assert.equal((await slot('cross-site')).statusCode, 403);
    assert.equal((await slot('same-origin')).statusCode, 201);
  });
});

describe('the Settings page', () => {
  const flashOf = (body: string) => /class="flash (ok|error)"[^>]*>([^<]*)</.exec(body)?.slice(1) ?? [];

  test('an admin sees the snippet, saves the sites one per line, and is told which one is not an origin', async () => {
    const admin = await signedIn(ctx.app, acme.account.id, 'admin');
    const page = await admin.web.get('/console/settings');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<h2 id="embed-h">Careers page on your site<\/h2>/);
    // The snippet, shown as text (escaped) in a read-only field.
    assert.match(
      page.body,
      new RegExp(`&lt;script src=&quot;${ctx.baseUrl}/embed/${company}\\.js&quot; data-lang=&quot;en&quot;`),
    );
    const saved = await admin.web.post('/console/settings/embed', {
      csrf: admin.web.csrf(),
      embedOrigins: 'https://shop.acme.example\r\nhttp://127.0.0.1:8080\r\n',
    });
    assert.equal(saved.statusCode, 303);
    const after = await admin.web.get('/console/settings');
    assert.deepEqual(flashOf(after.body), ['ok', 'Saved: 2 sites may embed your pages.']);
    assert.match(after.body, /https:\/\/shop\.acme\.example\nhttp:\/\/127\.0\.0\.1:8080<\/textarea>/);
    const account = (await consoleCall(ctx.app, 'GET', `/accounts/${acme.account.id}`)).json().account;
    assert.deepEqual(account.embedOrigins, ['https://shop.acme.example', 'http://127.0.0.1:8080']);
    await admin.web.post('/console/settings/embed', {
      csrf: admin.web.csrf(),
      embedOrigins: 'https://ok.acme.example\nhttp://plain.acme.example',
    });
    const refused = await admin.web.get('/console/settings');
    assert.equal(flashOf(refused.body)[0], 'error');
    assert.match(flashOf(refused.body)[1]!, /embedOrigins\[1\] is not an origin/);
    const unchanged = (await consoleCall(ctx.app, 'GET', `/accounts/${acme.account.id}`)).json().account;
    assert.deepEqual(unchanged.embedOrigins, ['https://shop.acme.example', 'http://127.0.0.1:8080']);
  });
});
