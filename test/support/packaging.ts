// What the packaging tests share: commands run as an operator or integrator would run them (npm,
// tsc, a Node binary), in directories outside the repository, with the test run's npm settings
// left out so a child npm sees only its own project.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** The pinned Node 24 (the npm package `node`). */
export const NODE24 = path.join(ROOT, 'node_modules/.bin/node');
/** The machine's own Node (20 on these machines), as an integrator's project would have it. */
export const SYSTEM_NODE = '/usr/bin/node';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end without blocking the event loop (a test app in this process keeps
 * answering). Never throws on a non-zero exit: the caller asserts on `code` and shows the output.
 */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? cleanEnv(),
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 32 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr: error && code === null ? `${stderr}\n${error.message}` : stderr });
      },
    );
  });
}

/** A command's output for an assertion message, cut to its last lines. */
export function shown(result: RunResult): string {
  return `exit ${result.code}\n${`${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-40).join('\n')}`;
}

/** npm's settings a child npm should still see (the cache above all, so `--offline` finds it). */
const KEPT_NPM = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);

/**
 * The test process's environment without what `npm test` adds (npm_* and npm's PATH entries for
 * this repository's node_modules/.bin), so a child npm or Node finds only what its own project
 * installed — as on a machine that never saw this repository.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(name) && !KEPT_NPM.has(name.toLowerCase())) continue;
    if (name === 'INIT_CWD' || name === 'NODE_OPTIONS') continue;
    env[name] = value;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => dir !== '' && !path.resolve(dir).startsWith(ROOT))
    .join(path.delimiter);
  return { ...env, ...extra };
}

/** A new directory under the OS temp directory (outside the repository), removed by `dispose`. */
export function tempDir(prefix: string): { dir: string; dispose: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (!path.relative(ROOT, dir).startsWith('..')) throw new Error(`${dir} is inside the repository`);
  return { dir, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Polls `url` until it answers 200; false when `child` ended or `timeoutMs` passed first. */
export async function answers(url: string, child: ChildProcess, timeoutMs: number): Promise<boolean> {
  const giveUpAt = Date.now() + timeoutMs;
  while (Date.now() < giveUpAt && child.exitCode === null && child.signalCode === null) {
    const ok = await fetch(url).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

/** A long-running process (a service started as an operator would), its output collected. */
export function startProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; detached?: boolean },
): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  /** Resolves once every process writing to its output (its children too) has ended. */
  closed: Promise<void>;
} {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: options.detached ?? false,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-40_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return { child, output: () => output, exited, closed };
}
