// Issue 11, item 2 and issue 25, items 1 and 2: the CV check is bounded and fair. One source
// cannot take the checker (its checks wait behind its own, round-robin with everyone else's), the
// hosted page has its own lane, a burst from one source waits its turn instead of being refused, a
// source whose files keep being refused runs behind good work, and a check that waits past the
// deadline answers 503 `unavailable` with Retry-After in the spec's error body.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { CvInspector } from '../src/domain/ports.ts';
import { createCvChecker } from '../src/pdf/cv-check.ts';
import { CheckQueueFull, type CheckShare, FairLimiter } from '../src/pdf/fair-limiter.ts';
import { intakeAccount, unique } from './support/accounts.ts';
import { CV_LIMITS, tempDir, useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { applicationBody, applyWithCv, pdfFixture, uploadPdf } from './support/intake.ts';
import { createPublished } from './support/jobs.ts';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const api = (key: string): CheckShare => ({ lane: 'api', key });
const page = (key: string): CheckShare => ({ lane: 'page', key });
const QUEUE = { maxQueued: 400, maxQueuedPerKey: { api: 100, page: 10, task: 200 }, maxWaitMs: 60_000 };
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the fair limiter', () => {
  test('a second source is served next, not after the first source’s backlog', async () => {
    const limiter = new FairLimiter({ slots: 4, ...QUEUE });
    const order: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const submit = (share: CheckShare, name: string) => {
      const g = gate();
      gates.set(name, g);
      return limiter.run(share, async () => {
        order.push(name);
        await g.opened;
      });
    };
    const runs = [1, 2, 3, 4, 5, 6].map((i) => submit(api('flood'), `a${i}`));
    runs.push(submit(api('quiet'), 'b1'));
    await tick();
    // One key holds at most half the slots and a lane all but one: b1 starts at once.
    assert.deepEqual(order, ['a1', 'a2', 'b1']);
    gates.get('a1')!.open();
    await runs[0];
    await tick();
    assert.deepEqual(order, ['a1', 'a2', 'b1', 'a3']);
    for (let i = 0; i < 10; i++) {
      for (const g of gates.values()) g.open();
      await tick();
    }
    await Promise.all(runs);
    assert.equal(order.length, 7);
  });

  test('two sources interleave round robin, whoever sent first', async () => {
    const limiter = new FairLimiter({ slots: 1, ...QUEUE });
    const order: string[] = [];
    const first = gate();
    const runs = [limiter.run(api('a'), () => first.opened.then(() => void order.push('a1')))];
    for (const i of [2, 3, 4]) runs.push(limiter.run(api('a'), async () => void order.push(`a${i}`)));
    for (const i of [1, 2, 3, 4]) runs.push(limiter.run(api('b'), async () => void order.push(`b${i}`)));
    assert.equal(limiter.queued, 7);
    first.open();
    await Promise.all(runs);
    assert.deepEqual(order, ['a1', 'b1', 'a2', 'b2', 'a3', 'b3', 'a4', 'b4']);
  });

  test('the lanes take turns: the page’s check runs before the API’s backlog', async () => {
    const limiter = new FairLimiter({ slots: 1, ...QUEUE });
    const order: string[] = [];
    const first = gate();
    const runs: Promise<void>[] = [
      limiter.run(api('x'), async () => {
        order.push('api1');
        await first.opened;
      }),
    ];
    for (const key of ['y', 'z', 'w'])
      runs.push(limiter.run(api(key), async () => void order.push(`api-${key}`)));
    runs.push(limiter.run(page('198.51.100.9'), async () => void order.push('page')));
    first.open();
    await Promise.all(runs);
    assert.equal(order[1], 'page');
  });

  test('a burst from one source waits its turn: 100 checks at once all run, none refused', async () => {
    const limiter = new FairLimiter({ slots: 2, ...QUEUE });
    let ran = 0;
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        limiter.run(api('burst'), async () => void ran++).catch((e: Error) => e),
      ),
    );
    assert.equal(results.filter((r) => r instanceof Error).length, 0);
    assert.equal(ran, 100);
    assert.deepEqual(limiter.stats, { deferred: 0, expired: 0, refused: 0 });
  });

  test('a check whose wait passes the deadline is refused with a retry delay; the queue is bounded', async () => {
    const limiter = new FairLimiter({
      slots: 1,
      maxQueued: 4,
      maxQueuedPerKey: { api: 3, page: 2, task: 8 },
      maxWaitMs: 200,
    });
    const hold = gate();
    const running = limiter.run(api('slow'), () => hold.opened);
    const waiting = limiter.run(api('next'), async () => 'ran').catch((e: Error) => e);
    const expired = await waiting;
    assert.ok(expired instanceof CheckQueueFull, `refused after its wait: ${String(expired)}`);
    assert.match(expired.message, /waited/);
    assert.ok(expired.retryAfterSeconds >= 1);
    assert.equal(limiter.queued, 0, 'the expired check left the queue');
    assert.equal(limiter.stats.expired, 1);
    // Past a key's own part of the queue, and past the whole queue, the refusal is immediate.
    const own = [1, 2, 3, 4].map(() => limiter.run(api('k'), async () => 0).catch((e: Error) => e));
    assert.ok((await own[3]) instanceof CheckQueueFull, 'a key holds 3 waiting checks');
    const other = [1, 2].map(() => limiter.run(api('m'), async () => 0).catch((e: Error) => e));
    assert.ok((await other[1]) instanceof CheckQueueFull, 'the queue holds 4');
    assert.equal(limiter.stats.refused, 2);
    hold.open();
    await running;
    await Promise.all([...own, ...other]);
    assert.equal(limiter.running, 0);
  });

  test('a source whose files keep being refused runs one at a time, behind good work', async () => {
    const limiter = new FairLimiter({ slots: 1, ...QUEUE });
    const refusedFile = (result: string) => result === 'refused';
    const submit = (key: string, name: string, result: string) =>
      limiter.run(
        api(key),
        async () => {
          order.push(name);
          return result;
        },
        refusedFile,
      );
    const order: string[] = [];
    for (let i = 0; i < 3; i++) await submit('hostile', 'warm', 'refused');
    assert.equal(limiter.suspect(api('hostile')), true);
    assert.equal(limiter.suspect(api('good')), false);
    order.length = 0;
    const hold = gate();
    const runs: Promise<unknown>[] = [limiter.run(api('first'), () => hold.opened)];
    // The hostile source is first in line; the good sources' checks still go before its own.
    for (let i = 1; i <= 3; i++) runs.push(submit('hostile', `h${i}`, 'refused'));
    for (let i = 1; i <= 3; i++) runs.push(submit(`good${i}`, `g${i}`, 'ok'));
    hold.open();
    await Promise.all(runs);
    assert.deepEqual(order, ['g1', 'g2', 'g3', 'h1', 'h2', 'h3']);
    assert.equal(limiter.stats.deferred, 3);

    // With slots to spare, a suspect source still runs only one check at a time.
    const wide = new FairLimiter({ slots: 4, ...QUEUE });
    for (let i = 0; i < 3; i++) await wide.run(api('hostile'), async () => 'refused', refusedFile);
    const held = gate();
    const three = [1, 2, 3].map(() => wide.run(api('hostile'), () => held.opened.then(() => 'refused')));
    await tick();
    assert.equal(wide.running, 1);
    assert.equal(wide.queued, 2);
    held.open();
    await Promise.all(three);
    // Accepted files clear a source's standing again.
    for (let i = 0; i < 6; i++) await limiter.run(api('hostile'), async () => 'ok', refusedFile);
    assert.equal(limiter.suspect(api('hostile')), false);
  });
});

