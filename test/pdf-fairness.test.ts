// Issue 11, item 2: the CV check is bounded and fair. One source cannot take the checker (its
// checks wait behind its own, round-robin with everyone else's, and it may only hold a few), the
// hosted page has its own lane, and a full queue answers 503 `unavailable` with Retry-After in the
// spec's error body instead of waiting without end.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { CvInspector } from '../src/domain/ports.ts';
import { createCvChecker } from '../src/pdf/cv-check.ts';
import { CheckQueueFull, type CheckShare, FairLimiter } from '../src/pdf/fair-limiter.ts';
import { CV_LIMITS, tempDir, useTestApp } from './support/app.ts';
import { errorOf } from './support/assert.ts';
import { applyWithCv, pdfFixture } from './support/intake.ts';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const api = (key: string): CheckShare => ({ lane: 'api', key });
const page = (key: string): CheckShare => ({ lane: 'page', key });

describe('the fair limiter', () => {
  test('a second source is served next, not after the first source’s backlog', async () => {
    const limiter = new FairLimiter({ slots: 4, maxQueued: 32, maxPerKey: { api: 8, page: 2, task: 8 } });
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
    await new Promise((resolve) => setImmediate(resolve));
    // One key holds at most half the slots and a lane all but one: b1 starts at once.
    assert.deepEqual(order, ['a1', 'a2', 'b1']);
    gates.get('a1')!.open();
    await runs[0];
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(order, ['a1', 'a2', 'b1', 'a3']);
    for (let i = 0; i < 10; i++) {
      for (const g of gates.values()) g.open();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(runs);
    assert.equal(order.length, 7);
  });

  test('the lanes take turns: the page’s check runs before the API’s backlog', async () => {
    const limiter = new FairLimiter({ slots: 1, maxQueued: 32, maxPerKey: { api: 8, page: 2, task: 8 } });
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

  test('one key may hold only its share; a full queue refuses everyone, with a retry delay', async () => {
    const limiter = new FairLimiter({ slots: 2, maxQueued: 4, maxPerKey: { api: 3, page: 2, task: 8 } });
    const hold = gate();
    const task = () => hold.opened;
    const admitted = [0, 1, 2].map(() => limiter.run(page('203.0.113.5'), task).catch((e: Error) => e));
    const results = await Promise.all([
      ...admitted.slice(2),
      limiter.run(page('203.0.113.5'), task).catch((e: Error) => e),
    ]);
    for (const result of results) {
      assert.ok(result instanceof CheckQueueFull, 'the third check of one address is refused');
      assert.ok(result.retryAfterSeconds >= 1);
    }
    const fill = ['a', 'b', 'c', 'd', 'e'].map((key) => limiter.run(api(key), task).catch((e: Error) => e));
    const refused = await Promise.race([
      fill[4]!,
      new Promise((resolve) => setTimeout(resolve, 50, 'waiting')),
    ]);
    assert.ok(refused instanceof CheckQueueFull, `the queue holds 4 checks: ${String(refused)}`);
    assert.equal(limiter.queued, 4);
    hold.open();
    await Promise.all([...admitted.slice(0, 2), ...fill]);
    assert.equal(limiter.queued, 0);
    assert.equal(limiter.running, 0);
  });
});

describe('the real checker', () => {
  const checker = createCvChecker({ ...CV_LIMITS, poolSize: 1 });
  after(() => checker.close());

  test('a burst from one account past its share is refused at once; the rest get verdicts', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'cv.pdf');
    fs.writeFileSync(file, pdfFixture('cv-2-pages.pdf'));
    const results = await Promise.all(
      Array.from({ length: 12 }, () => checker.check(file, api('burst')).catch((e: Error) => e)),
    );
    const refused = results.filter((r) => r instanceof CheckQueueFull);
    const verdicts = results.filter((r) => !(r instanceof Error));
    assert.equal(refused.length, 4, 'an account holds 8 checks waiting or running');
    assert.equal(verdicts.length, 8);
    for (const verdict of verdicts) assert.equal((verdict as { ok: boolean }).ok, true);
  });
});

describe('over HTTP', () => {
  const busy: CvInspector = {
    check: async () => {
      throw new CheckQueueFull('16 CV checks are already waiting', 7);
    },
  };

  const ctx = useTestApp({ inspector: busy });

  test('a full checker answers 503 unavailable with Retry-After, and the upload stays usable', async () => {
    const applied = await applyWithCv(ctx);
    assert.equal(applied.res.statusCode, 503, applied.res.body);
    assert.equal(applied.res.headers['retry-after'], '7');
    assert.equal(errorOf(applied.res).code, 'unavailable');
  });
});
