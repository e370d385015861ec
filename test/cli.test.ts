import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { newAccount } from './support/accounts.ts';
import { CONSOLE_TOKEN, freePort, tempDir, useTestApp } from './support/app.ts';

/** The operator's CLI (npm run console), run as its own process against the service. */
const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../src/cli/console.ts');
const ctx = useTestApp({ listen: true });

async function cli(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', CONSOLE_TOKEN, DATA_DIR: tempDir(), ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the console CLI', () => {
  test('no service on the port: one line saying where it looked and what to set, exit 1', async () => {
    const port = await freePort();
    const res = await cli(['account:list'], { PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    assert.equal(res.code, 1);
    assert.equal(res.stdout, '');
    const lines = res.stderr.trim().split('\n');
    assert.equal(lines.length, 1, res.stderr);
    assert.match(
      lines[0]!,
      new RegExp(
        `cannot reach the service at http://127\\.0\\.0\\.1:${port} \\(nothing is listening there\\)`,
      ),
    );
    assert.match(lines[0]!, /PUBLIC_BASE_URL/);
  });

  test('a body that is not JSON: one line, exit 1, nothing sent', async () => {
    const res = await cli(['call', 'POST', '/accounts', '{name:'], { PUBLIC_BASE_URL: ctx.baseUrl });
    assert.equal(res.code, 1);
    assert.equal(res.stderr.trim().split('\n').length, 1, res.stderr);
    assert.match(res.stderr, /^error: the body is not JSON/);
  });

  test('account:list lists the accounts and pages on with nextCursor', async () => {
    const account = await newAccount(ctx.app);
    const res = await cli(['account:list'], { PUBLIC_BASE_URL: ctx.baseUrl });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^200 /);
    const body = JSON.parse(res.stdout.slice(4)) as { accounts: { id: string }[]; nextCursor: string | null };
    assert.ok(body.accounts.some((a) => a.id === account.id) || body.nextCursor !== null);
  });
});
