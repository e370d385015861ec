import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { loggerOptions } from '../src/plugins/log.ts';
import { signedIn } from './console-web-client.ts';
import { type ApiClient, consoleCall, intakeAccount, unique } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { assertError } from './support/assert.ts';
import { applicationBody, pdfFixture, uploadPdf, uploadRow } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';
import { captureLog } from './support/log.ts';
import { drainAll } from './support/mail.ts';

/**
 * Issue 28 (extensions.md §5): a job's questions (the set's rules, staged on a live ad), typed
 * answers refused with 422 answers_invalid naming each problem and spending nothing, demographic
 * answers kept apart and read only as counts, the source, and the validate call's dry run.
 */

const CV = pdfFixture('cv-2-pages.pdf');
const { stream, lines } = captureLog();
const ctx = useTestApp({ logger: loggerOptions('info', stream) });

const MARKER = `zq_${Date.now().toString(36)}_mark`;

const QUESTIONS = [
  { id: 'intro', label: 'Say hello', type: 'short_text', required: true, maxLength: 20 },
  { id: 'story', label: 'Your story', type: 'long_text' },
  {
    id: 'shift',
    label: 'Preferred shift',
    type: 'single_select',
    options: [
      { value: 'early', label: 'Early' },
      { value: 'late', label: 'Late' },
    ],
  },
  {
    id: 'langs',
    label: 'Languages',
    type: 'multi_select',
    options: [
      { value: 'en', label: 'English' },
      { value: 'pt', label: 'Portuguese' },
      { value: 'es', label: 'Spanish' },
    ],
  },
  { id: 'visa', label: 'Do you need a visa?', type: 'yes_no' },
  { id: 'years', label: 'Years of experience', type: 'number', min: 0, max: 50 },
  { id: 'start', label: 'Earliest start date', type: 'date' },
  { id: 'portfolio', label: 'Portfolio (PDF)', type: 'file' },
  {
    id: 'group',
    label: 'Which group describes you?',
    type: 'single_select',
    demographic: true,
    options: [
      { value: MARKER, label: 'Group A' },
      { value: 'group_b', label: 'Group B' },
    ],
  },
];

async function setup(questions: unknown[] = QUESTIONS) {
  const who = await intakeAccount(ctx.app);
  const job = await createPublished(who.api, { questions });
  return { ...who, jobId: job.id, job };
}

const apply = (api: ApiClient, jobId: string, body: Record<string, unknown>) =>
  api.post(`/v1/jobs/${jobId}/applications`, body, { 'idempotency-key': unique('idem') });

const cvUpload = async (api: ApiClient) => (await uploadPdf(ctx, api, CV, { fileName: 'cv.pdf' })).uploadId;

const good = (extra: Record<string, unknown>[] = []) => [
  { questionId: 'intro', answer: 'Hello there' },
  ...extra,
];

