import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { CvInspector } from '../src/domain/ports.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { loggerOptions, serializeRequest } from '../src/plugins/log.ts';
import { consoleCall, unique } from './support/accounts.ts';
import { BASE_URL, cvChecker, startApp, type TestContext, useTestApp } from './support/app.ts';
import { applyWithCv, cvPdf, pdfFixture, putUpload } from './support/intake.ts';
import { claimLinksIn, drainAll, linkPath, mailTo, type OutboxMessage, postForm } from './support/mail.ts';

/**
 * The candidate's side of an application, end to end through the real worker: the build-cv task
 * stages a virtual CV, one claim mail goes out (outbox) in the receipt's language, its link opens
 * a page showing that CV, and the page's buttons claim or delete it; staged CVs expire; a file
 * that cannot be read at build time withdraws the application; forged links name nobody; logs
 * never carry a token.
 */

type Locale = 'en' | 'es' | 'fr' | 'pt';
type Applied = Awaited<ReturnType<typeof applyWithCv>>;

const logLines: string[] = [];
/** Every claim token and upload URL seen in this file, to look for in the logs at the end. */
const secretsSeen = new Set<string>();
const CV_NAME = 'Marisol Quintero-Ávila';
const CV_EMPLOYER = 'Harbourline Freight Pty Ltd';
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/** Someone else entirely, staged before the tests look at anyone's page. */
const OTHER = {
  name: 'Oluwaseun Abernathy',
  email: `${unique('seun').toLowerCase()}@example.org`,
  employer: 'Brightwater Logistics',
  title: 'Warehouse Platform Lead',
  company: 'Zephyrine Cartography',
};

const ctx = useTestApp(
  {
    logger: {
      ...(loggerOptions('info') as object),
      stream: {
        write: (line: string) => {
          logLines.push(line);
          // Errors (a 500's cause) also go to stderr.
          if (line.includes('"level":50')) process.stderr.write(line);
        },
      },
    },
  },
  async () => {
    const other = await applyWithCv(ctx, {
      companyName: OTHER.company,
      title: OTHER.title,
      cv: await cvPdf(OTHER),
      body: { name: OTHER.name, email: OTHER.email },
    });
    assert.equal(other.res.statusCode, 201, other.res.body);
    await drainAll(ctx.worker);
    assert.equal((await statusOf(other, other.applicationId)).json().cvStatus, 'staged');
  },
);

// ---- helpers ----

function statusOf(who: Pick<Applied, 'api'>, applicationId: string) {
  return who.api.get(`/v1/applications/${applicationId}`);
}

