import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

/**
 * The README's quick start, run as written: the service is started as `npm start` would (its
 * embedded defaults, a fresh DATA_DIR, a free PORT), then the README's block runs in bash from the
 * repository's root. A change of the API that the README does not follow fails here.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
const MARKER = '<!-- test/readme-quickstart.test.ts runs the next block against a service it starts. -->';

function quickStart(): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf(MARKER);
  assert.ok(at >= 0, 'the README lost its quick-start marker');
  const open = readme.indexOf('```sh\n', at);
  const close = readme.indexOf('\n```', open + 6);
  return readme.slice(open + 6, close + 1);
}

/** The commands of a block: its lines that are neither blank nor comments. */
const commandsOf = (block: string) =>
  block.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));

let service: ChildProcess | undefined;
let dataDir: string;
let port: number;
let serviceLog = '';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: free } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return free;
}

const env = () => {
  const {
    DATABASE_URL: _db,
    REDIS_URL: _redis,
    PUBLIC_BASE_URL: _base,
    CONSOLE_TOKEN: _token,
    ...rest
  } = process.env;
  return { ...rest, PORT: String(port), DATA_DIR: dataDir };
};

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quickstart-'));
  port = await freePort();
  service = spawn(process.execPath, ['src/main.ts'], {
    cwd: ROOT,
    env: env(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  service.stdout?.on('data', (chunk: Buffer) => {
    serviceLog = (serviceLog + chunk.toString()).slice(-20_000);
  });
  service.stderr?.on('data', (chunk: Buffer) => {
    serviceLog = (serviceLog + chunk.toString()).slice(-20_000);
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    assert.ok(Date.now() < deadline, `the service did not start:\n${serviceLog}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

after(async () => {
  if (service && service.exitCode === null) {
    const exited = new Promise((resolve) => service!.once('exit', resolve));
    service.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (service.exitCode === null) service.kill('SIGKILL');
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('the quick start walks the whole flow in under 15 commands, npm start included', () => {
  const commands = commandsOf(quickStart());
  assert.ok(commands.length + 1 < 15, `${commands.length} commands and npm start`);
});

test("the README's quick start runs against the service and reaches the claim mail", async () => {
  const script = `set -euo pipefail\n${quickStart()}`;
  const run = spawn('bash', ['-c', script], { cwd: ROOT, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  run.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  run.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const killer = setTimeout(() => run.kill('SIGKILL'), 100_000);
  const code = await new Promise<number | null>((resolve) => run.once('close', resolve));
  clearTimeout(killer);
  const report = `exit ${code}\n--- stdout\n${out}\n--- stderr\n${err}\n--- service\n${serviceLog.slice(-4000)}`;
  assert.equal(code, 0, report);
  // What each step prints, in order: the addendum's date, the job page's title, the consent text,
  // the stored upload, the application's status, then the claim mail.
  const expected = [
    /"\d{4}-\d\d-\d\dT[\d:.]+Z"/,
    /<title>Backend Engineer · Acme Pty Ltd/,
    /By applying, you agree/,
    /\{"stored":true\}/,
    /"status": "received"/,
    /"cvStatus": "(processing|staged)"/,
    /"subject": "[^"]+"/,
    /"to": "ana@example\.com"/,
  ];
  let from = 0;
  for (const pattern of expected) {
    const match = pattern.exec(out.slice(from));
    assert.ok(match, `${pattern} not printed (after offset ${from})\n${report}`);
    from += match.index + match[0].length;
  }
});
