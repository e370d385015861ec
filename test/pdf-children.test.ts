// Issue 12, item 3 (the PDF children) and issue 11, item 7 (their sandbox). A parser child that
// dies for a reason other than the file (killed from outside, a deploy's signal) never turns a
// valid CV into `cv_rejected`: the PDF is retried once on a fresh child, else 503. The children sit
// in their own process group, so the service's group SIGTERM does not reach them. Inside, a child
// can read only its code and pdf.js (not DATA_DIR), and can open no socket and start no process.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import {
  type CvCheckerEvent,
  createCvChecker,
  ParserPoolUnavailable,
  RECYCLE_AFTER,
} from '../src/pdf/cv-check.ts';
import { ParserPool } from '../src/pdf/parser-pool.ts';
import { CV_LIMITS, tempDir, useTestApp } from './support/app.ts';
import { applyWithCv, pdfFixture } from './support/intake.ts';

/** A checker whose parse_started events go to `onStart` (which may kill the child). */
function checkerWith(onStart: (pid: number, attempt: number) => void) {
  return createCvChecker({
    ...CV_LIMITS,
    poolSize: 1,
    onEvent: (event: CvCheckerEvent) => {
      if (event.type === 'parse_started') onStart(event.pid, event.attempt);
    },
  });
}

function cvFile(): string {
  const file = path.join(tempDir(), 'cv.pdf');
  fs.writeFileSync(file, pdfFixture('cv-2-pages.pdf'));
  return file;
}