async function applicationRow(c: TestContext, id: string) {
  return c.handle.db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function virtualCvRows(c: TestContext, id: string) {
  return c.handle.db
    .selectFrom('virtual_cvs')
    .selectAll()
    .where('subject_kind', '=', 'application')
    .where('subject_id', '=', id)
    .execute();
}

async function tasksFor(c: TestContext, id: string) {
  return (
    c.handle.db
      .selectFrom('tasks')
      .selectAll()
      .where('key', 'like', `%:application:${id}`)
      // The test clock can give two tasks the same instant: the name breaks the tie.
      .orderBy('created_at')
      .orderBy('name')
      .execute()
  );
}

/** The one message, its one link (text and HTML agree), and the token in it. */
function theLink(messages: OutboxMessage[]): { message: OutboxMessage; link: string; token: string } {
  assert.equal(messages.length, 1, `exactly one mail: ${JSON.stringify(messages.map((m) => m.subject))}`);
  const message = messages[0]!;
  const inText = claimLinksIn(message.text);
  assert.equal(inText.length, 1, `one link in the text: ${message.text}`);
  const link = inText[0]!;
  assert.ok(link.startsWith(`${BASE_URL}/cv/`), link);
  const token = link.slice(`${BASE_URL}/cv/`.length);
  assert.match(token, TOKEN_RE, 'an unguessable token (256-bit, base64url)');
  assert.deepEqual([...new Set(claimLinksIn(message.html))], [link], 'the HTML carries the same link');
  secretsSeen.add(token);
  return { message, link, token };
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};
/** The page's text with the HTML escapes undone, for matching words. */
function pageText(res: LightMyRequestResponse): string {
  return res.body.replace(/&(amp|lt|gt|quot|#39);/g, (m) => ENTITIES[m]!);
}

function assertPage(res: LightMyRequestResponse, status: number, lang: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
  const csp = String(res.headers['content-security-policy'] ?? '');
  assert.match(csp, /default-src 'none'/, 'a CSP header');
  assert.match(csp, /form-action 'self'/);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.match(res.body, new RegExp(`^<!doctype html><html lang="${lang}">`));
  assert.doesNotMatch(res.body, /<script/i);
}

/** What only a person's own data would put on a page. */
function assertNamesNobody(res: LightMyRequestResponse, people: { name: string; email: string }[]) {
  const text = pageText(res);
  for (const person of people) {
    assert.ok(!text.includes(person.name), `the page names ${person.name}`);
    assert.ok(!text.toLowerCase().includes(person.email.toLowerCase()), `the page shows ${person.email}`);
  }
}

function assertNotTheOther(res: LightMyRequestResponse) {
  const text = pageText(res);
  for (const value of [OTHER.name, OTHER.email, OTHER.employer, OTHER.title, OTHER.company]) {
    assert.ok(!text.includes(value), `another person's data on the page: ${value}`);
  }
}

/** The words each locale must use; written here, not read from src, so a wrong language fails. */
const WORDS: Record<
  Locale,
  {
    subject: (role: string, company: string) => string;
    greeting: string;
    title: string;
    experience: string;
    claimButton: string;
    deleteButton: string;
    claimed: string;
    deleted: string;
    gone: string;
  }
> = {
  en: {
    subject: (r, c) => `Your CV for ${r} at ${c}`,
    greeting: 'Hello',
    title: 'Your virtual CV',
    experience: 'Experience',
    claimButton: 'Claim my virtual CV',
    deleteButton: 'Delete my CV and details',
    claimed: 'the CV is yours',
    deleted: 'Deleted',
    gone: 'This link is no longer active',
  },
  es: {
    subject: (r, c) => `Tu CV para ${r} en ${c}`,
    greeting: 'Hola',
    title: 'Tu CV virtual',
    experience: 'Experiencia',
    claimButton: 'Reclamar mi CV virtual',
    deleteButton: 'Eliminar mi CV y mis datos',
    claimed: 'el CV es tuyo',
    deleted: 'Eliminado',
    gone: 'Este enlace ya no está activo',
  },
  fr: {
    subject: (r, c) => `Votre CV pour ${r} chez ${c}`,
    greeting: 'Bonjour',
    title: 'Votre CV virtuel',
    experience: 'Expérience',
    claimButton: 'Récupérer mon CV virtuel',
    deleteButton: 'Supprimer mon CV et mes données',
    claimed: 'le CV est à vous',
    deleted: 'Supprimé',
    gone: "Ce lien n'est plus actif",
  },
  pt: {
    subject: (r, c) => `O seu CV para ${r} na ${c}`,
    greeting: 'Olá',
    title: 'O seu CV virtual',
    experience: 'Experiência',
    claimButton: 'Reivindicar o meu CV virtual',
    deleteButton: 'Eliminar o meu CV e os meus dados',
    claimed: 'o CV é seu',
    deleted: 'Eliminado',
    gone: 'Este link já não está ativo',
  },
};

/** Applies, runs the worker, and checks the staged CV and its one mail; answers the link. */
async function stagedWithMail(
  c: TestContext,
  locale: Locale,
  options: { company?: string; title?: string; body?: Record<string, unknown> } = {},
) {
  const company = options.company ?? `Acme ${locale.toUpperCase()} ${unique('co').slice(-4)}`;
  const title = options.title ?? `Backend Engineer ${locale.toUpperCase()}`;
  const applied = await applyWithCv(c, {
    locale,
    companyName: company,
    title,
    ...(options.body ? { body: options.body } : {}),
  });
  assert.equal(applied.res.statusCode, 201, applied.res.body);
  assert.equal(applied.res.json().status, 'received');
  assert.equal(applied.res.json().cvStatus, 'processing');
  const id = applied.applicationId;

  // The build task was committed with the application; nothing is built or sent before it runs.
  const queued = await tasksFor(c, id);
  assert.deepEqual(
    queued.map((t) => [t.name, t.state]),
    [['build-cv', 'queued']],
  );
  assert.deepEqual(await mailTo(c.app, applied.email), []);

  await drainAll(c.worker);

  const status = await statusOf(applied, id);
  assert.equal(status.statusCode, 200, status.body);
  assert.equal(status.json().cvStatus, 'staged');
  assert.equal(status.json().status, 'received');
  assert.equal(status.json().claimedAt, undefined);
  const cvs = await virtualCvRows(c, id);
  assert.equal(cvs.length, 1, 'one virtual CV');
  const document = cvs[0]!.document as { basics: { name?: string } };
  assert.equal(document.basics.name, CV_NAME, 'the virtual CV carries the name read from the CV');
  assert.equal(await c.files.size(applied.uploadId), pdfFixture('cv-2-pages.pdf').length, 'file kept');
  assert.deepEqual(
    (await tasksFor(c, id)).map((t) => [t.name, t.state]),
    [
      ['build-cv', 'done'],
      ['send-claim-mail', 'done'],
    ],
  );

  const mail = theLink(await mailTo(c.app, applied.email));
  assert.equal(mail.message.to, applied.email);
  assert.equal(mail.message.locale, locale);
  return { ...applied, ...mail, company, title, path: linkPath(mail.link) };
}

// ---- the whole flow: claim, in each locale ----

describe('application → build-cv → staged → one mail → claim page → claim', () => {
  for (const locale of ['en', 'es', 'fr', 'pt'] as const) {
    test(`${locale}: mail, page and confirmation in ${locale}; claimed with claimedAt; the link then shows the claimed CV until a delete`, async () => {
      const w = WORDS[locale];
      const flow = await stagedWithMail(ctx, locale);

      // The mail, in the receipt's language, text and HTML.
      assert.equal(flow.message.subject, w.subject(flow.title, flow.company));
      assert.ok(flow.message.text.startsWith(w.greeting), flow.message.text);
      assert.ok(flow.message.text.includes(flow.company));
      assert.match(flow.message.html, new RegExp(`^<!doctype html><html lang="${locale}">`));
      assert.ok(flow.message.html.includes(`href="${flow.link}"`));
      if (locale !== 'en') assert.ok(!flow.message.text.includes('Hello'), 'no English in the mail');

      // The page shows the virtual CV the employer will see, the employer and the role.
      const page = await ctx.app.inject({ method: 'GET', url: flow.path });
      assertPage(page, 200, locale);
      const text = pageText(page);
      for (const expected of [w.title, w.experience, w.claimButton, w.deleteButton]) {
        assert.ok(text.includes(expected), `page says "${expected}"`);
      }
      for (const expected of [CV_NAME, CV_EMPLOYER, 'Senior Backend Engineer', flow.company, flow.title]) {
        assert.ok(text.includes(expected), `page shows "${expected}"`);
      }
      if (locale !== 'en') assert.ok(!text.includes(WORDS.en.title), 'no English title');
      // CV dates in the page's language, not as stored (2021-03).
      const march2021 = { en: 'Mar 2021', es: 'mar 2021', fr: 'mars 2021', pt: 'mar. de 2021' }[locale];
      assert.ok(text.includes(march2021), `dates read "${march2021}"`);
      assert.ok(!text.includes('2021-03'), 'no ISO month on the page');
      assert.ok(page.body.includes(`action="${flow.path}/claim"`), 'the claim button posts to {link}/claim');
      assert.ok(
        page.body.includes(`action="${flow.path}/delete"`),
        'the delete button posts to {link}/delete',
      );
      assertNotTheOther(page);
      assert.ok(!text.includes(flow.email), "the page does not echo the candidate's address");

      // Claim, as the browser's form posts it.
      ctx.clock.advance(5_000);
      const claimedAt = ctx.clock.now().toISOString();
      const claimed = await postForm(ctx.app, `${flow.path}/claim`);
      assertPage(claimed, 200, locale);
      assert.ok(pageText(claimed).includes(w.claimed), claimed.body);
      assertNotTheOther(claimed);

      const status = await statusOf(flow, flow.applicationId);
      assert.equal(status.json().cvStatus, 'claimed');
      assert.equal(status.json().claimedAt, claimedAt);
      assert.equal(status.json().status, 'received');
      const row = await applicationRow(ctx, flow.applicationId);
      assert.equal(row.cv_status, 'claimed');
      assert.equal(row.claimed_at?.toISOString(), claimedAt);
      assert.equal((await virtualCvRows(ctx, flow.applicationId)).length, 1, 'a claimed CV is kept');
      assert.ok(await ctx.files.size(flow.uploadId), 'and so is its file');

      // Only the token's hash is stored; claiming does not use the link up.
      const linkRows = () =>
        ctx.handle.db
          .selectFrom('claim_links')
          .selectAll()
          .where('subject_kind', '=', 'application')
          .where('subject_id', '=', flow.applicationId)
          .execute();
      const links = await linkRows();
      assert.equal(links.length, 1);
      assert.equal(links[0]!.token_hash, createHash('sha256').update(flow.token).digest('hex'));
      assert.ok(!JSON.stringify(links).includes(flow.token));
      assert.equal(links[0]!.used_at, null);
      // The confirmation leads on: to the job list (and the role while it is live).
      assert.match(claimed.body, new RegExp(`<a href="/${locale}/jobs">`));

      // The link keeps showing the claimed CV, with the delete button and no claim button.
      const again = await ctx.app.inject({ method: 'GET', url: flow.path });
      assertPage(again, 200, locale);
      assert.ok(pageText(again).includes(CV_EMPLOYER), 'the claimed CV is shown again');
      assert.ok(!again.body.includes(`action="${flow.path}/claim"`), 'no claim button once claimed');
      assert.ok(again.body.includes(`action="${flow.path}/delete"`), 'the delete button stays');
      const reclaim = await postForm(ctx.app, `${flow.path}/claim`);
      assertPage(reclaim, 200, locale);
      assert.equal(
        (await statusOf(flow, flow.applicationId)).json().claimedAt,
        claimedAt,
        'a second claim changes nothing',
      );
      assert.equal((await mailTo(ctx.app, flow.email)).length, 1, 'still one mail');

      // A delete through the same link erases the claimed CV and uses the link up: 410 from then on.
      const lateDelete = await postForm(ctx.app, `${flow.path}/delete`);
      assertPage(lateDelete, 200, locale);
      const after = await statusOf(flow, flow.applicationId);
      assert.equal(after.json().cvStatus, 'deleted');
      assert.equal((await virtualCvRows(ctx, flow.applicationId)).length, 0);
      assert.ok((await linkRows())[0]!.used_at, 'the delete used the link');
      const gone = await ctx.app.inject({ method: 'GET', url: flow.path });
      assertPage(gone, 410, locale);
      assert.ok(pageText(gone).includes(w.gone), gone.body);
      assertNamesNobody(gone, [{ name: CV_NAME, email: flow.email }]);
    });
  }

  test('the other candidate’s page shows their own CV, and nothing of the tests above', async () => {
    const messages = await mailTo(ctx.app, OTHER.email);
    const path = linkPath(theLink(messages).link);
    const page = await ctx.app.inject({ method: 'GET', url: path });
    assertPage(page, 200, 'en');
    const text = pageText(page);
    for (const expected of [OTHER.name, OTHER.employer, OTHER.company, OTHER.title]) {
      assert.ok(text.includes(expected), `page shows "${expected}"`);
    }
    assert.ok(!text.includes(CV_NAME) && !text.includes(CV_EMPLOYER), 'not the first CV');
  });
});

// ---- delete ----

describe('application → staged → delete', () => {
  for (const locale of ['en', 'fr'] as const) {
    test(`${locale}: deleted; file, virtual CV, personal fields and mail erased; status read works`, async () => {
      const w = WORDS[locale];
      const flow = await stagedWithMail(ctx, locale, {
        body: {
          phone: '+61 2 5550 1234',
          location: 'Brisbane, QLD',
          coverNote: 'I would love to work on the careers service.',
          answers: [{ question: 'Notice period?', answer: 'One month' }],
        },
      });
      const before = await applicationRow(ctx, flow.applicationId);
      assert.equal(before.phone, '+61 2 5550 1234', 'precondition: the fields were stored');
      assert.ok(before.answers && before.consent_receipt && before.cover_note && before.location);

      ctx.clock.advance(1_000);
      const deleted = await postForm(ctx.app, `${flow.path}/delete`);
      assertPage(deleted, 200, locale);
      assert.ok(pageText(deleted).includes(w.deleted), deleted.body);
      assertNamesNobody(deleted, [{ name: CV_NAME, email: flow.email }]);

      const status = await statusOf(flow, flow.applicationId);
      assert.equal(status.statusCode, 200, status.body);
      assert.equal(status.json().cvStatus, 'deleted');
      assert.equal(status.json().status, 'received');
      assert.equal(status.json().applicationId, flow.applicationId);
      assert.equal(status.json().jobId, flow.job.id);
      assert.equal(status.json().claimedAt, undefined);

      assert.equal(await ctx.files.size(flow.uploadId), null, 'the file is gone');
      assert.deepEqual(await virtualCvRows(ctx, flow.applicationId), [], 'the virtual CV is gone');
      const row = await applicationRow(ctx, flow.applicationId);
      assert.equal(row.cv_status, 'deleted');
      for (const field of [
        'name',
        'email',
        'email_key',
        'phone',
        'location',
        'cover_note',
        'answers',
        'consent_receipt',
        'consent_text',
        'lawful_basis',
        'blob_key',
      ] as const) {
        assert.equal(row[field], null, `${field} erased`);
      }
      assert.deepEqual(await mailTo(ctx.app, flow.email), [], 'the mail kept about it is erased');
      const outbox = await ctx.handle.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('subject_ref', '=', `application:${flow.applicationId}`)
        .execute();
      assert.deepEqual(outbox, []);

      // The recruiter's console still lists the application, without the person.
      const listed = await consoleCall(
        ctx.app,
        'GET',
        `/accounts/${flow.account.id}/jobs/${flow.job.id}/applications`,
      );
      assert.equal(listed.statusCode, 200, listed.body);
      const entry = listed
        .json()
        .applications.find((a: { applicationId: string }) => a.applicationId === flow.applicationId);
      assert.equal(entry.cvStatus, 'deleted');
      assert.equal(entry.name, null);
      assert.equal(entry.email, null);
      assert.ok(!JSON.stringify(entry).includes(flow.email));

      // The link is used up; claiming afterwards brings nothing back.
      const again = await ctx.app.inject({ method: 'GET', url: flow.path });
      assertPage(again, 410, locale);
      assertNamesNobody(again, [{ name: CV_NAME, email: flow.email }]);
      const claim = await postForm(ctx.app, `${flow.path}/claim`);
      assertPage(claim, 410, locale);
      assert.equal((await statusOf(flow, flow.applicationId)).json().cvStatus, 'deleted');

      // Retried tasks change nothing: the build does not rebuild, the mail is not sent again.
      await ctx.services.taskHandlers['build-cv'](
        { kind: 'application', id: flow.applicationId },
        (await tasksFor(ctx, flow.applicationId))[0]!,
      );
      await ctx.services.taskHandlers['send-claim-mail'](
        { kind: 'application', id: flow.applicationId },
        (await tasksFor(ctx, flow.applicationId))[1]!,
      );
      assert.deepEqual(await virtualCvRows(ctx, flow.applicationId), []);
      assert.deepEqual(await mailTo(ctx.app, flow.email), []);
      assert.equal((await applicationRow(ctx, flow.applicationId)).cv_status, 'deleted');
    });
  }
});

// ---- forged and malformed links ----

describe('links that are not ours', () => {
  test('a well-formed but unknown token → 404 page naming nobody; POSTs change nothing', async () => {
    const flow = await stagedWithMail(ctx, 'es');
    // One character changed: a forgery of a live token.
    const last = flow.token.at(-1) === 'A' ? 'B' : 'A';
    const forged = `${flow.token.slice(0, -1)}${last}`;
    const random = Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 37 + 11) % 256)).toString(
      'base64url',
    );
    for (const token of [forged, random]) {
      for (const [method, suffix] of [
        ['GET', ''],
        ['POST', '/claim'],
        ['POST', '/delete'],
      ] as const) {
        const res =
          method === 'GET'
            ? await ctx.app.inject({ method, url: `/cv/${token}${suffix}` })
            : await postForm(ctx.app, `/cv/${token}${suffix}`);
        assertPage(res, 404, 'en');
        assert.ok(pageText(res).includes('Link not found'), res.body);
        assertNamesNobody(res, [
          { name: CV_NAME, email: flow.email },
          { name: OTHER.name, email: OTHER.email },
        ]);
        assert.ok(!pageText(res).includes(flow.company));
      }
    }
    const status = await statusOf(flow, flow.applicationId);
    assert.equal(status.json().cvStatus, 'staged', 'forged posts neither claimed nor deleted');
    const page = await ctx.app.inject({ method: 'GET', url: flow.path });
    assertPage(page, 200, 'es');
  });

  test('malformed tokens (wrong length or characters, up to the router’s 200) → 404 page', async () => {
    for (const token of [
      'abc',
      'x'.repeat(42),
      'x'.repeat(44),
      `${'a'.repeat(42)}.`,
      `${'a'.repeat(42)}%20`,
      '%00',
      'a%2Fb',
      'x'.repeat(101),
      'x'.repeat(200),
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url: `/cv/${token}` });
      assertPage(res, 404, 'en');
      const claim = await postForm(ctx.app, `/cv/${token}/claim`);
      assert.equal(claim.statusCode, 404, `${token}: ${claim.body}`);
      assert.match(String(claim.headers['content-type']), /^text\/html/, `${token}: ${claim.body}`);
    }
  });
});

