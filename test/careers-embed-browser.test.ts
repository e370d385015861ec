import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { test } from 'node:test';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { consoleCall, intakeAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { NO_CHROMIUM, recruiterPage, SHOTS, seriousAxeFindings, useBrowser } from './support/browser.ts';
import { createPublished } from './support/jobs.ts';

/**
 * The careers embed in Chromium (issue 33's "done when"): a host page on another site
 * (http://localhost:{port}, while the service answers at http://127.0.0.1:{port}) pastes the
 * script. Refused before the origin is allowed; after, the iframe shows the jobs, fits its
 * content, opens a job, and a candidate applies inside it with third-party cookies blocked
 * (Chromium's third-party-cookie phase-out test mode); the console shows the channel `embed`.
 */

const ctx = useTestApp({ listen: true });
// Chromium blocks third-party cookies as it does for users who chose so.
const browser = useBrowser(['--test-third-party-cookie-phaseout']);
const CV_PDF = path.resolve(import.meta.dirname, 'fixtures', 'pdf', 'cv-2-pages.pdf');

let hostOrigin = '';

function hostPage(company: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Acme careers</title></head>
<body><main><h1>Work at Acme</h1><p>Our open roles:</p>
<script src="${ctx.baseUrl}/embed/${company}.js" data-lang="en" data-accent="#0a7d5a" async></script>
</main><footer><p>Acme Rockets, footer below the embed.</p></footer></body></html>`;
}

/**
 * The employer's site: a real server on localhost (Chromium's local-network checks treat a page
 * the test fulfils itself as public, and would refuse its loopback script for that alone).
 */
async function hostSite(company: string): Promise<http.Server> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostPage(company));
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  hostOrigin = `http://localhost:${address.port}`;
  return server;
}

/** A context that reaches only the service and the host site. */
async function hostContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  context.setDefaultTimeout(20_000);
  await context.route('**/*', (route) => {
    const url = route.request().url();
    return url.startsWith(ctx.baseUrl) || url.startsWith(`${hostOrigin}/`) ? route.continue() : route.abort();
  });
  return context;
}

/** The embed's frame once it shows a page of the service. */
async function serviceFrame(page: Page): Promise<Frame | undefined> {
  return page.frames().find((f) => f !== page.mainFrame() && f.url().startsWith(ctx.baseUrl));
}