describe('the question set', () => {
  test('a job carries its questions; required defaults to false; [] and null clear', async () => {
    const { api, jobId, job } = await setup();
    assert.equal(job.questions.length, QUESTIONS.length);
    assert.equal(job.questions[1]?.required, false);
    assert.equal(job.questions[0]?.required, true);
    const read = (await api.get(`/v1/jobs/${jobId}`)).json().job;
    assert.deepEqual(read.questions, job.questions);
    const draft = (await api.post('/v1/jobs', { title: 'T', questions: QUESTIONS })).json().job;
    for (const cleared of [[], null]) {
      const res = await api.patch(`/v1/jobs/${draft.id}`, { questions: cleared });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().job.questions, []);
      await api.patch(`/v1/jobs/${draft.id}`, { questions: QUESTIONS });
    }
    const bare = (await api.post('/v1/jobs', { title: 'T' })).json().job;
    assert.deepEqual(bare.questions, []);
  });

  test('an invalid set is 400 bad_request naming the field', async () => {
    const { api } = await setup([]);
    const select = (options: unknown) => ({ id: 'a', label: 'A', type: 'single_select', options });
    const cases: [unknown[], string][] = [
      [[QUESTIONS[0], { ...QUESTIONS[1], id: 'intro' }], 'questions[1].id'],
      [[QUESTIONS[0], QUESTIONS[1], select(undefined)], 'questions[2].options'],
      [[select([{ value: 'x', label: 'X' }])], 'questions[0].options'],
      [
        [
          select([
            { value: 'x', label: 'X' },
            { value: 'x', label: 'Y' },
          ]),
        ],
        'questions[0].options[1].value',
      ],
      [[{ id: 'n', label: 'N', type: 'number', min: 5, max: 1 }], 'questions[0].min'],
      [[{ ...QUESTIONS[8], required: true }], 'questions[0].required'],
      [[{ id: 'free', label: 'F', type: 'short_text', demographic: true }], 'questions[0].type'],
      [[{ id: 'Bad-Id', label: 'B', type: 'short_text' }], 'questions[0].id'],
      [[{ id: 't', label: 'T', type: 'short_text', options: [] }], 'questions[0].options'],
      [[{ id: 't', label: 'T', type: 'nope' }], 'questions[0].type'],
      [Array.from({ length: 31 }, (_, i) => ({ id: `q${i}`, label: 'Q', type: 'yes_no' })), 'questions'],
    ];
    for (const [questions, field] of cases) {
      const res = await api.post('/v1/jobs', { title: 'T', questions });
      const error = assertError(res, 400, 'bad_request');
      assert.equal(error.field, field, `${JSON.stringify(questions).slice(0, 120)}: ${res.body}`);
    }
  });

  test('on a published ad questions are staged until promoted, ids kept', async () => {
    const { api, jobId } = await setup([QUESTIONS[1]]);
    const edited = await api.patch(`/v1/jobs/${jobId}`, { questions: [QUESTIONS[1], QUESTIONS[4]] });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.equal(edited.json().pendingRevision, true);
    assert.deepEqual(
      edited.json().job.questions.map((q: { id: string }) => q.id),
      ['story'],
      'the live ad still asks the live questions',
    );
    // An application to the live ad is checked against the live questions only.
    const upload = await cvUpload(api);
    const refused = await apply(
      api,
      jobId,
      applicationBody(ctx.clock, upload, { answers: [{ questionId: 'visa', answer: true }] }),
    );
    assert.deepEqual(assertError(refused, 422, 'answers_invalid').fields, [
      { questionId: 'visa', problem: 'unknown_question' },
    ]);
    const promoted = await api.patch(`/v1/jobs/${jobId}`, { publishEdits: true });
    assert.equal(promoted.statusCode, 200, promoted.body);
    assert.deepEqual(
      promoted.json().job.questions.map((q: { id: string }) => q.id),
      ['story', 'visa'],
    );
    const accepted = await apply(
      api,
      jobId,
      applicationBody(ctx.clock, upload, { answers: [{ questionId: 'visa', answer: true }] }),
    );
    assert.equal(accepted.statusCode, 201, accepted.body);
  });
});

