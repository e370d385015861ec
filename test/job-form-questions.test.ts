import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { signedIn } from './console-web-client.ts';
import { consoleCall, intakeAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { assertError } from './support/assert.ts';
import { applyTo } from './support/intake.ts';
import { createPublished, jobCount } from './support/jobs.ts';

/**
 * Issue 28 item 7: the console's job form edits the questions (add, remove, reorder, types,
 * options), refusing a bad set on its fields; the applications list filters by a select or yes/no
 * answer, in the page and the console API alike.
 */

const ctx = useTestApp();

/** A page matches: on failure, the message and the pattern only (pages are long). */
function has(body: string, pattern: RegExp, message = String(pattern)): void {
  assert.ok(pattern.test(body), message);
}
function hasNot(body: string, pattern: RegExp, message = String(pattern)): void {
  assert.ok(!pattern.test(body), `unexpected: ${message}`);
}

const BASE = { title: 'Warehouse lead', category: 'logistics', description: 'Run the floor.' };

/** The form's fields for these question rows (q-0-label…), with the count. */
function questionFields(rows: Record<string, string>[]): Record<string, string> {
  const fields: Record<string, string> = { questionCount: String(rows.length) };
  rows.forEach((row, i) => {
    for (const [name, value] of Object.entries(row)) fields[`q-${i}-${name}`] = value;
  });
  return fields;
}

async function consoleJob(accountId: string, jobId: string) {
  const res = await consoleCall(ctx.app, 'GET', `/accounts/${accountId}/jobs`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().jobs.find((j: { id: string }) => j.id === jobId);
}

describe('the job form edits questions', () => {
  test('a new job saves every type, ids and option values made from the labels', async () => {
    const mine = await intakeAccount(ctx.app);
    const recruiter = await signedIn(ctx.app, mine.account.id, 'recruiter');
    await recruiter.web.get('/console/jobs/new');
    const created = await recruiter.web.post('/console/jobs', {
      ...BASE,
      ...questionFields([
        { label: 'Do you hold a forklift licence?', type: 'yes_no', required: 'yes' },
        { label: 'Preferred shift', type: 'single_select', options: 'Early\nLate\nNight [nights]' },
        { label: 'Languages', type: 'multi_select', options: 'English\nPortuguese' },
        { label: 'Years on a warehouse floor', type: 'number', min: '0', max: '50' },
        { label: 'Why this role?', type: 'long_text', maxLength: '2000', helpText: 'A few lines.' },
        { label: 'Earliest start', type: 'date' },
        { label: 'A reference letter', type: 'file' },
        { label: '', type: 'short_text' },
        { label: 'Which group describes you?', type: 'single_select', options: 'A\nB', demographic: 'yes' },
      ]),
    });
    assert.equal(created.statusCode, 303, created.body);
    const jobId = String(created.headers.location).split('/').at(-1)!;
    const job = await consoleJob(mine.account.id, jobId);
    assert.deepEqual(job.questions, [
      {
        id: 'do_you_hold_a_forklift_licence',
        label: 'Do you hold a forklift licence?',
        type: 'yes_no',
        required: true,
      },
      {
        id: 'preferred_shift',
        label: 'Preferred shift',
        type: 'single_select',
        required: false,
        options: [
          { label: 'Early', value: 'early' },
          { label: 'Late', value: 'late' },
          { label: 'Night', value: 'nights' },
        ],
      },
      {
        id: 'languages',
        label: 'Languages',
        type: 'multi_select',
        required: false,
        options: [
          { label: 'English', value: 'english' },
          { label: 'Portuguese', value: 'portuguese' },
        ],
      },
      {
        id: 'years_on_a_warehouse_floor',
        label: 'Years on a warehouse floor',
        type: 'number',
        required: false,
        min: 0,
        max: 50,
      },
      {
        id: 'why_this_role',
        label: 'Why this role?',
        type: 'long_text',
        required: false,
        helpText: 'A few lines.',
        maxLength: 2000,
      },
      { id: 'earliest_start', label: 'Earliest start', type: 'date', required: false },
      { id: 'a_reference_letter', label: 'A reference letter', type: 'file', required: false },
      {
        id: 'which_group_describes_you',
        label: 'Which group describes you?',
        type: 'single_select',
        required: false,
        demographic: true,
        options: [
          { label: 'A', value: 'a' },
          { label: 'B', value: 'b' },
        ],
      },
    ]);

    // The form shows them again, a saved choice's differing key in brackets, and saving it as shown
    // changes nothing.
    const page = await recruiter.web.get(`/console/jobs/${jobId}`);
    has(page.body, /<legend>Question 2: Preferred shift<\/legend>/);
    has(page.body, /name="q-1-options" rows="4"[^>]*>Early\nLate\nNight \[nights\]<\/textarea>/);
    has(page.body, /name="q-0-id" value="do_you_hold_a_forklift_licence"/);
    const shown = questionFields([
      {
        id: 'do_you_hold_a_forklift_licence',
        label: 'Do you hold a forklift licence?',
        type: 'yes_no',
        required: 'yes',
      },
      {
        id: 'preferred_shift',
        label: 'Preferred shift',
        type: 'single_select',
        options: 'Early\nLate\nNight [nights]',
      },
      { id: 'languages', label: 'Languages', type: 'multi_select', options: 'English\nPortuguese' },
      {
        id: 'years_on_a_warehouse_floor',
        label: 'Years on a warehouse floor',
        type: 'number',
        min: '0',
        max: '50',
      },
      {
        id: 'why_this_role',
        label: 'Why this role?',
        type: 'long_text',
        maxLength: '2000',
        helpText: 'A few lines.',
      },
      { id: 'earliest_start', label: 'Earliest start', type: 'date' },
      { id: 'a_reference_letter', label: 'A reference letter', type: 'file' },
      {
        id: 'which_group_describes_you',
        label: 'Which group describes you?',
        type: 'single_select',
        options: 'A\nB',
        demographic: 'yes',
      },
    ]);
    const same = await recruiter.web.post(`/console/jobs/${jobId}`, { ...BASE, ...shown });
    assert.equal(same.statusCode, 303, same.body);
    has((await recruiter.web.get(`/console/jobs/${jobId}`)).body, /Nothing changed/);
  });

  test('add, move and remove post the form back with the change, saving nothing until Save', async () => {
    const mine = await intakeAccount(ctx.app);
    const recruiter = await signedIn(ctx.app, mine.account.id, 'recruiter');
    const job = await createPublished(mine.api, {
      questions: [
        { id: 'first', label: 'First', type: 'short_text' },
        { id: 'second', label: 'Second', type: 'yes_no' },
        { id: 'third', label: 'Third', type: 'date' },
      ],
    });
    const path = `/console/jobs/${job.id}`;
    const page = (await recruiter.web.get(path)).body;
    has(page, /<button type="submit" id="q-0-up"[^>]*disabled/, 'the first cannot move up');
    const rows = [
      { id: 'first', label: 'First', type: 'short_text' },
      { id: 'second', label: 'Second', type: 'yes_no' },
      { id: 'third', label: 'Third', type: 'date' },
    ];
    const words = { title: job.title, category: job.category ?? '', description: job.description };
    const fields = { ...words, ...questionFields(rows) };

    const added = await recruiter.web.post(path, { ...fields, intent: 'add-question' });
    assert.equal(added.statusCode, 200);
    has(added.body, /<legend>Question 4<\/legend>/);
    has(
      added.body,
      /id="q-3-label" name="q-3-label" value=""[^>]*autofocus/,
      'the keyboard goes to the new row',
    );

    const moved = await recruiter.web.post(path, { ...fields, intent: 'up-question-2' });
    has(moved.body, /<legend>Question 2: Third<\/legend>[\s\S]*<legend>Question 3: Second<\/legend>/);
    has(moved.body, /id="q-1-up"[^>]*autofocus/, 'the keyboard stays on the moved row’s button');

    const removed = await recruiter.web.post(path, { ...fields, intent: 'remove-question-0' });
    hasNot(removed.body, /<legend>Question \d: First<\/legend>/);
    has(removed.body, /name="questionCount" value="2"/);
    assert.deepEqual(
      (await consoleJob(mine.account.id, job.id)).questions.map((q: { id: string }) => q.id),
      ['first', 'second', 'third'],
      'nothing saved by the buttons',
    );

    // Save the reordered set without the first: ids kept; on the live ad the change is staged.
    const saved = await recruiter.web.post(path, {
      ...words,
      ...questionFields([rows[2]!, rows[1]!, { label: 'Anything else?', type: 'long_text' }]),
    });
    assert.equal(saved.statusCode, 303, /<div class="error-summary"[\s\S]*?<\/div>/.exec(saved.body)?.[0]);
    const read = await mine.api.get(`/v1/jobs/${job.id}`);
    assert.deepEqual(
      read.json().job.questions.map((q: { id: string }) => q.id),
      ['first', 'second', 'third'],
      'the live ad keeps its questions until the change is made live',
    );
    const staged = await consoleJob(mine.account.id, job.id);
    const pending = staged.stagedRevision ?? staged;
    assert.deepEqual(
      pending.questions.map((q: { id: string }) => q.id),
      ['third', 'second', 'anything_else'],
    );
  });

  test('a bad set is refused on its fields, the values typed kept, nothing saved', async () => {
    const mine = await intakeAccount(ctx.app);
    const recruiter = await signedIn(ctx.app, mine.account.id, 'recruiter');
    await recruiter.web.get('/console/jobs/new');
    const before = await jobCount(ctx.handle, mine.account.id);
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ label: 'Shift', type: 'single_select', options: 'Only one' }, 'options', /2 to 100 choices/],
      [{ label: 'Shift', type: 'multi_select', options: 'Same\nSame' }, 'options', /2 to 100 choices/],
      [
        { label: 'Group', type: 'yes_no', demographic: 'yes', required: 'yes' },
        'required',
        /cannot be required/,
      ],
      [{ label: 'Group', type: 'short_text', demographic: 'yes' }, 'type', /choice or yes\/no/],
      [{ label: 'Years', type: 'number', min: '10', max: '2' }, 'min', /cannot be more than the highest/],
      [{ label: 'Years', type: 'number', min: 'ten' }, 'min', /Enter a number/],
      [{ label: 'Why', type: 'long_text', maxLength: '20000' }, 'maxLength', /from 1 to 10,000/],
      [{ label: 'x'.repeat(501), type: 'short_text' }, 'label', /up to 500 characters/],
    ];
    for (const [row, field, message] of cases) {
      const res = await recruiter.web.post('/console/jobs', {
        ...BASE,
        ...questionFields([{ label: 'Fine', type: 'short_text' }, row]),
      });
      assert.equal(res.statusCode, 400, `${JSON.stringify(row)}: ${res.body.slice(0, 200)}`);
      const id = `q-1-${field}`;
      has(res.body, new RegExp(`<p class="error" id="${id}-error">`), `${id} has its error`);
      has(res.body, new RegExp(`<a href="#${id}">[^<]*`), `the summary links ${id}`);
      assert.match(/<div class="error-summary"[\s\S]*?<\/div>/.exec(res.body)?.[0] ?? '', message);
      has(res.body, new RegExp(`id="${id}"[^>]*aria-invalid="true"`));
      has(res.body, /name="q-0-label" value="Fine"/, 'the other row is kept');
    }
    assert.equal(await jobCount(ctx.handle, mine.account.id), before, 'nothing saved');
  });
});