test('refused before the origin is allowed; then it shows the jobs, fits, opens a job and takes an application with third-party cookies blocked', {
  skip: NO_CHROMIUM,
}, async (t) => {
  const acme = await intakeAccount(ctx.app, { companyName: 'Acme Rockets' });
  const company = acme.account.companyAddress!;
  const job = await createPublished(acme.api, {
    title: 'Rocket Engineer',
    location: { city: 'Brisbane', country: 'AU', remotePolicy: 'onsite' },
  });
  await createPublished(acme.api, { title: 'Launch Technician' });
  const site = await hostSite(company);
  t.after(() => new Promise<void>((resolve) => site.close(() => resolve())));

  // Before: the frame is refused (CSP frame-ancestors 'none'): Chromium shows its error page instead.
  const before = await hostContext();
  const refused = await before.newPage();
  const framed = refused.waitForResponse((r) => r.url().startsWith(`${ctx.baseUrl}/en/jobs/${company}`));
  await refused.goto(`${hostOrigin}/`);
  const answer = await framed;
  assert.match(String(await answer.headerValue('content-security-policy')), /frame-ancestors 'none'/);
  await refused.waitForTimeout(500);
  assert.equal(await serviceFrame(refused), undefined, 'the careers page is not shown inside the host page');
  await before.close();

  const allowed = await consoleCall(ctx.app, 'PATCH', `/accounts/${acme.account.id}`, {
    embedOrigins: [hostOrigin],
  });
  assert.equal(allowed.statusCode, 200, allowed.body);

  // After (a fresh browser cache): the jobs, in a frame that fits its content.
  const context = await hostContext();
  const page = await context.newPage();
  await page.goto(`${hostOrigin}/`);
  const frame = page.frameLocator('iframe');
  await frame.getByRole('heading', { level: 1, name: 'Jobs at Acme Rockets' }).waitFor();
  await frame.getByRole('link', { name: 'Rocket Engineer' }).waitFor();
  const fits = async () => {
    const f = (await serviceFrame(page))!;
    const content = (await f.evaluate(
      'Math.ceil(document.documentElement.getBoundingClientRect().height)',
    )) as number;
    const box = (await page.evaluate(
      "document.querySelector('iframe').getBoundingClientRect().height",
    )) as number;
    return { content, box };
  };
  await page.waitForFunction("document.querySelector('iframe')?.style.height !== '480px'");
  const size = await fits();
  assert.ok(Math.abs(size.box - size.content) <= 2, `the frame fits its content: ${JSON.stringify(size)}`);
  const inner = (await serviceFrame(page))!;
  assert.equal(await inner.evaluate('document.documentElement.scrollHeight > window.innerHeight + 1'), false);
  // Inside first: axe then finds itself in the frame when it checks the host page's iframe.
  assert.deepEqual(await seriousAxeFindings(inner as unknown as Page), [], 'inside the embed at 390 px');
  assert.deepEqual(await seriousAxeFindings(page), [], 'the host page with the embed at 390 px');
  await page.screenshot({ path: path.join(SHOTS, 'careers-embed-390.png'), fullPage: true });

  // A job inside the frame, then its form; the frame grows with it.
  await frame.getByRole('link', { name: 'Rocket Engineer' }).click();
  await frame.getByRole('heading', { level: 1, name: 'Rocket Engineer' }).waitFor();
  await frame.getByRole('link', { name: 'Apply now' }).first().click();
  await frame.getByLabel('Full name').waitFor();
  await page.waitForFunction(`parseFloat(document.querySelector('iframe').style.height) > ${size.box}`);
  const formSize = await fits();
  assert.ok(Math.abs(formSize.box - formSize.content) <= 2, `the form fits: ${JSON.stringify(formSize)}`);
  await frame.getByLabel('Full name').fill('Embedded Applicant');
  await frame.getByLabel('Email').fill('embedded@example.com');
  await frame.getByLabel('Your CV (PDF)').setInputFiles(CV_PDF);
  const posted = page.waitForRequest(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === `/apply/${job.id}`,
  );
  await frame.getByRole('button', { name: 'I agree — send my application' }).click();
  const request = await posted;
  assert.doesNotMatch(
    (await request.allHeaders()).cookie ?? '',
    /apply_csrf/,
    'no cookie went with the post',
  );
  assert.equal(await (await request.response())?.status(), 201);
  await frame.getByRole('heading', { level: 1, name: 'Application sent' }).waitFor();
  assert.equal((await context.cookies(ctx.baseUrl)).length, 0, 'the service set no cookie at all');
  await page.screenshot({ path: path.join(SHOTS, 'careers-embed-sent-390.png'), fullPage: true });
  await context.close();

  // The console shows where it came from.
  const list = await consoleCall(ctx.app, 'GET', `/accounts/${acme.account.id}/jobs/${job.id}/applications`);
  assert.equal(list.statusCode, 200, list.body);
  const rows = await ctx.handle.db
    .selectFrom('applications')
    .select('source_channel')
    .where('job_id', '=', job.id)
    .execute();
  assert.deepEqual(rows, [{ source_channel: 'embed' }]);
  const [listed] = list.json().applications as { applicationId: string; source: string }[];
  assert.equal(listed?.source, 'embed', 'the console API shows the channel');
  // And the recruiter's page of the application says so in words.
  const desk = await recruiterPage(browser, ctx, acme.account.id);
  await desk.page.goto(`${ctx.baseUrl}/console/applications/${listed?.applicationId}`);
  assert.match(
    (await desk.page.locator('dl.facts').first().textContent()) ?? '',
    /Came from\s*Embedded form/,
  );
  await desk.context.close();
});