// ---- expiry ----

describe('expiry of staged CVs (STAGED_CV_TTL_SECONDS = 60)', () => {
  test('an unclaimed CV is deleted past its lifetime; a claimed one is not; the link then answers 410', async () => {
    const c = await startApp({ stagedTtlSeconds: 60, clock: new ManualClock(ctx.clock.now()) });
    const unclaimed = await stagedWithMail(c, 'pt');
    const kept = await stagedWithMail(c, 'en');
    const claim = await postForm(c.app, `${kept.path}/claim`);
    assert.equal(claim.statusCode, 200, claim.body);

    // Just inside the lifetime: nothing happens.
    c.clock.advance(59_000);
    await c.services.maintenance();
    assert.equal((await statusOf(unclaimed, unclaimed.applicationId)).json().cvStatus, 'staged');
    assertPage(await c.app.inject({ method: 'GET', url: unclaimed.path }), 200, 'pt');

    c.clock.advance(2_000);
    const swept = await c.services.maintenance();
    assert.ok(swept.stagedCvs >= 1, JSON.stringify(swept));

    const status = await statusOf(unclaimed, unclaimed.applicationId);
    assert.equal(status.statusCode, 200);
    assert.equal(status.json().cvStatus, 'deleted');
    assert.equal(await c.files.size(unclaimed.uploadId), null, 'the file is gone');
    assert.deepEqual(await virtualCvRows(c, unclaimed.applicationId), []);
    const row = await applicationRow(c, unclaimed.applicationId);
    assert.equal(row.name, null);
    assert.equal(row.email, null);
    assert.equal(row.consent_receipt, null);
    assert.deepEqual(await mailTo(c.app, unclaimed.email), []);

    const gone = await c.app.inject({ method: 'GET', url: unclaimed.path });
    assertPage(gone, 410, 'pt');
    assert.ok(pageText(gone).includes(WORDS.pt.gone), gone.body);
    assertNamesNobody(gone, [{ name: CV_NAME, email: unclaimed.email }]);
    assertPage(await postForm(c.app, `${unclaimed.path}/claim`), 410, 'pt');
    assert.equal((await statusOf(unclaimed, unclaimed.applicationId)).json().cvStatus, 'deleted');

    // The claimed CV stays, however long it sits.
    c.clock.advance(86_400_000);
    await c.services.maintenance();
    const keptStatus = await statusOf(kept, kept.applicationId);
    assert.equal(keptStatus.json().cvStatus, 'claimed');
    assert.ok(keptStatus.json().claimedAt);
    assert.ok(await c.files.size(kept.uploadId), 'the claimed file is kept');
    assert.equal((await virtualCvRows(c, kept.applicationId)).length, 1);
    assert.equal((await applicationRow(c, kept.applicationId)).email, kept.email);
  });
});

