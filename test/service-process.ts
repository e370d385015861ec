// A real service process (src/main.ts) for the lifecycle and crash tests: started with its own
// environment, its log lines collected, signalled and awaited like an orchestrator would.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONSOLE_TOKEN } from './support/app.ts';
import { freePort } from './support/net.ts';

export { freePort };

const MAIN = new URL('../src/main.ts', import.meta.url).pathname;

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  dataDir: string;
  /** Every line the process printed (stdout and stderr). */
  lines: string[];
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; atMs: number }>;
  /** A console API call with the operator token. */
  console(method: string, url: string, body?: unknown): Promise<Response>;
  kill(signal: NodeJS.Signals): void;
  /** Sends `signal` to the process's whole group, as an orchestrator does (started `detached`). */
  killGroup(signal: NodeJS.Signals): void;
}

/**
 * Starts src/main.ts and waits until it says it is ready (or fails with its output). `detached`
 * puts it in a process group of its own, so that the whole group can be signalled.
 */
export async function startService(
  env: Record<string, string> = {},
  options: { detached?: boolean } = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'careers-proc-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: baseUrl,
      DATA_DIR: dataDir,
      CONSOLE_TOKEN,
      LOG_LEVEL: 'info',
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  const lines: string[] = [];
  // The last 500 lines are kept (a long run logs every request).
  const collect = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > 500) lines.splice(0, lines.length - 500);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; atMs: number }>(
    (resolve) => child.on('exit', (code, signal) => resolve({ code, signal, atMs: Date.now() })),
  );
  let ended = false;
  exited.then(() => {
    ended = true;
  });
  const ready = await new Promise<boolean>((resolve) => {
    const giveUpAt = Date.now() + 60_000;
    const check = () => {
      if (lines.some((line) => line.includes('Service ready'))) resolve(true);
      else if (ended || Date.now() > giveUpAt) resolve(false);
      else setTimeout(check, 50);
    };
    check();
  });
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`the service did not start:\n${lines.join('\n')}`);
  }
  return {
    child,
    baseUrl,
    dataDir,
    lines,
    exited,
    console: (method, url, body) =>
      fetch(`${baseUrl}/console/v1${url}`, {
        method,
        headers: {
          authorization: `Bearer ${CONSOLE_TOKEN}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    kill: (signal) => child.kill(signal),
    killGroup: (signal) => {
      if (!options.detached || child.pid === undefined) throw new Error('not started detached');
      try {
        process.kill(-child.pid, signal);
      } catch {
        // the group is gone already
      }
    },
  };
}

/** An account (DPA accepted, a high rate limit) and a key with `scopes`, made through the console API. */
export async function accountWithKey(service: ServiceProcess, scopes: string[]): Promise<string> {
  const created = await service.console('POST', '/accounts', {
    name: 'Lifecycle Co',
    companyName: 'Lifecycle Company',
    companyAddress: `proc-${process.pid}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}`,
  });
  if (created.status !== 201) throw new Error(`account: ${await created.text()}`);
  const accountId = ((await created.json()) as { account: { id: string } }).account.id;
  const patched = await service.console('PATCH', `/accounts/${accountId}`, {
    dpaAccepted: true,
    limits: { requestsPerMinute: 100_000 },
  });
  if (patched.status !== 200) throw new Error(`account patch: ${await patched.text()}`);
  const key = await service.console('POST', `/accounts/${accountId}/keys`, { scopes, name: 'proc' });
  if (key.status !== 201) throw new Error(`key: ${await key.text()}`);
  return ((await key.json()) as { secret: string }).secret;
}
