import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { REFRESH_BATCH_MS } from '../src/domain/matches/match-service.ts';
import { signedIn } from './console-web-client.ts';
import { BACKEND_ROLE } from './fixtures/matches/backend-role.ts';
import pool from './fixtures/matches/pool.json' with { type: 'json' };
import { type PoolCvDescription, renderPoolCv } from './fixtures/matches/render-cv.ts';
import { consoleCall, newAccount, screeningAccount, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { applyTo, candidateBody, uploadPdf } from './support/intake.ts';
import { createPublished, managedJob } from './support/jobs.ts';
import { drainAll } from './support/mail.ts';
import { newTemplate } from './support/screening.ts';

const ctx = useTestApp();

async function audit(accountId: string) {
  return (await consoleCall(ctx.app, 'GET', `/accounts/${accountId}/audit`)).json().entries as {
    action: string;
    detail: Record<string, unknown>;
    actor: { kind: string; email: string | null };
  }[];
}

const flashOf = (html: string) => /class="flash (ok|error)"[^>]*>([^<]*)</.exec(html)?.slice(1) ?? [];

describe('console pages: refusals of the domain, audit detail, screening, matches', () => {
  test('a refused change shows the domain message and records nothing', async () => {
    const account = await newAccount(ctx.app, { companyAddress: null });
    const admin = await signedIn(ctx.app, account.id, 'admin');
    await admin.web.get('/console/keys');
    const mint = await admin.web.post('/console/keys', { scopes: 'applications:write', name: 'intake' });
    assert.equal(mint.statusCode, 303);
    const [kind, flash] = flashOf((await admin.web.get('/console/keys')).body);
    assert.equal(kind, 'error');
    assert.match(
      flash ?? '',
      /only after an account admin accepts the data-processing addendum: in the console under Settings/,
    );
    const none = await admin.web.post('/console/keys', { name: 'no scopes' });
    assert.equal(none.statusCode, 303);
    assert.match(flashOf((await admin.web.get('/console/keys')).body)[1] ?? '', /at least one scope/);
    await admin.web.get('/console/jobs/new');
    const created = await admin.web.post('/console/jobs', {
      title: 'Ops lead',
      category: 'operations',
      description: 'Keep it running.',
    });
    const jobPath = String(created.headers.location);
    await admin.web.get(jobPath);
    const publish = await admin.web.post(`${jobPath}/publish`, { expiryDays: '60' });
    assert.equal(publish.statusCode, 303);
    assert.match(flashOf((await admin.web.get(jobPath)).body)[1] ?? '', /Choose a company address/);
    await admin.web.get('/console/settings');
    const address = await admin.web.post('/console/settings/address', { companyAddress: 'Not A Slug!' });
    assert.equal(address.statusCode, 303);
    assert.match(flashOf((await admin.web.get('/console/settings')).body)[1] ?? '', /companyAddress must be/);
    const titleTooLong = await admin.web.post(jobPath, { title: 'x'.repeat(300) });
    assert.equal(titleTooLong.statusCode, 400, 'the form comes back with its error');
    assert.match(titleTooLong.body, /<p class="error" id="title-error">Enter a title/);
    assert.match(titleTooLong.body, /aria-describedby="title-error"/);
    assert.deepEqual(
      (await audit(account.id)).map((entry) => entry.action),
      ['job.created', 'user.joined', 'user.invited'],
    );
    assert.deepEqual((await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/keys`)).json().keys, []);
  });

  test('the cap and the address record before and after; a removed user is signed out', async () => {
    const account = await newAccount(ctx.app);
    const admin = await signedIn(ctx.app, account.id, 'admin');
    const recruiter = await signedIn(ctx.app, account.id, 'recruiter');
    await admin.web.get('/console/billing');
    assert.equal((await admin.web.post('/console/billing/cap', { cap: '123.45' })).statusCode, 303);
    const [cap] = await audit(account.id);
    assert.equal(cap!.action, 'account.cap_changed');
    assert.deepEqual(cap!.detail, { beforeCents: 50000, afterCents: 12345 });
    assert.equal(cap!.actor.email, admin.email);
    await admin.web.get('/console/settings');
    await admin.web.post('/console/settings/address', { companyAddress: `moved-${Date.now()}` });
    const [moved] = await audit(account.id);
    assert.equal(moved!.action, 'account.address_changed');
    assert.equal(moved!.detail.before, account.companyAddress);
    await admin.web.get('/console/users');
    const removed = await admin.web.post(`/console/users/${recruiter.userId}/remove`);
    assert.equal(removed.statusCode, 303);
    assert.equal(
      (await recruiter.web.get('/console/jobs')).statusCode,
      303,
      'the removed user is signed out',
    );
  });

  test('a recruiter invites a candidate to a screening with a template; Billing lists it; Matches says none', async () => {
    const { account, api } = await screeningAccount(ctx.app);
    const job = await managedJob(ctx.app, api, account.id, { title: 'Screened role' });
    const applied = await applyTo(ctx, api, job.id);
    const billing = await signedIn(ctx.app, account.id, 'billing_admin');
    await billing.web.get('/console/billing');
    const template = await billing.web.post('/console/billing/templates', {
      name: 'Culture interview',
      price: '49.00',
      currency: 'USD',
    });
    assert.equal(template.statusCode, 303);
    assert.match((await billing.web.get('/console/billing')).body, /Culture interview — 49\.00 USD/);
    const tplId = /\/console\/billing\/templates\/(tpl_[^/]+)\/deactivate/.exec(billing.web.lastHtml)?.[1];
    assert.ok(tplId, 'a Deactivate button');
    assert.equal((await billing.web.post(`/console/billing/templates/${tplId}/deactivate`)).statusCode, 303);
    assert.match(
      (await billing.web.get('/console/billing')).body,
      /Culture interview — 49\.00 USD \(inactive\)/,
    );
    assert.equal((await audit(account.id))[0]!.action, 'template.updated');
    assert.equal((await billing.web.post(`/console/billing/templates/${tplId}/activate`)).statusCode, 303);
    const recruiter = await signedIn(ctx.app, account.id, 'recruiter');
    const page = await recruiter.web.get('/console/screening');
    const templateId = /<option value="(tpl_[^"]+)"/.exec(page.body)?.[1];
    assert.ok(templateId, 'the template is offered');
    const invited = await recruiter.web.post('/console/screening', {
      jobId: job.id,
      candidateId: applied.candidateId,
      templateId: templateId!,
      message: 'Looking forward to it',
    });
    assert.equal(invited.statusCode, 303);
    const listed = await recruiter.web.get('/console/screening');
    assert.match(flashOf(listed.body)[1] ?? '', /Invitation sent \(included\)/);
    assert.ok(listed.body.includes(applied.candidateId));
    assert.equal((await audit(account.id))[0]!.action, 'screening.invited');
    assert.ok((await billing.web.get('/console/billing')).body.includes(job.id));
    const matches = await recruiter.web.get(`/console/jobs/${job.id}/matches`);
    assert.equal(matches.statusCode, 200);
    assert.match(matches.body, /No matches yet/);
    const duplicate = await recruiter.web.post('/console/screening', {
      jobId: job.id,
      candidateId: applied.candidateId,
      templateId: templateId!,
    });
    assert.equal(duplicate.statusCode, 303);
    assert.equal(flashOf((await recruiter.web.get('/console/screening')).body)[0], 'error');
  });

  test("a managed ad's Matches page lists the pool's best candidates, with the application links to screening", async () => {
    const { account, api } = await screeningAccount(ctx.app);
    const people = pool as (PoolCvDescription & { truth: { occupation: string } })[];
    const backend = people.filter((p) => p.truth.occupation === 'backend').slice(0, 2);
    const imported: string[] = [];
    for (const cv of backend) {
      const upload = await uploadPdf(ctx, api, await renderPoolCv(cv));
      const email = `${unique('m').toLowerCase()}@example.com`;
      const res = await api.post('/v1/candidates', candidateBody(upload.uploadId, { name: cv.name, email }), {
        'idempotency-key': unique('idem'),
      });
      assert.equal(res.statusCode, 201, res.body);
      imported.push(res.json().candidateId);
    }
    const job = await createPublished(api, BACKEND_ROLE);
    const recruiter = await signedIn(ctx.app, account.id, 'recruiter');
    const unmanaged = await recruiter.web.get(`/console/jobs/${job.id}/matches`);
    assert.match(unmanaged.body, /matches are made for managed ads; manage the ad/);
    await recruiter.web.get(`/console/jobs/${job.id}`);
    assert.equal((await recruiter.web.post(`/console/jobs/${job.id}/manage`)).statusCode, 303);
    await drainAll(ctx.worker);
    ctx.clock.advance(REFRESH_BATCH_MS + 1);
    await ctx.services.maintenance();
    await drainAll(ctx.worker);
    const page = await recruiter.web.get(`/console/jobs/${job.id}/matches`);
    assert.equal(page.statusCode, 200);
    const listed = imported.filter((id) => page.body.includes(id));
    assert.ok(listed.length >= 1, 'at least one pool candidate is listed');
    assert.match(page.body, /\d+%/);
    const applied = await applyTo(ctx, api, job.id);
    const applications = await recruiter.web.get(`/console/applications/${applied.candidateId}`);
    assert.ok(
      applications.body.includes(`/console/screening?job=${job.id}&amp;candidate=${applied.candidateId}`),
    );
    await newTemplate(ctx.app, account.id, { name: 'Phone screen', priceCents: 1000, currency: 'USD' });
    const prefilled = await recruiter.web.get(
      `/console/screening?job=${job.id}&candidate=${applied.candidateId}`,
    );
    assert.ok(
      prefilled.body.includes(`value="${applied.candidateId}"`),
      prefilled.body.slice(prefilled.body.indexOf('<h1>'), prefilled.body.indexOf('<h1>') + 900),
    );
  });

  test('what employers and candidates typed is escaped on every console page', async () => {
    const { account, api } = await screeningAccount(ctx.app);
    const payload = '<script>alert(1)</script><img src=x onerror=alert(2)>"\'&';
    const job = await createPublished(api, { title: `Role ${payload}` });
    const applied = await applyTo(ctx, api, job.id, {
      name: `Name ${payload}`,
      coverNote: `Note ${payload}`,
      answers: [{ question: `Q ${payload}`, answer: `A ${payload}` }],
    });
    const admin = await signedIn(ctx.app, account.id, 'admin');
    await admin.web.get('/console/keys');
    await admin.web.post('/console/keys', { scopes: 'jobs:read', name: `Key ${payload}` });
    for (const path of [
      '/console/jobs',
      `/console/jobs/${job.id}`,
      `/console/jobs/${job.id}/applications`,
      `/console/applications/${applied.candidateId}`,
      '/console/keys',
      '/console/activity',
    ]) {
      const res = await admin.web.get(path);
      assert.equal(res.statusCode, 200, path);
      assert.ok(!res.body.includes('<script>alert(1)'), `${path}: no raw script`);
      assert.ok(!res.body.includes('<img src=x'), `${path}: no raw img`);
    }
    const applications = await admin.web.get(`/console/jobs/${job.id}/applications`);
    assert.ok(applications.body.includes('Name &lt;script&gt;alert(1)&lt;/script&gt;'));
  });
});