describe('the applications list filters by an answer', () => {
  test('a select, a multi-select and a yes/no answer; never a demographic question', async () => {
    const mine = await intakeAccount(ctx.app);
    const job = await createPublished(mine.api, {
      questions: [
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
          ],
        },
        { id: 'licence', label: 'Forklift licence?', type: 'yes_no' },
        { id: 'notes', label: 'Anything else', type: 'short_text' },
        {
          id: 'group',
          label: 'Which group describes you?',
          type: 'single_select',
          demographic: true,
          options: [
            { value: 'group_a', label: 'Group A' },
            { value: 'group_b', label: 'Group B' },
          ],
        },
      ],
    });
    const people = [
      { name: 'Ana Early', shift: 'early', langs: ['en', 'pt'], licence: true },
      { name: 'Bo Late', shift: 'late', langs: ['en'], licence: false },
      { name: 'Cy Early', shift: 'early', langs: ['pt'], licence: false },
    ];
    for (const p of people)
      await applyTo(ctx, mine.api, job.id, {
        name: p.name,
        answers: [
          { questionId: 'shift', answer: p.shift },
          { questionId: 'langs', answer: p.langs },
          { questionId: 'licence', answer: p.licence },
          { questionId: 'group', answer: 'group_a' },
        ],
      });
    const api = async (answer: string) => {
      const res = await consoleCall(
        ctx.app,
        'GET',
        `/accounts/${mine.account.id}/jobs/${job.id}/applications?sort=name&answer=${answer}`,
      );
      return res;
    };
    const names = async (answer: string) => {
      const res = await api(answer);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().applications.map((a: { name: string }) => a.name);
    };
    assert.deepEqual(await names('shift:early'), ['Ana Early', 'Cy Early']);
    assert.deepEqual(await names('langs:pt'), ['Ana Early', 'Cy Early']);
    assert.deepEqual(await names('langs:en'), ['Ana Early', 'Bo Late']);
    assert.deepEqual(await names('licence:yes'), ['Ana Early']);
    assert.deepEqual(await names('licence:no'), ['Bo Late', 'Cy Early']);
    for (const bad of ['group:group_a', 'notes:x', 'shift:night', 'nope:early']) {
      const res = await api(bad);
      assertError(res, 400, 'bad_request');
      assert.equal(res.json().error.field, 'answer', bad);
    }

    const recruiter = await signedIn(ctx.app, mine.account.id, 'recruiter');
    const list = `/console/jobs/${job.id}/applications`;
    const page = (await recruiter.web.get(list)).body;
    has(page, /<label for="f-answer">Answered<\/label>/);
    has(page, /<optgroup label="Preferred shift"><option value="shift:early">Early<\/option>/);
    has(page, /<optgroup label="Forklift licence\?"><option value="licence:yes">Yes<\/option>/);
    hasNot(page, /Which group describes you|group_a/, 'no demographic filter');
    const filtered = (await recruiter.web.get(`${list}?answer=licence%3Ano&sort=name`)).body;
    has(filtered, /2 matching applications/);
    has(filtered, /Bo Late[\s\S]*Cy Early/);
    hasNot(filtered, /Ana Early/);
    has(filtered, /<option value="licence:no" selected>No<\/option>/);
    const stale = await recruiter.web.get(`${list}?answer=gone%3Ayes`);
    assert.equal(stale.statusCode, 200, 'a filter the job no longer offers is dropped');
    has(stale.body, /Ana Early/);
  });
});
