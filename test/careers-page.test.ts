import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { consoleCall, intakeAccount, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { accessibleAtBothWidths, NO_CHROMIUM, offlineContext, useBrowser } from './support/browser.ts';
import { createDraft, createPublished } from './support/jobs.ts';

/**
 * The company's careers page (issue 33 item 1, extensions.md §9): one account's live roles with
 * its logo and name, the feed's filters and paging, indexable and cached like the feed, each
 * role linking to its job page; 404 for an unknown company, 301 from a retired address.
 */

const ctx = useTestApp({ listen: true });
const browser = useBrowser();

let acme: Awaited<ReturnType<typeof intakeAccount>>;
let other: Awaited<ReturnType<typeof intakeAccount>>;
const address = unique('acme').toLowerCase();

async function get(url: string) {
  return ctx.app.inject({ method: 'GET', url });
}

/** The titles listed, in order. */
function titles(body: string): string[] {
  return [...body.matchAll(/<li class="job"><a href="[^"]+"><strong>([^<]+)<\/strong>/g)].map((m) => m[1]!);
}

describe('the careers page', () => {
  test('seed: two companies, live, draft and closed roles', async () => {
    acme = await intakeAccount(ctx.app, { companyName: 'Acme Rockets', companyAddress: address });
    other = await intakeAccount(ctx.app, { companyName: 'Other Corp' });
    const logo = await consoleCall(ctx.app, 'PATCH', `/accounts/${acme.account.id}`, {
      logoUrl: 'https://cdn.example/acme.png',
    });
    assert.equal(logo.statusCode, 200, logo.body);
    await createPublished(acme.api, {
      title: 'Rocket Engineer',
      category: 'engineering',
      location: { city: 'Brisbane', country: 'AU', remotePolicy: 'onsite' },
      salary: { min: 120000, max: 140000, currency: 'AUD', period: 'year' },
    });
    ctx.clock.advance(1000);
    await createPublished(acme.api, {
      title: 'Remote Data Analyst',
      category: 'data',
      location: { country: 'NZ', remotePolicy: 'remote' },
    });
    ctx.clock.advance(1000);
    await createDraft(acme.api, { title: 'Secret Draft Role' });
    const closed = await createPublished(acme.api, { title: 'Closed Role' });
    assert.equal((await acme.api.post(`/v1/jobs/${closed.id}/close`)).statusCode, 200);
    await createPublished(other.api, { title: 'Someone Else’s Role' });
  });

  test('lists only the account’s live roles, newest first, with its logo and name, linking to each job page', async () => {
    const res = await get(`/en/jobs/${address}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(titles(res.body), ['Remote Data Analyst', 'Rocket Engineer']);
    assert.match(res.body, /<h1>Jobs at Acme Rockets<\/h1>/);
    assert.match(res.body, /<img class="logo" src="https:\/\/cdn\.example\/acme\.png"/);
    assert.match(
      res.body,
      new RegExp(`<a href="/en/jobs/${address}/rocket-engineer[^"]*"><strong>Rocket Engineer`),
    );
    assert.match(res.body, /A\$120,000/);
    // Indexable and cached like the feed; canonical at the public address.
    assert.equal(res.headers['cache-control'], 'public, max-age=60');
    assert.doesNotMatch(res.body, /noindex/);
    assert.match(res.body, new RegExp(`<link rel="canonical" href="${ctx.baseUrl}/en/jobs/${address}">`));
    // The job page it links to answers.
    const link = /<a href="(\/en\/jobs\/[^"]+)"><strong>Rocket Engineer/.exec(res.body)![1]!;
    assert.equal((await get(link)).statusCode, 200);
  });

  test('the feed’s filters, in the page language, with the form posting back to the careers page', async () => {
    assert.deepEqual(titles((await get(`/en/jobs/${address}?category=data`)).body), ['Remote Data Analyst']);
    assert.deepEqual(titles((await get(`/en/jobs/${address}?remote=1`)).body), ['Remote Data Analyst']);
    assert.deepEqual(titles((await get(`/en/jobs/${address}?place=brisbane`)).body), ['Rocket Engineer']);
    assert.deepEqual(titles((await get(`/en/jobs/${address}?q=engineer`)).body), ['Rocket Engineer']);
    const none = await get(`/en/jobs/${address}?q=nothingmatches`);
    assert.deepEqual(titles(none.body), []);
    assert.match(none.body, /No jobs match these filters\./);
    assert.match(none.body, new RegExp(`<form class="filters" method="get" action="/en/jobs/${address}"`));
    const fr = await get(`/fr/jobs/${address}`);
    assert.match(fr.body, /<h1>Offres chez Acme Rockets<\/h1>/);
    assert.match(fr.body, /<html lang="fr">/);
  });

  test('an unknown company is the 404 page; a bad language is the plain 404; a retired address moves', async () => {
    const missing = await get('/en/jobs/no-such-company-here');
    assert.equal(missing.statusCode, 404);
    assert.match(String(missing.headers['content-type']), /text\/html/);
    assert.equal((await get(`/xx/jobs/${address}`)).statusCode, 404);
    const renamed = await intakeAccount(ctx.app, { companyName: 'Renamed Co' });
    const old = renamed.account.companyAddress!;
    const fresh = unique('renamed').toLowerCase();
    const patched = await consoleCall(ctx.app, 'PATCH', `/accounts/${renamed.account.id}`, {
      companyAddress: fresh,
    });
    assert.equal(patched.statusCode, 200, patched.body);
    const moved = await get(`/en/jobs/${old}?category=data`);
    assert.equal(moved.statusCode, 301);
    assert.equal(moved.headers.location, `/en/jobs/${fresh}?category=data`);
    const empty = await get(`/en/jobs/${fresh}`);
    assert.equal(empty.statusCode, 200);
    assert.match(empty.body, /Renamed Co has no open roles right now\./);
  });

  test('paging: 51 roles make two pages; the next link keeps the filters; a mangled cursor starts over', async () => {
    const many = await intakeAccount(ctx.app, { companyName: 'Many Roles' });
    for (let i = 0; i < 51; i++) {
      await createPublished(many.api, { title: `Role ${String(i).padStart(2, '0')}`, category: 'sales' });
      ctx.clock.advance(10);
    }
    const first = await get(`/en/jobs/${many.account.companyAddress}?category=sales`);
    assert.equal(titles(first.body).length, 50);
    assert.equal(titles(first.body)[0], 'Role 50');
    const next = /<a rel="next" href="([^"]+)"/.exec(first.body)![1]!.replaceAll('&amp;', '&');
    assert.match(next, new RegExp(`^/en/jobs/${many.account.companyAddress}\\?category=sales&cursor=`));
    assert.match(first.body, /<link rel="next" href=/);
    const second = await get(next);
    assert.deepEqual(titles(second.body), ['Role 00']);
    assert.match(second.body, /First page/);
    const mangled = await get(`/en/jobs/${many.account.companyAddress}?cursor=%21%21`);
    assert.equal(titles(mangled.body).length, 50);
  });
});

describe('in the browser', { skip: NO_CHROMIUM }, () => {
  test('phone and desktop: no sideways scroll, no serious axe finding; a role opens its page', async () => {
    const context = await offlineContext(browser, ctx.baseUrl);
    const page = await context.newPage();
    await page.goto(`${ctx.baseUrl}/en/jobs/${address}`);
    await accessibleAtBothWidths(page, 'careers-page');
    await page.getByLabel('Category').selectOption('engineering');
    await page.getByRole('button', { name: 'Show jobs' }).click();
    await page.waitForURL(/category=engineering/);
    await page.getByRole('link', { name: 'Rocket Engineer' }).click();
    await page.getByRole('heading', { level: 1, name: 'Rocket Engineer' }).waitFor();
    await context.close();
  });
});