describe('typed answers', () => {
  test('every problem of §5 is answered 422 answers_invalid naming it', async () => {
    const { api, jobId } = await setup();
    const notPdf = await uploadPdf(ctx, api, pdfFixture('png-renamed.pdf'));
    const cases: [unknown[], { questionId: string; problem: string }][] = [
      [[], { questionId: 'intro', problem: 'required' }],
      [good([{ questionId: 'nope', answer: 'x' }]), { questionId: 'nope', problem: 'unknown_question' }],
      [good([{ questionId: 'visa', answer: 'yes' }]), { questionId: 'visa', problem: 'wrong_type' }],
      [good([{ questionId: 'shift', answer: 'noon' }]), { questionId: 'shift', problem: 'not_an_option' }],
      [[{ questionId: 'intro', answer: 'x'.repeat(21) }], { questionId: 'intro', problem: 'too_long' }],
      [good([{ questionId: 'years', answer: 51 }]), { questionId: 'years', problem: 'out_of_range' }],
      [good([{ questionId: 'start', answer: '2026-02-30' }]), { questionId: 'start', problem: 'bad_date' }],
      [
        good([{ questionId: 'portfolio', answer: { uploadId: notPdf.uploadId } }]),
        { questionId: 'portfolio', problem: 'upload_invalid' },
      ],
      [
        good([
          { questionId: 'story', answer: 'a' },
          { questionId: 'story', answer: 'b' },
        ]),
        { questionId: 'story', problem: 'duplicate' },
      ],
    ];
    const upload = await cvUpload(api);
    for (const [answers, expected] of cases) {
      const res = await apply(api, jobId, applicationBody(ctx.clock, upload, { answers }));
      const error = assertError(res, 422, 'answers_invalid');
      assert.deepEqual(error.fields, [expected], res.body);
    }
    // Several problems at once: every one named.
    const many = await apply(
      api,
      jobId,
      applicationBody(ctx.clock, upload, {
        answers: [
          { questionId: 'years', answer: -1 },
          { questionId: 'langs', answer: ['en', 'xx'] },
        ],
      }),
    );
    assert.deepEqual(assertError(many, 422, 'answers_invalid').fields, [
      { questionId: 'years', problem: 'out_of_range' },
      { questionId: 'langs', problem: 'not_an_option' },
      { questionId: 'intro', problem: 'required' },
    ]);
    // Nothing was spent: the same CV upload is used by a correct application.
    assert.equal((await uploadRow(ctx.handle, upload))?.used_at, null);
    assert.equal((await uploadRow(ctx.handle, notPdf.uploadId))?.used_at, null);
    const ok = await apply(api, jobId, applicationBody(ctx.clock, upload, { answers: good() }));
    assert.equal(ok.statusCode, 201, ok.body);
  });

  test('accepted: typed answers stored beside their labels, free ones as sent, the file kept with the CV', async () => {
    const { api, account, jobId } = await setup();
    const upload = await cvUpload(api);
    const portfolio = await uploadPdf(ctx, api, CV, { fileName: 'portfolio.pdf' });
    const res = await apply(
      api,
      jobId,
      applicationBody(ctx.clock, upload, {
        answers: [
          { question: 'Own question', answer: 'Own answer' },
          { questionId: 'intro', answer: 'Hi' },
          { questionId: 'shift', answer: 'late' },
          { questionId: 'langs', answer: ['pt', 'en'] },
          { questionId: 'visa', answer: false },
          { questionId: 'years', answer: 7 },
          { questionId: 'start', answer: '2027-01-15' },
          { questionId: 'portfolio', answer: { uploadId: portfolio.uploadId } },
        ],
        source: { utmSource: 'newsletter', utmCampaign: 'spring', referrer: 'https://example.org/jobs' },
      }),
    );
    assert.equal(res.statusCode, 201, res.body);
    const row = await ctx.handle.db
      .selectFrom('applications')
      .selectAll()
      .where('id', '=', res.json().applicationId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row.answers, [
      { question: 'Own question', answer: 'Own answer' },
      { questionId: 'intro', question: 'Say hello', answer: 'Hi', value: 'Hi' },
      { questionId: 'shift', question: 'Preferred shift', answer: 'Late', value: 'late' },
      { questionId: 'langs', question: 'Languages', answer: 'Portuguese, English', value: ['pt', 'en'] },
      { questionId: 'visa', question: 'Do you need a visa?', answer: 'No', value: false },
      { questionId: 'years', question: 'Years of experience', answer: '7', value: 7 },
      { questionId: 'start', question: 'Earliest start date', answer: '2027-01-15', value: '2027-01-15' },
      {
        questionId: 'portfolio',
        question: 'Portfolio (PDF)',
        answer: 'portfolio.pdf',
        value: { uploadId: portfolio.uploadId },
      },
    ]);
    assert.deepEqual(row.source_detail, {
      utmSource: 'newsletter',
      utmCampaign: 'spring',
      referrer: 'https://example.org/jobs',
    });
    assert.equal(row.source_channel, 'api');
    assert.ok((await uploadRow(ctx.handle, portfolio.uploadId))?.used_at, 'the file answer is spent');
    assert.equal(await ctx.files.size(portfolio.uploadId), CV.length, 'its file is kept');
    // The console's list reads them under their labels.
    const list = await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/jobs/${jobId}/applications`);
    assert.equal(list.json().applications[0].answers[2].answer, 'Late');
    // A named channel is the channel.
    const other = await apply(
      api,
      jobId,
      applicationBody(ctx.clock, await cvUpload(api), {
        answers: good(),
        source: { channel: 'career_fair' },
      }),
    );
    assert.equal(other.statusCode, 201, other.body);
    const otherRow = await ctx.handle.db
      .selectFrom('applications')
      .select(['source_channel'])
      .where('id', '=', other.json().applicationId)
      .executeTakeFirstOrThrow();
    assert.equal(otherRow.source_channel, 'career_fair');
    // A source that is not a URL, or too long, is the shape check's 400.
    const bad = await apply(
      api,
      jobId,
      applicationBody(ctx.clock, await cvUpload(api), { answers: good(), source: { referrer: 'not a url' } }),
    );
    assert.equal(assertError(bad, 400, 'bad_request').field, 'source.referrer');
  });

  test('erasing the application erases its file answers with the CV', async () => {
    const { api, jobId } = await setup();
    const portfolio = await uploadPdf(ctx, api, CV);
    const res = await apply(
      api,
      jobId,
      applicationBody(ctx.clock, await cvUpload(api), {
        answers: good([{ questionId: 'portfolio', answer: { uploadId: portfolio.uploadId } }]),
      }),
    );
    assert.equal(res.statusCode, 201, res.body);
    await drainAll(ctx.worker);
    assert.equal(await ctx.files.size(portfolio.uploadId), CV.length, 'kept while the CV is');
    ctx.clock.advance(400 * 24 * 3_600_000);
    assert.ok((await ctx.services.cv.expireStaged()) >= 1);
    const row = await ctx.handle.db
      .selectFrom('applications')
      .select(['answers', 'cv_status'])
      .where('id', '=', res.json().applicationId)
      .executeTakeFirstOrThrow();
    assert.equal(row.cv_status, 'deleted');
    assert.equal(row.answers, null);
    assert.equal(await ctx.files.size(portfolio.uploadId), null, 'the file answer is erased with the CV');
    assert.equal(await uploadRow(ctx.handle, portfolio.uploadId), undefined);
  });
});

describe('demographic answers', () => {
  test('kept apart: in no read, table, event or log line; only counts, under 5 hidden', async () => {
    const { api, account, jobId } = await setup();
    for (let i = 0; i < 6; i++) {
      const answers = good([{ questionId: 'group', answer: i < 5 ? MARKER : 'prefer_not_to_say' }]);
      const res = await apply(api, jobId, applicationBody(ctx.clock, await cvUpload(api), { answers }));
      assert.equal(res.statusCode, 201, res.body);
    }
    const one = await apply(
      api,
      jobId,
      applicationBody(ctx.clock, await cvUpload(api), {
        answers: good([{ questionId: 'group', answer: 'group_b' }]),
      }),
    );
    assert.equal(one.statusCode, 201, one.body);
    const counts = await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/jobs/${jobId}/demographics`);
    assert.equal(counts.statusCode, 200, counts.body);
    assert.deepEqual(counts.json(), {
      questions: [
        {
          questionId: 'group',
          label: 'Which group describes you?',
          options: [
            { value: MARKER, label: 'Group A', count: 5, fewerThan5: false },
            { value: 'group_b', label: 'Group B', count: null, fewerThan5: true },
            { value: 'prefer_not_to_say', label: 'Prefer not to say', count: null, fewerThan5: true },
          ],
        },
      ],
    });
    // The marker is an option value: the job's own words hold it, and the counts table. Nowhere else.
    const tables = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`.execute(ctx.handle.db);
    const holding: string[] = [];
    for (const { table_name } of tables.rows) {
      if (table_name === 'jobs' || table_name === 'demographic_answers') continue;
      const found = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM ${sql.table(table_name)} t WHERE t::text LIKE ${`%${MARKER}%`}`.execute(
        ctx.handle.db,
      );
      if ((found.rows[0]?.n ?? 0) > 0) holding.push(table_name);
    }
    assert.deepEqual(holding, [], 'no table but the job and the counts holds the answer');
    const list = await consoleCall(ctx.app, 'GET', `/accounts/${account.id}/jobs/${jobId}/applications`);
    assert.ok(!list.body.includes(MARKER) && !list.body.includes('Group A'), 'not in the console API read');
    assert.equal(list.json().applications.length, 7);
    const status = await api.get(`/v1/applications/${one.json().applicationId}`);
    assert.ok(!status.body.includes('group_b'), 'not in the application read');
    const events = await api.get('/v1/events?limit=100');
    assert.ok(!events.body.includes(MARKER) && !events.body.includes('group_b'), 'not in the events');
    const { web } = await signedIn(ctx.app, account.id, 'admin');
    const page = await web.get(`/console/jobs/${jobId}/applications`);
    assert.equal(page.statusCode, 200, page.body);
    assert.ok(!page.body.includes(MARKER) && !page.body.includes('group_b'), 'not on the applications table');
    // The answers are on the application's own page (the table lists applications).
    const detail = await web.get(`/console/applications/${one.json().applicationId}`);
    assert.equal(detail.statusCode, 200, detail.body);
    assert.ok(detail.body.includes('Hello there'), 'the application page shows the other answers');
    assert.ok(
      !detail.body.includes(MARKER) && !detail.body.includes('group_b'),
      'not on the application page',
    );
    assert.ok(!lines.some((line) => line.includes(MARKER)), 'not in any log line');
  });

  test('prefer_not_to_say is accepted on a demographic yes/no and multi-select, not on others', async () => {
    const { api, jobId } = await setup([
      { id: 'dyn', label: 'Disability?', type: 'yes_no', demographic: true },
      {
        id: 'dms',
        label: 'Backgrounds',
        type: 'multi_select',
        demographic: true,
        options: [
          { value: 'a', label: 'A' },
          { value: 'b', label: 'B' },
        ],
      },
      { id: 'plain', label: 'Plain', type: 'yes_no' },
    ]);
    const upload = await cvUpload(api);
    const refused = await apply(
      api,
      jobId,
      applicationBody(ctx.clock, upload, { answers: [{ questionId: 'plain', answer: 'prefer_not_to_say' }] }),
    );
    assert.deepEqual(assertError(refused, 422, 'answers_invalid').fields, [
      { questionId: 'plain', problem: 'wrong_type' },
    ]);
    const ok = await apply(
      api,
      jobId,
      applicationBody(ctx.clock, upload, {
        answers: [
          { questionId: 'dyn', answer: 'prefer_not_to_say' },
          { questionId: 'dms', answer: ['a', 'prefer_not_to_say'] },
        ],
      }),
    );
    assert.equal(ok.statusCode, 201, ok.body);
  });
});