// ---- cv_unreadable ----

describe('a CV that cannot be read at build time', () => {
  async function assertUnreadable(c: TestContext, applied: Applied) {
    assert.equal(applied.res.statusCode, 201, applied.res.body);
    assert.equal(applied.res.json().cvStatus, 'processing');
    await drainAll(c.worker);
    const status = await statusOf(applied, applied.applicationId);
    assert.equal(status.statusCode, 200, status.body);
    assert.equal(status.json().status, 'withdrawn');
    assert.equal(status.json().reason, 'cv_unreadable');
    assert.equal(status.json().cvStatus, 'failed');
    assert.equal(await c.files.size(applied.uploadId), null, 'the file is erased');
    assert.deepEqual(await virtualCvRows(c, applied.applicationId), []);
    assert.deepEqual(await mailTo(c.app, applied.email), [], 'nobody is emailed');
    const tasks = await tasksFor(c, applied.applicationId);
    assert.deepEqual(
      tasks.map((t) => [t.name, t.state]),
      [['build-cv', 'done']],
      'no mail task; the build is done, not retried',
    );
    const links = await c.handle.db
      .selectFrom('claim_links')
      .select('token_hash')
      .where('subject_id', '=', applied.applicationId)
      .execute();
    assert.deepEqual(links, []);
  }

  test('accepted by a lenient checker, then read by the real one: corrupt → withdrawn, cv_unreadable', async () => {
    let lenient = true;
    const inspector: CvInspector = {
      check: async (path) => (lenient ? { ok: true, pages: 1, text: [] } : cvChecker().check(path)),
    };
    const c = await startApp({ inspector, clock: new ManualClock(ctx.clock.now()) });
    const applied = await applyWithCv(c, { cv: pdfFixture('truncated.pdf') });
    lenient = false;
    await assertUnreadable(c, applied);
  });

  test('the stored file was deleted before the task ran → withdrawn, cv_unreadable', async () => {
    const applied = await applyWithCv(ctx);
    await ctx.files.delete(applied.uploadId);
    await assertUnreadable(ctx, applied);
  });

  test('the stored file was overwritten with something that is not a PDF → withdrawn, cv_unreadable', async () => {
    const applied = await applyWithCv(ctx);
    await ctx.files.withLocalFile(applied.uploadId, async (path) =>
      fs.writeFileSync(path, pdfFixture('png-renamed.pdf')),
    );
    await assertUnreadable(ctx, applied);
  });
});

