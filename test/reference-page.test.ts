import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { useTestApp } from './support/app.ts';
import { ARTIFACTS, NO_CHROMIUM, useBrowser } from './support/browser.ts';

/**
 * The reference page at /v1/reference: rendered by Scalar from the served document, with every
 * byte from the service itself (a browser that may reach nothing else renders it), and its bundle
 * cached for a year under a versioned URL.
 */

declare const document: { body: { innerText: string }; title: string };

const ctx = useTestApp({ listen: true });
const browser = useBrowser();

describe('/v1/reference over HTTP', () => {
  test('the page loads the bundle from the service, under a versioned URL cached for a year', async () => {
    const page = await fetch(`${ctx.baseUrl}/v1/reference`);
    assert.equal(page.status, 200);
    assert.match(String(page.headers.get('content-type')), /^text\/html/);
    const html = await page.text();
    const sources = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(sources.length > 0, 'the page loads a script');
    for (const source of sources) assert.ok(source.startsWith('/'), `${source} is not the service's own`);
    const bundle = sources.find((s) => s.startsWith('/v1/reference/js/scalar.js?v='));
    assert.ok(bundle, `no versioned bundle in ${sources.join(', ')}`);
    assert.ok(html.includes('/v1/openapi.json'), 'the page reads the served document');

    const js = await fetch(`${ctx.baseUrl}${bundle}`);
    assert.equal(js.status, 200);
    assert.match(String(js.headers.get('content-type')), /javascript/);
    assert.equal(js.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.ok((await js.text()).length > 100_000);
    const unversioned = await fetch(`${ctx.baseUrl}/v1/reference/js/scalar.js`);
    assert.equal(unversioned.headers.get('cache-control'), 'public, max-age=300');
    await unversioned.body?.cancel();
  });
});

describe('/v1/reference in Chromium, offline', { skip: NO_CHROMIUM }, () => {
  // The phone layout folds the navigation away: its first screen has the title and the server.
  for (const [name, viewport, words] of [
    [
      'desktop',
      { width: 1280, height: 900 },
      ['List the account', 'Close a live role', 'applications', 'screening'],
    ],
    ['phone', { width: 390, height: 844 }, ['Application Intake', 'Download OpenAPI Document']],
  ] as const) {
    test(`renders the operations with nothing fetched from elsewhere (${name})`, async () => {
      const context = await browser.newContext({ viewport });
      const elsewhere: string[] = [];
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith(ctx.baseUrl) || url.startsWith('data:') || url.startsWith('blob:')) {
          return route.continue();
        }
        elsewhere.push(url);
        return route.abort('internetdisconnected');
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${ctx.baseUrl}/v1/reference`, { waitUntil: 'networkidle' });
      await page.waitForFunction(() => document.body.innerText.includes('Application Intake'), undefined, {
        timeout: 30_000,
      });
      const text = await page.evaluate(() => document.body.innerText);
      // What is on screen, as a reader sees it (innerText leaves out what the layout hides).
      for (const expected of words) assert.ok(text.includes(expected), `"${expected}" is not on the page`);
      await page.screenshot({ path: path.join(ARTIFACTS, `reference-${name}.png`) });
      await context.close();
      assert.deepEqual(elsewhere, [], 'the page reached outside the service');
      assert.deepEqual(errors, []);
    });
  }
});
