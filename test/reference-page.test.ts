import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, test } from 'node:test';
import { useTestApp } from './support/app.ts';
import { ARTIFACTS, NO_CHROMIUM, useBrowser } from './support/browser.ts';

/**
 * The reference page at /v1/reference: rendered by Scalar from the served document, with every
 * byte from the service itself (a browser that may reach nothing else renders it), and its bundle
 * cached for a year under a versioned URL.
 */

declare const document: {
  body: { innerText: string; textContent: string };
  title: string;
  addEventListener(type: string, listener: (event: Record<string, string>) => void): void;
};
declare const window: { __cspViolations: string[] };

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

  test('the page has a Content-Security-Policy and may not be framed (issue 25.3)', async () => {
    const page = await fetch(`${ctx.baseUrl}/v1/reference`);
    const html = await page.text();
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    const csp = String(page.headers.get('content-security-policy'));
    const directives = new Map(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name!, values] as const;
      }),
    );
    assert.deepEqual(directives.get('frame-ancestors'), ["'none'"], csp);
    assert.deepEqual(directives.get('default-src'), ["'none'"], csp);
    assert.deepEqual(directives.get('base-uri'), ["'none'"], csp);
    assert.deepEqual(directives.get('object-src'), ["'none'"], csp);
    // Scripts: the service's own file, and the one inline initialiser by its hash; no other inline
    // script, no eval.
    const scripts = directives.get('script-src') ?? [];
    assert.ok(scripts.includes("'self'"), csp);
    assert.ok(!scripts.includes("'unsafe-inline'") && !scripts.includes("'unsafe-eval'"), csp);
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    assert.ok(inline.length > 0);
    const { createHash } = await import('node:crypto');
    for (const body of inline) {
      const hash = `'sha256-${createHash('sha256').update(body).digest('base64')}'`;
      assert.ok(scripts.includes(hash), `the inline script's hash ${hash} is not in ${csp}`);
    }
    assert.equal(scripts.filter((s) => s.startsWith("'sha256-")).length, inline.length);
    for (const directive of ['connect-src', 'img-src', 'font-src', 'style-src'])
      for (const source of directives.get(directive) ?? [])
        assert.ok(!/^(https?:|\*)$/.test(source) && !source.includes('*'), `${directive} allows ${source}`);
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
      // Every CSP violation the page raises, from before its first script runs.
      await context.addInitScript(() => {
        window.__cspViolations = [];
        document.addEventListener('securitypolicyviolation', (event) => {
          window.__cspViolations.push(`${event.effectiveDirective} ${event.blockedURI} ${event.sourceFile}`);
        });
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) errors.push(message.text());
      });
      const response = await page.goto(`${ctx.baseUrl}/v1/reference`, { waitUntil: 'networkidle' });
      const csp = response?.headers()['content-security-policy'];
      assert.match(String(csp), /frame-ancestors 'none'/, 'the page runs under its CSP');
      await page.waitForFunction(() => document.body.innerText.includes('Application Intake'), undefined, {
        timeout: 120_000,
      });
      const text = await page.evaluate(() => document.body.innerText);
      // The one thing the policy blocks is the bundle's probe for eval (Zod's `Function('')` in a
      // try/catch, which then validates without compiling): nothing else.
      const violations = await page.evaluate(() => window.__cspViolations);
      assert.deepEqual(
        violations.filter((v) => v !== `script-src eval ${ctx.baseUrl}/v1/reference/js/scalar.js`),
        [],
        'the CSP blocked what the page needs',
      );
      // What is on screen, as a reader sees it (innerText leaves out what the layout hides).
      for (const expected of words) assert.ok(text.includes(expected), `"${expected}" is not on the page`);
      await page.screenshot({ path: path.join(ARTIFACTS, `reference-${name}.png`) });
      await context.close();
      assert.deepEqual(elsewhere, [], 'the page reached outside the service');
      assert.deepEqual(errors, []);
    });
  }

  test('a page of another origin cannot frame it', async () => {
    const context = await browser.newContext();
    try {
      await framedBy(context);
    } finally {
      await context.close();
    }
  });
});

/**
 * Opens a page of another origin that frames the reference and, as a control, /healthz (which
 * sets no frame rule): the control loads, the reference is refused.
 */
async function framedBy(context: Awaited<ReturnType<typeof browser.newContext>>): Promise<void> {
  // Another origin: a server of its own on another port (a real local address, as Chromium's
  // local-network rules want of a page framing a local one).
  const framer = http.createServer((_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<!doctype html><iframe name="control" src="${ctx.baseUrl}/healthz"></iframe><iframe name="reference" src="${ctx.baseUrl}/v1/reference"></iframe>`,
      ),
  );
  await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
  const page = await context.newPage();
  try {
    await page.goto(`http://127.0.0.1:${(framer.address() as AddressInfo).port}/`, {
      waitUntil: 'load',
      timeout: 60_000,
    });
  } finally {
    framer.closeAllConnections();
    framer.close();
  }
  const control = page.frame({ name: 'control' });
  const reference = page.frame({ name: 'reference' });
  assert.ok(control && reference);
  assert.match(await control.evaluate(() => document.body.textContent), /"ok"/);
  // Chromium replaces a refused frame's document with its error page.
  for (let i = 0; i < 600 && !reference.url().startsWith('chrome-error:'); i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  assert.match(reference.url(), /^chrome-error:/, 'the reference was not refused');
  const inside = await reference.evaluate(() => document.body?.textContent ?? '').catch(() => '');
  assert.ok(!inside.includes('Application Intake'), 'the reference rendered inside the frame');
}