function processGroup(pid: number): number {
  // /proc/<pid>/stat: "pid (comm) state ppid pgrp …"; comm may hold spaces, so split after ")".
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

describe('a child killed while it parses', () => {
  test('once: the PDF is parsed again on a fresh child and the verdict is the file’s', async () => {
    const pids: number[] = [];
    const checker = checkerWith((pid, attempt) => {
      pids.push(pid);
      if (attempt === 1) process.kill(pid, 'SIGKILL');
    });
    try {
      const verdict = await checker.check(cvFile());
      assert.equal(verdict.ok, true);
      assert.equal(pids.length, 2);
      assert.notEqual(pids[0], pids[1], 'the retry ran on another child');
    } finally {
      await checker.close();
    }
  });

  test('twice: ParserPoolUnavailable (503), never a verdict on the file', async () => {
    const checker = checkerWith((pid) => process.kill(pid, 'SIGTERM'));
    try {
      await assert.rejects(checker.check(cvFile()), ParserPoolUnavailable);
    } finally {
      await checker.close();
    }
  });
});

describe('through the API', () => {
  let killed = 0;
  const checker = checkerWith((pid, attempt) => {
    if (attempt === 1) {
      killed++;
      process.kill(pid, 'SIGKILL');
    }
  });

  const ctx = useTestApp({ inspector: checker });
  after(async () => {
    await checker.close();
  });

  test('an application whose parser child is killed mid-parse still succeeds', async () => {
    const applied = await applyWithCv(ctx);
    assert.equal(applied.res.statusCode, 201, applied.res.body);
    assert.equal(killed, 1);
  });
});

describe('the children’s process group and sandbox', () => {
  const pool = new ParserPool({
    size: 1,
    timeoutMs: 5000,
    memoryLimitMb: 1536,
    heapLimitMb: 256,
    recycleAfter: 200,
    recycleAboveRssMb: 256,
  });
  after(() => pool.close());

  test('a child leads its own process group: the service’s group signal does not reach it', async () => {
    let pid = 0;
    const checker = checkerWith((p) => {
      pid = p;
    });
    try {
      assert.equal((await checker.check(cvFile())).ok, true);
      assert.ok(pid > 0);
      assert.equal(processGroup(pid), pid);
      assert.notEqual(processGroup(pid), processGroup(process.pid));
    } finally {
      await checker.close();
    }
  });

  test('inside the child: DATA_DIR unreadable, no socket, no fetch, no process', async () => {
    const dataDir = tempDir('careers-data-');
    const secret = path.join(dataDir, 'console-token');
    fs.writeFileSync(secret, 'not for the parser\n', { mode: 0o600 });
    const report = await pool.probeSandbox(secret);
    assert.equal(report.read, 'ERR_ACCESS_DENIED');
    assert.equal(report.connect, 'ERR_ACCESS_DENIED');
    assert.equal(report.fetch, 'ERR_ACCESS_DENIED');
    assert.equal(report.spawn, 'ERR_ACCESS_DENIED');
    // The probe itself works: the child may read its own code.
    const own = await pool.probeSandbox(new URL('../src/pdf/parse-worker.ts', import.meta.url).pathname);
    assert.equal(own.read, 'allowed');
  });
});

describe('a child is replaced when it has grown or served long enough', () => {
  /** A pool of one child; resolves the recycling stops seen over `documents` parses. */
  async function stopsAfter(documents: number, limits: { recycleAfter: number; recycleAboveRssMb: number }) {
    const stops: string[] = [];
    const pool = new ParserPool({
      size: 1,
      timeoutMs: 5000,
      memoryLimitMb: 1536,
      heapLimitMb: 256,
      ...limits,
      onEvent: (event) => {
        if (event.type === 'worker_stopped' && event.cause === 'recycled') stops.push(event.cause);
      },
    });
    try {
      const data = pdfFixture('cv-2-pages.pdf');
      for (let i = 0; i < documents; i++) {
        const outcome = await pool.run({ data, maxPages: 10, detail: 'none' });
        assert.equal(outcome.ok, true);
      }
      return stops;
    } finally {
      await pool.close();
    }
  }

  test('a warm child (~60 MB) under the memory bound serves on; past the count it is replaced', async () => {
    assert.deepEqual(await stopsAfter(3, { recycleAfter: 3, recycleAboveRssMb: 1024 }), ['recycled']);
    assert.deepEqual(await stopsAfter(2, { recycleAfter: 3, recycleAboveRssMb: 1024 }), []);
  });

  test('a child whose resident memory is past the bound after a document is replaced at once', async () => {
    // Every child holds more than 16 MB: each document is parsed by a fresh one.
    assert.deepEqual(await stopsAfter(2, { recycleAfter: 1000, recycleAboveRssMb: 16 }), [
      'recycled',
      'recycled',
    ]);
  });

  test('the checker replaces a child after 200 documents; the replacement is warm before the old one retires', async () => {
    assert.equal(RECYCLE_AFTER, 200);
    const events: string[] = [];
    const pids: number[] = [];
    let spareReady!: () => void;
    const ready = new Promise<void>((resolve) => {
      spareReady = resolve;
    });
    const pool = new ParserPool({
      size: 1,
      timeoutMs: 5000,
      memoryLimitMb: 1536,
      heapLimitMb: 256,
      recycleAfter: 5,
      recycleAboveRssMb: 1024,
      onEvent: (event) => {
        if (event.type === 'worker_started') {
          events.push(`started ${event.pid}`);
          if (events.length === 2) spareReady();
        }
        if (event.type === 'worker_stopped') events.push(`stopped ${event.pid} ${event.cause}`);
        if (event.type === 'parse_started') pids.push(event.pid);
      },
    });
    try {
      const data = pdfFixture('cv-2-pages.pdf');
      const parse = async () =>
        assert.equal((await pool.run({ data, maxPages: 10, detail: 'none' })).ok, true);
      for (let i = 0; i < 4; i++) await parse();
      // The fourth document of five started the replacement: it comes up while the old one serves.
      await ready;
      const [first, spare] = events.map((e) => Number(e.split(' ')[1]));
      assert.notEqual(first, spare);
      await parse();
      await parse();
      assert.deepEqual(pids.slice(0, 4), [first, first, first, first]);
      while (!events.includes(`stopped ${first} recycled`)) await new Promise((r) => setTimeout(r, 20));
      assert.ok(
        events.indexOf(`started ${spare}`) < events.indexOf(`stopped ${first} recycled`),
        events.join(', '),
      );
      assert.equal(
        pids[5],
        spare,
        'the sixth document runs on the replacement, started before it was needed',
      );
    } finally {
      await pool.close();
    }
  });
});