describe('POST /v1/jobs/{jobId}/applications/validate', () => {
  async function rowCounts(): Promise<Record<string, number>> {
    const tables = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`.execute(ctx.handle.db);
    const counts: Record<string, number> = {};
    for (const { table_name } of tables.rows) {
      const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table_name)}`.execute(
        ctx.handle.db,
      );
      counts[table_name] = r.rows[0]?.n ?? 0;
    }
    return counts;
  }

  test('answers { valid: true } or the real call’s error, and writes nothing', async () => {
    const { api, jobId } = await setup();
    const upload = await cvUpload(api);
    const portfolio = await uploadPdf(ctx, api, CV);
    const validate = (body: Record<string, unknown>) =>
      api.post(`/v1/jobs/${jobId}/applications/validate`, body);
    const body = applicationBody(ctx.clock, upload, {
      answers: good([
        { questionId: 'portfolio', answer: { uploadId: portfolio.uploadId } },
        { questionId: 'group', answer: MARKER },
      ]),
    });
    const before = await rowCounts();
    const ok = await validate(body);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(ok.json(), { valid: true });
    assertError(await validate({ ...body, answers: [] }), 422, 'answers_invalid');
    assertError(await validate({ ...body, lawfulBasis: { attested: false } }), 422, 'attestation_required');
    assertError(
      await validate({ ...body, consent: { ...(body.consent as object), ip: '' } }),
      422,
      'consent_invalid',
    );
    assertError(await validate({ ...body, cv: { uploadId: 'upl_nope' } }), 400, 'upload_invalid');
    assertError(await validate({ ...body, name: '' }), 400, 'bad_request');
    assertError(
      await api.post('/v1/jobs/job_0000000000000000000000000a/applications/validate', body),
      404,
      'not_found',
    );
    const after = await rowCounts();
    // The per-minute rate limit is kept in the rate-limit store, not in a table.
    assert.deepEqual(after, before, 'no table gained or lost a row');
    assert.equal((await uploadRow(ctx.handle, upload))?.used_at, null);
    assert.equal((await uploadRow(ctx.handle, portfolio.uploadId))?.used_at, null);
    // And the real call then accepts the very same body.
    const real = await apply(api, jobId, body);
    assert.equal(real.statusCode, 201, real.body);
  });
});
