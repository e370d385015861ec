import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { intakeAccount, unique } from './support/accounts.ts';
import { listen, useTestApp } from './support/app.ts';
import { ARTIFACTS, launchChromium, NO_CHROMIUM } from './support/browser.ts';
import { createPublished } from './support/jobs.ts';

/**
 * The job seeker feed (issue 15 item 12): salary on each role, server-side filters (category,
 * place, remote) and a text search, every filtered list at its own GET address, paging that keeps
 * the filters, in the four languages; screenshots at phone and desktop width.
 */

// The database is shared with other tests' roles: every role here carries this word in its title.
const TAG = unique('Zq').replace(/[^A-Za-z0-9]/g, '');

const ctx = useTestApp({}, async () => {
  const a = await intakeAccount(ctx.app, { companyName: 'Harbour Analytics' });
  const b = await intakeAccount(ctx.app, { companyName: 'Ponte Software' });
  await createPublished(a.api, {
    title: `${TAG} Data Engineer`,
    category: 'data',
    skills: [{ name: 'PostgreSQL', level: 'required' }],
    salary: { min: 90000, max: 110000, currency: 'AUD', period: 'year' },
    location: { city: 'Brisbane', country: 'AU', remotePolicy: 'hybrid' },
  });
  ctx.clock.advance(1000); // newest first: each role a second after the one before
  await createPublished(a.api, {
    title: `${TAG} Support Lead`,
    category: 'customer_success',
    location: { country: 'NZ', remotePolicy: 'remote' },
  });
  ctx.clock.advance(1000);
  await createPublished(b.api, {
    title: `${TAG} Backend Engineer`,
    category: 'engineering',
    skills: [{ name: 'TypeScript', level: 'required' }],
    salary: { min: 4000, currency: 'EUR', period: 'month' },
    location: { city: 'Lisboa', country: 'PT', remotePolicy: 'onsite' },
  });
});

async function page(url: string) {
  const res = await ctx.app.inject({ method: 'GET', url });
  assert.equal(res.statusCode, 200, res.body);
  return res.body;
}

