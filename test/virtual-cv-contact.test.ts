import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { CLAIM_WORDS } from '../src/http/pages/claim-words.ts';
import { renderVirtualCv } from '../src/http/pages/virtual-cv-view.ts';
import { signedIn } from './console-web-client.ts';
import { unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { applyWithCv } from './support/intake.ts';
import { claimLinksIn, drainAll, linkPath, mailTo } from './support/mail.ts';

// The virtual CV view shows the contact details the builder read, as printed: on the candidate's
// claim page and on the console's applications page, for CVs in four languages made by four
// different tools (test/fixtures/cv). The application itself is sent without a phone, so a phone
// on the page can only come from the CV.

const ctx = useTestApp();

type Fixture = {
  language: 'en' | 'es' | 'fr' | 'pt';
  prior: { name: string };
  expected: { basics: { phone: string; email: string; location: { city: string } } };
};

const FIXTURES = ['en-chromium-1col', 'es-groff-1col', 'fr-pdfkit-2col', 'pt-libreoffice-1col'];
const PHONE_TERM = { en: 'Phone', es: 'Teléfono', fr: 'Téléphone', pt: 'Telefone' } as const;

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};
const unescapeHtml = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (m) => ENTITIES[m]!);
/** The text of the virtual CV's section (`<section class="cv">…</section>`) in a page. */
function cvSections(res: LightMyRequestResponse): string[] {
  assert.equal(res.statusCode, 200, res.body);
  return [...res.body.matchAll(/<section class="cv">([\s\S]*?)<\/section>/g)].map((m) => unescapeHtml(m[1]!));
}

describe('the virtual CV view shows the contact details the builder read', () => {
  for (const name of FIXTURES) {
    test(`${name}: the phone, email and place on the claim page and in the console`, async () => {
      const fixture = JSON.parse(
        fs.readFileSync(new URL(`./fixtures/cv/${name}.json`, import.meta.url), 'utf8'),
      ) as Fixture;
      const lang = fixture.language;
      const email = `${unique('contact').toLowerCase()}@example.com`;
      const applied = await applyWithCv(ctx, {
        locale: lang,
        cv: fs.readFileSync(new URL(`./fixtures/cv/${name}.pdf`, import.meta.url)),
        body: { name: fixture.prior.name, email },
      });
      assert.equal(applied.res.statusCode, 201, applied.res.body);
      await drainAll(ctx.worker);
      const { phone } = fixture.expected.basics;

      const [link] = claimLinksIn((await mailTo(ctx.app, email))[0]?.text ?? '');
      assert.ok(link, 'a claim mail with its link');
      const claim = cvSections(await ctx.app.inject({ method: 'GET', url: linkPath(link) }));
      assert.equal(claim.length, 1, 'one virtual CV on the claim page');
      const page = claim[0]!;
      assert.ok(page.includes(`<h2>${CLAIM_WORDS[lang].contact}</h2>`), `${name}: the contact heading`);
      assert.ok(
        page.includes(`<dt>${PHONE_TERM[lang]}</dt><dd>${phone}</dd>`),
        `${name}: phone ${phone} in ${page}`,
      );
      assert.ok(page.includes(fixture.expected.basics.email), `${name}: the CV's email`);
      assert.ok(page.includes(fixture.expected.basics.location.city), `${name}: the CV's place`);

      const { web } = await signedIn(ctx.app, applied.account.id, 'recruiter');
      const consolePage = await web.get(`/console/applications/${applied.applicationId}`);
      const consoleCv = cvSections(consolePage);
      assert.equal(consoleCv.length, 1, 'one virtual CV in the console');
      assert.ok(
        consoleCv[0]!.includes(`<dt>Phone</dt><dd>${phone}</dd>`),
        `${name}: phone in the console's CV`,
      );
      // The application's own phone field is empty: the number comes from the CV.
      assert.ok(unescapeHtml(consolePage.body).includes('<dt>Phone</dt><dd>—</dd>'), 'no phone was sent');
    });
  }

  test('the view prints what the builder read, escaped; a page may leave the contact details out', () => {
    const cv = {
      basics: {
        name: 'Ana <b>Lima</b>',
        email: 'ana@example.org',
        phone: '+55 11 91234-5678',
        url: 'https://ana.example.org',
        location: { city: 'São Paulo', countryCode: 'BR' },
        profiles: [{ network: 'GitHub', url: 'github.com/ana-<x>', x: { confidence: 0.9 } }],
        x: { fields: { phone: { confidence: 0.9, origin: 'text', raw: '(11) 91234-5678' } } },
      },
      work: [{ position: 'Dev', name: 'Acme', location: 'Recife', summary: 'Built things.', highlights: [] }],
      skills: [{ name: 'Back end', keywords: ['Go', 'SQL'], x: { confidence: 0.8 } }],
    };
    const shown = String(renderVirtualCv(cv, CLAIM_WORDS.pt, 'pt'));
    assert.ok(shown.includes('<dt>Telefone</dt><dd>(11) 91234-5678</dd>'), 'the phone as printed');
    assert.ok(shown.includes('<dt>Localização</dt><dd>São Paulo, BR</dd>'), shown);
    assert.ok(shown.includes('<li>https://ana.example.org</li><li>github.com/ana-&lt;x&gt;</li>'), shown);
    assert.ok(shown.includes('Ana &lt;b&gt;Lima&lt;/b&gt;'), 'escaped');
    assert.ok(
      shown.includes(' · Recife') && shown.includes('<p>Built things.</p>'),
      'work place and summary',
    );
    assert.ok(shown.includes('<li>Back end: Go, SQL</li>'), 'a skill group keeps its keywords');
    const without = String(renderVirtualCv(cv, CLAIM_WORDS.pt, 'pt', { contact: false }));
    assert.ok(!without.includes('91234') && !without.includes('ana@example.org'), without);
  });
});
