import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useTestApp } from './support/app.ts';

// WORKER_CONCURRENCY reaches the runtime's task worker (issue 29: a worker that falls behind can be
// given more slots where the host has CPU to spare).
const ctx = useTestApp({ env: { WORKER_CONCURRENCY: '5' } });

test('the worker runs as many tasks at once as WORKER_CONCURRENCY says', () => {
  assert.equal(ctx.worker.stats().concurrency, 5);
});