/** The titles of the roles listed, in order, of this file's roles only. */
function titles(html: string): string[] {
  return [...html.matchAll(/<li class="job"><a href="[^"]+"><strong>([^<]+)<\/strong>/g)]
    .map((m) => m[1]!)
    .filter((t) => t.startsWith(TAG))
    .map((t) => t.slice(TAG.length + 1));
}

describe('filters and search, server-side', () => {
  test('each filter alone and combined; blank and unknown values are no filter', async () => {
    const cases: [string, string[]][] = [
      [`q=${TAG}`, ['Backend Engineer', 'Support Lead', 'Data Engineer']],
      [`q=${TAG}&category=data`, ['Data Engineer']],
      [`q=${TAG}&remote=1`, ['Support Lead']],
      [`q=${TAG}&place=brisb`, ['Data Engineer']],
      [`q=${TAG}&place=PT`, ['Backend Engineer']],
      // The search reads the title, the company and the skills.
      [`q=${TAG}+Engineer`, ['Backend Engineer', 'Data Engineer']],
      [
        `q=${TAG}&q2=x&category=nonsense&place=&utm_source=news`,
        ['Backend Engineer', 'Support Lead', 'Data Engineer'],
      ],
      [`q=${TAG}&category=engineering&place=lisboa`, ['Backend Engineer']],
    ];
    for (const [query, expected] of cases) {
      assert.deepEqual(titles(await page(`/en/jobs?${query}`)), expected, query);
    }
    // Company and skill words find roles too (checked by the JSON feed, which lists every field).
    for (const [q, expected] of [
      ['Ponte Software', [`${TAG} Backend Engineer`]],
      ['postgresql', [`${TAG} Data Engineer`]],
    ] as const) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/feed/jobs.json?q=${encodeURIComponent(q)}&limit=100`,
      });
      const mine = (res.json().jobs as { title: string }[])
        .map((j) => j.title)
        .filter((t) => t.startsWith(TAG));
      assert.deepEqual(mine, expected, q);
    }
  });

  test('the form shows the filters it was sent; a % or _ in the search is taken literally', async () => {
    const html = await page(`/fr/jobs?q=${TAG}&category=data&place=Brisbane&remote=1`);
    assert.match(html, new RegExp(`<input type="search" id="q" name="q" maxlength="100" value="${TAG}">`));
    assert.match(html, /<option value="data" selected>Données<\/option>/);
    assert.match(html, /value="Brisbane"/);
    assert.match(html, /name="remote" value="1" checked/);
    assert.match(html, /<a href="\/fr\/jobs">Effacer les filtres<\/a>/);
    assert.match(html, /Aucune offre ne correspond à ces filtres/, 'Brisbane is not remote: nothing');
    assert.deepEqual(titles(await page(`/en/jobs?q=${encodeURIComponent(`${TAG}%`)}`)), []);
    assert.deepEqual(titles(await page(`/en/jobs?q=${encodeURIComponent(`${TAG.slice(0, -1)}_`)}`)), []);
  });

  test('salary, place and remote policy on each role, in the page language', async () => {
    const html = await page(`/es/jobs?q=${TAG}`);
    const text = html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    assert.match(text, /Brisbane, Australia/);
    assert.match(text, /Nueva Zelanda/);
    assert.match(text, /90\.000\s?AUD – 110\.000\s?AUD|AUD\s?90\.000 – AUD\s?110\.000/);
    assert.match(text, /4000\s?€|4\.000\s?€/);
    assert.match(text, /En remoto|Remoto/);
  });

  test('a NUL in a filter is a 400 in the spec body, never a 500', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/feed/jobs.json?q=a%00b' });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().error.code, 'bad_request');
  });
});

describe('screenshots', { skip: NO_CHROMIUM }, () => {
  test('the filtered feed at 390 and 1280 wide: nothing overflows sideways', async () => {
    const base = await listen(ctx.app);
    const browser = await launchChromium();
    try {
      for (const width of [390, 1280]) {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const tab = await context.newPage();
        await tab.goto(`${base}/en/jobs?q=${TAG}`);
        // Filled through the form a person sees: the label names each control.
        await tab.getByLabel('Category').selectOption('engineering');
        await tab.getByRole('button', { name: 'Show jobs' }).click();
        await tab.waitForURL(/category=engineering/);
        assert.equal(await tab.locator('li.job').count(), 1);
        const overflow = await tab.evaluate('document.documentElement.scrollWidth > window.innerWidth');
        assert.equal(overflow, false, `${width}: no sideways scroll`);
        await tab.goto(`${base}/en/jobs?q=${TAG}`);
        await tab.screenshot({ path: path.join(ARTIFACTS, `job-feed-${width}.png`), fullPage: true });
        await context.close();
      }
    } finally {
      await browser.close();
    }
  });
});

describe('paging keeps the filters', () => {
  test('the JSON feed pages a filtered list with its cursor', async () => {
    const seen: string[] = [];
    let url = `/feed/jobs.json?q=${TAG}&limit=1`;
    for (let i = 0; i < 5; i++) {
      const body = (await ctx.app.inject({ method: 'GET', url })).json();
      seen.push(...(body.jobs as { title: string }[]).map((j) => j.title.slice(TAG.length + 1)));
      if (!body.nextCursor) break;
      url = `/feed/jobs.json?q=${TAG}&limit=1&cursor=${encodeURIComponent(body.nextCursor)}`;
    }
    assert.deepEqual(seen, ['Backend Engineer', 'Support Lead', 'Data Engineer']);
  });

  test('the HTML page’s next link carries the filters (51 roles: more than a page)', async () => {
    const many = await intakeAccount(ctx.app, { companyName: 'Paging Co' });
    const word = `${TAG}p`;
    for (let i = 0; i < 51; i++)
      await createPublished(many.api, { title: `${word} Role ${i}`, category: 'retail' });
    const first = await page(`/pt/jobs?q=${word}&category=retail`);
    const next = /<a rel="next" href="([^"]+)">/.exec(first)?.[1]?.replaceAll('&amp;', '&');
    assert.ok(next, 'a next link');
    const url = new URL(next!, 'https://x.test');
    assert.equal(url.searchParams.get('q'), word);
    assert.equal(url.searchParams.get('category'), 'retail');
    const second = await page(next!);
    assert.equal([...second.matchAll(/<li class="job">/g)].length, 1, 'the 51st role');
    assert.match(
      second,
      new RegExp(`<a href="/pt/jobs\\?q=${word}&amp;category=retail">Primeira página</a>`),
    );
  });
});
