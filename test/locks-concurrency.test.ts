// Issue 25: concurrent writes on one job deadlocked on PostgreSQL and answered 500 `internal`.
// Publish locked the account row FOR UPDATE and then the job row; close and edit locked the job row
// and then inserted an event, whose foreign-key check takes FOR KEY SHARE on that account row; the
// screening trigger and the accepting application took the account row FOR UPDATE and then the job
// row's FOR KEY SHARE (their insert's foreign key). These rounds fire those writes together on one
// job and one account and hold every answer to a status its route documents (api.md, console.md).
// PGlite serves one transaction at a time, so nothing interleaves there: PostgreSQL only.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { type ApiClient, consoleCall, screeningAccount, unique } from './support/accounts.ts';
import { type TestContext, testConfig, useTestApp } from './support/app.ts';
import { applicationBody, applyTo, pdfFixture, uploadPdf } from './support/intake.ts';
import { createDraft, createPublished, manageJob } from './support/jobs.ts';
import { newTemplate, triggerScreening } from './support/screening.ts';

const skip =
  testConfig.databaseUrl === null
    ? 'needs DATABASE_URL (PostgreSQL): PGlite runs one transaction at a time, nothing interleaves'
    : false;

const ROUNDS = 30;

// Started inside the suite, so that a skipped suite starts nothing.
let ctx: TestContext;

/** The answers each route documents, as "status" or "status code" (api.md; console.md for the console). */
const DOCUMENTED: Record<string, readonly string[]> = {
  publish: ['200', '404 not_found', '409 conflict', '409 company_address_required', '422 not_publishable'],
  close: ['200', '404 not_found', '409 conflict'],
  edit: ['200', '400 bad_request', '404 not_found', '409 managed_ad_locked'],
  screening: [
    '201',
    '400 bad_request',
    '402 overage_cap_reached',
    '404 not_found',
    '409 ad_not_managed',
    '409 conflict',
    '409 price_unavailable',
    '429 unsolicited_contact_limit',
  ],
  manage: ['200', '409 conflict', '409 no_slot_available'],
  unmanage: ['200'],
  apply: [
    '200',
    '201',
    '400 upload_invalid',
    '409 job_not_open',
    '409 conflict',
    '429 daily_cap_reached',
    '429 rate_limited',
  ],
};

type Call = [route: keyof typeof DOCUMENTED, answer: Promise<LightMyRequestResponse>];

function label(res: LightMyRequestResponse): string {
  if (res.statusCode < 300) return String(res.statusCode);
  const code = (res.json() as { error?: { code?: string } }).error?.code;
  return `${res.statusCode} ${code}`;
}

/** Fires the calls together; fails naming every answer its route does not document. */
async function race(round: number, calls: Call[], seen: Record<string, number>): Promise<void> {
  const answers = await Promise.all(calls.map(([, answer]) => answer));
  const wrong: string[] = [];
  answers.forEach((res, i) => {
    const route = calls[i]![0];
    const answer = `${route} ${label(res)}`;
    seen[answer] = (seen[answer] ?? 0) + 1;
    if (!DOCUMENTED[route]!.includes(label(res))) wrong.push(`${answer}: ${res.body.slice(0, 200)}`);
  });
  assert.deepEqual(wrong, [], `round ${round}: answers no route documents`);
}

/** The rounds reached the writes they race (not only refusals): each of `answers` came at least once. */
function assertReached(seen: Record<string, number>, answers: string[]): void {
  for (const answer of answers)
    assert.ok((seen[answer] ?? 0) > 0, `never "${answer}": ${JSON.stringify(seen)}`);
}

/** The job published and managed again (a close or an unmanage of the last round undid it). */
async function liveAndManaged(api: ApiClient, accountId: string, jobId: string): Promise<void> {
  const published = await api.post(`/v1/jobs/${jobId}/publish`, {});
  assert.equal(published.statusCode, 200, published.body);
  await manageJob(ctx.app, accountId, jobId);
}

const publish = (api: ApiClient, jobId: string): Call => [
  'publish',
  api.post(`/v1/jobs/${jobId}/publish`, {}),
];
const close = (api: ApiClient, jobId: string): Call => ['close', api.post(`/v1/jobs/${jobId}/close`)];
const edit = (api: ApiClient, jobId: string, round: number): Call => [
  'edit',
  api.patch(`/v1/jobs/${jobId}`, { description: `<p>Round ${round}.</p>` }),
];
const consoleJob = (route: 'manage' | 'unmanage', accountId: string, jobId: string): Call => [
  route,
  consoleCall(ctx.app, 'POST', `/accounts/${accountId}/jobs/${jobId}/${route}`),
];

async function screeningSetup() {
  const s = await screeningAccount(ctx.app, { limits: { managedAdSlots: 10 } });
  const template = await newTemplate(ctx.app, s.account.id);
  const job = await createPublished(s.api);
  await manageJob(ctx.app, s.account.id, job.id);
  const applicant = await applyTo(ctx, s.api, job.id);
  const screen = (): Call => [
    'screening',
    triggerScreening(s.api, job.id, applicant.candidateId, { templateId: template.id }),
  ];
  return { ...s, job, screen };
}

describe('concurrent writes on one job and one account (PostgreSQL)', { skip }, () => {
  ctx = useTestApp();

  test('2 publishes, a close, a PATCH and a screening on one job, 30 rounds: no answer is a 5xx', async (t) => {
    const s = await screeningSetup();
    const seen: Record<string, number> = {};
    for (let round = 0; round < ROUNDS; round += 1) {
      if (round > 0) await liveAndManaged(s.api, s.account.id, s.job.id);
      await race(
        round,
        [
          publish(s.api, s.job.id),
          publish(s.api, s.job.id),
          close(s.api, s.job.id),
          edit(s.api, s.job.id, round),
          s.screen(),
        ],
        seen,
      );
    }
    t.diagnostic(JSON.stringify(seen));
    assertReached(seen, ['publish 200', 'close 200', 'edit 200', 'screening 201']);
  });

  test('publish, close, PATCH, manage, unmanage, screening and an application on one job, with a second job of the account publishing: no 5xx', async (t) => {
    const s = await screeningSetup();
    const seen: Record<string, number> = {};
    for (let round = 0; round < ROUNDS / 2; round += 1) {
      if (round > 0) await liveAndManaged(s.api, s.account.id, s.job.id);
      // The application's file is uploaded and sent beforehand: the race is its accepting transaction.
      const upload = await uploadPdf(ctx, s.api, pdfFixture('cv-2-pages.pdf'));
      const other = await createDraft(s.api, { title: `Other role ${round}` });
      await race(
        round,
        [
          publish(s.api, s.job.id),
          close(s.api, s.job.id),
          edit(s.api, s.job.id, round),
          consoleJob('unmanage', s.account.id, s.job.id),
          consoleJob('manage', s.account.id, s.job.id),
          s.screen(),
          [
            'apply',
            s.api.post(`/v1/jobs/${s.job.id}/applications`, applicationBody(ctx.clock, upload.uploadId), {
              'idempotency-key': unique('idem'),
            }),
          ],
          // A first publish of another of the account's roles (a new slug) and its close.
          publish(s.api, other.id),
          publish(s.api, other.id),
          close(s.api, other.id),
        ],
        seen,
      );
    }
    t.diagnostic(JSON.stringify(seen));
    assertReached(seen, ['publish 200', 'close 200', 'edit 200', 'manage 200', 'unmanage 200', 'apply 201']);
  });
});
