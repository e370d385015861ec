import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LOCALES } from '../src/contract/vocabulary.ts';
import { CLAIM_WORDS } from '../src/http/pages/claim-words.ts';
import { accountNoticeMail, claimMail } from '../src/mail/templates.ts';
import type { PoolCvDescription } from './fixtures/matches/render-cv.ts';
import { useTestApp } from './support/app.ts';
import { assertNoTrace, dumpDatabase } from './support/dump.ts';
import { claimLinksIn, linkPath, mailTo, postForm } from './support/mail.ts';
import { backend, matchPool } from './support/match-pool.ts';

/**
 * "The candidate is told" (extensions.md §7, issue 31 item 6): the claim mail and the claim page say
 * the virtual CV may be matched to the account's other roles by an automated system, and the page's
 * "Don't match me" takes the person out of every pool of that account, for good, recorded without
 * the address in clear.
 */

const ctx = useTestApp();
const { account, importCv, settle, managedRole, matchesOf } = matchPool(ctx);
const cv = (i: number) => backend[i] as PoolCvDescription;
const idsOf = async (api: Parameters<typeof matchesOf>[0], jobId: string) =>
  (await matchesOf(api, jobId)).map((m) => m.candidateId).sort();

describe("Don't match me", () => {
  test("every locale of the claim mail and the account notice names the page's button", () => {
    for (const locale of LOCALES) {
      const input = {
        locale,
        name: 'Ana Souza',
        company: 'Acme',
        role: 'Backend Developer',
        link: 'https://example.test/cv/x',
        expiresAt: new Date('2026-12-01T00:00:00Z'),
      };
      const button = CLAIM_WORDS[locale].optOut;
      for (const mail of [claimMail(input), accountNoticeMail(input)]) {
        assert.ok(mail.text.includes(button), `${locale}: the mail names "${button}"`);
        assert.ok(CLAIM_WORDS[locale].matchingNotice('Acme').includes(button), `${locale}: so does the page`);
      }
    }
  });

  test('the notice in the mail and on the page; the opt-out leaves every pool of the account, for good, and only of it', async () => {
    const a = await account();
    const b = await account();
    const person = await importCv(a.api, cv(6));
    const other = await importCv(a.api, cv(7));
    const first = await managedRole(a);
    await settle();
    assert.deepEqual(await idsOf(a.api, first.id), [person.candidateId, other.candidateId].sort());

    // The claim mail says it, in its text and its HTML part.
    const [mail] = await mailTo(ctx.app, person.email);
    assert.ok(mail, 'the claim mail was sent');
    assert.match(mail.text, /match your CV to its other roles with an automated system/);
    assert.match(mail.text, /You can say no: the page the link opens has a "Don't match me" button/);
    assert.match(mail.html, /automated system/);
    const [link] = claimLinksIn(mail.text);
    assert.ok(link);
    const path = linkPath(link);

    // The same address in another account's pool, matched there.
    const inB = await importCv(b.api, cv(6), person.email);
    const roleOfB = await managedRole(b);
    await settle();
    assert.deepEqual(await idsOf(b.api, roleOfB.id), [inB.candidateId]);

    // The page says it and offers the button.
    const page = await ctx.app.inject({ method: 'GET', url: path });
    assert.equal(page.statusCode, 200);
    assert.match(
      page.body,
      /with an automated system, which compares it with each role&#39;s description|with an automated system, which compares it with each role's description/,
    );
    assert.match(page.body, new RegExp(`<form method="post" action="${path}/no-matching">`));
    assert.match(page.body, /Don(&#39;|')t match me/);

    const done = await postForm(ctx.app, `${path}/no-matching`);
    assert.equal(done.statusCode, 200, done.body);
    assert.match(done.body, /<h1>You will not be matched<\/h1>/);
    assert.match(done.body, /<p role="status">[^<]*will not match you to its roles by automated means/);
    const again = await ctx.app.inject({ method: 'GET', url: path });
    assert.equal(again.statusCode, 200);
    assert.doesNotMatch(again.body, /no-matching/, 'the button is not offered twice');
    assert.match(again.body, /will not match you to its roles by automated means/);
    const twice = await postForm(ctx.app, `${path}/no-matching`);
    assert.equal(twice.statusCode, 200, 'saying it again changes nothing');

    // Out of the account's matches and pool at once; the other person stays.
    assert.deepEqual(await idsOf(a.api, first.id), [other.candidateId]);
    const profiles = await ctx.handle.db
      .selectFrom('match_profiles')
      .select('subject_id')
      .where('subject_id', '=', person.candidateId)
      .execute();
    assert.deepEqual(profiles, []);

    // A new role and a pool change: generation matches the others, never the person.
    const newcomer = await importCv(a.api, cv(8));
    const second = await managedRole(a, { title: 'Backend Engineer' });
    await settle();
    assert.deepEqual(await idsOf(a.api, first.id), [other.candidateId, newcomer.candidateId].sort());
    assert.deepEqual(await idsOf(a.api, second.id), [other.candidateId, newcomer.candidateId].sort());

    // The person deletes their CV, and is imported again under the same address in other case.
    const deleted = await postForm(ctx.app, `${path}/delete`);
    assert.equal(deleted.statusCode, 200, deleted.body);
    const back = await importCv(a.api, cv(6), person.email.toUpperCase());
    await settle();
    const built = await ctx.handle.db
      .selectFrom('candidates')
      .select('cv_status')
      .where('id', '=', back.candidateId)
      .executeTakeFirstOrThrow();
    assert.equal(built.cv_status, 'staged', 'the re-import was built');
    const third = await managedRole(a, { title: 'Senior Backend Developer' });
    await settle();
    for (const job of [first, second, third]) {
      const ids = await idsOf(a.api, job.id);
      assert.ok(!ids.includes(back.candidateId), `the re-imported person is not matched to ${job.id}`);
      assert.ok(ids.includes(other.candidateId), `the others are (${job.id})`);
    }
    // Its claim mail carries the notice and its page confirms the "no" already said.
    const [, reMail] = await mailTo(ctx.app, person.email.toUpperCase());
    const [reLink] = claimLinksIn(reMail?.text ?? '');
    assert.ok(reLink, 'the re-import was mailed');
    const rePage = await ctx.app.inject({ method: 'GET', url: linkPath(reLink) });
    assert.match(rePage.body, /will not match you to its roles by automated means/);

    // The other account's pool is untouched.
    assert.deepEqual(await idsOf(b.api, roleOfB.id), [inB.candidateId]);

    // The record: the account, a keyed digest, when; never the address.
    const rows = await ctx.handle.db
      .selectFrom('match_opt_outs')
      .selectAll()
      .where('account_id', '=', a.account.id)
      .execute();
    assert.equal(rows.length, 1);
    assert.match(rows[0]?.address_hash ?? '', /^[0-9a-f]{64}$/);
    assert.ok(rows[0]?.created_at instanceof Date);
    const dump = (await dumpDatabase(ctx))
      .split('\n')
      .filter((line) => line.startsWith('match_opt_outs:'))
      .join('\n');
    assert.ok(dump.includes(a.account.id));
    assertNoTrace(dump, { email: person.email, 'local part': person.email.split('@')[0] as string });
  });
});