// ---- logs ----

describe('logs carry no claim token and no upload signature', () => {
  test('serializeRequest rewrites /cv/<token> and drops the upload signature', () => {
    const token = 'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5';
    assert.deepEqual(serializeRequest({ method: 'GET', url: `/cv/${token}` }), {
      method: 'GET',
      url: '/cv/[token]',
    });
    assert.deepEqual(serializeRequest({ method: 'POST', url: `/cv/${token}/claim` }), {
      method: 'POST',
      url: '/cv/[token]/claim',
    });
    assert.deepEqual(serializeRequest({ method: 'POST', url: `/cv/${token}/delete?x=1` }), {
      method: 'POST',
      url: '/cv/[token]/delete?x=1',
    });
    assert.deepEqual(
      serializeRequest({ method: 'PUT', url: '/uploads/upl_123?expires=1767225600&bytes=9&sig=abcdef0123' }),
      { method: 'PUT', url: '/uploads/[key]?expires=1767225600&bytes=9&sig=[redacted]' },
    );
    assert.deepEqual(serializeRequest({ method: 'GET', url: '/v1/jobs?limit=5' }), {
      method: 'GET',
      url: '/v1/jobs?limit=5',
    });
  });

  test("the app's own log lines, over every request of this file, hold none of the secrets", async () => {
    // A link opened and used, and an upload PUT through the app, so the log certainly holds both.
    const flow = await stagedWithMail(ctx, 'en');
    assertPage(await ctx.app.inject({ method: 'GET', url: flow.path }), 200, 'en');
    assertPage(await postForm(ctx.app, `${flow.path}/claim`), 200, 'en');
    const slot = await flow.api.post('/v1/uploads', { bytes: 10 });
    assert.equal(slot.statusCode, 201, slot.body);
    const uploadUrl = new URL(slot.json().uploadUrl as string);
    assert.ok(uploadUrl.search.length > 1, 'the upload URL carries a signature in its query');
    secretsSeen.add(uploadUrl.search.slice(1));
    await putUpload(ctx.app, uploadUrl.toString(), Buffer.from('%PDF-1.4\n'));

    const lines = logLines.join('');
    assert.ok(lines.includes('"url":"/cv/[token]"'), 'claim-page requests are logged, redacted');
    assert.ok(lines.includes('/cv/[token]/claim'));
    assert.ok(
      lines.includes(
        `"url":"/uploads/[key]?${uploadUrl.search.slice(1).replace(/sig=[^&]+/, 'sig=[redacted]')}"`,
      ),
      'the upload PUT is logged, redacted',
    );
    assert.ok(secretsSeen.has(flow.token));
    for (const secret of secretsSeen) {
      assert.ok(!lines.includes(secret), `a secret in the logs: ${secret}`);
    }
    for (const part of uploadUrl.searchParams.values()) {
      if (part.length >= 16) assert.ok(!lines.includes(part), `an upload signature in the logs: ${part}`);
    }
  });
});