describe('the real checker', () => {
  const checker = createCvChecker({ ...CV_LIMITS, poolSize: 1, maxWaitMs: 120_000 });
  after(() => checker.close());

  test('a burst of 20 checks from one account all get their verdicts', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'cv.pdf');
    fs.writeFileSync(file, pdfFixture('cv-2-pages.pdf'));
    const results = await Promise.all(
      Array.from({ length: 20 }, () => checker.check(file, api('burst'), 'none').catch((e: Error) => e)),
    );
    assert.equal(
      results.filter((r) => r instanceof Error).length,
      0,
      String(results.find((r) => r instanceof Error)),
    );
    for (const verdict of results) assert.equal((verdict as { ok: boolean }).ok, true);
  });
});

describe('over HTTP, through the real checker and pool', () => {
  // The production checker, with a wait deadline long enough for a machine under heavy load.
  const checker = createCvChecker({ ...CV_LIMITS, maxWaitMs: 120_000 });
  after(() => checker.close());
  const ctx = useTestApp({ inspector: checker });

  test('20 applications sent at once by one account all answer 201', async () => {
    const intake = await intakeAccount(ctx.app, { companyName: 'Burst Company' });
    const job = await createPublished(intake.api, { title: 'Backend Engineer' });
    const pdf = pdfFixture('cv-2-pages.pdf');
    const uploads = [];
    for (let i = 0; i < 20; i++) uploads.push(await uploadPdf(ctx, intake.api, pdf));
    const answers = await Promise.all(
      uploads.map((upload) =>
        intake.api.post(`/v1/jobs/${job.id}/applications`, applicationBody(ctx.clock, upload.uploadId), {
          'idempotency-key': unique('idem'),
        }),
      ),
    );
    const statuses = answers.map((res) => res.statusCode);
    assert.deepEqual(statuses, Array(20).fill(201), answers.find((res) => res.statusCode !== 201)?.body);
  });
});

describe('over HTTP, a checker that is full', () => {
  const busy: CvInspector = {
    check: async () => {
      throw new CheckQueueFull('a CV check waited 20 s for its turn', 7);
    },
  };

  const ctx = useTestApp({ inspector: busy });

  test('a check refused after its wait answers 503 unavailable with Retry-After; the upload stays usable', async () => {
    const applied = await applyWithCv(ctx);
    assert.equal(applied.res.statusCode, 503, applied.res.body);
    assert.equal(applied.res.headers['retry-after'], '7');
    assert.equal(errorOf(applied.res).code, 'unavailable');
  });
});
