import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  copiesOf,
  envOf,
  execForm,
  healthcheckCommand,
  readDockerfile,
  runtimeStage,
} from './support/dockerfile.ts';
import { freePort } from './support/net.ts';
import {
  answers,
  cleanEnv,
  ROOT,
  type RunResult,
  run,
  shown,
  startProcess,
  tempDir,
} from './support/packaging.ts';

/**
 * A production install as an operator makes it: the repository's files (the working tree's
 * tracked and new files, what a clone of this commit holds) copied outside the repository,
 * `npm ci --omit=dev --offline` (from the npm cache CI's `npm ci` filled: no network), `npm start`
 * (on PGlite, or on DATABASE_URL and REDIS_URL when the run has them).
 * Node 24 must come with the dependencies, /healthz answer 200, SIGTERM end the service with 0.
 * Then the container image's runtime stage without Docker: the Dockerfile's COPY lines laid out
 * over that install's node_modules, started by the image's CMD with its ENV as an unprivileged
 * user, its HEALTHCHECK command run against it.
 */

const METRICS_TOKEN = 'production-install-metrics-0123';
/**
 * What the service reads from the environment, left out so only the test's own values apply — but
 * DATABASE_URL and REDIS_URL: in CI's PostgreSQL pass the installed service loads pg and ioredis too.
 */
const SERVICE_VARIABLES = /^(S3_\w+|SMTP_URL|CONSOLE_TOKEN|PUBLIC_BASE_URL|ROLE|HOST|PORT|DATA_DIR)$/;

const work = tempDir('careers-production-');
const clone = path.join(work.dir, 'clone');
let install: RunResult | undefined;
const started: { pid: number | undefined }[] = [];

function serviceEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = cleanEnv();
  for (const name of Object.keys(env)) if (SERVICE_VARIABLES.test(name)) delete env[name];
  return { ...env, LOG_LEVEL: 'info', ...extra };
}

/** The working tree's files git knows or would add (tracked, and new ones not ignored). */
function copyWorkingTree(to: string): number {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(listed.status, 0, listed.stderr);
  const files = listed.stdout
    .split('\0')
    .filter((file) => file !== '' && fs.existsSync(path.join(ROOT, file)));
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, file), path.join(to, file));
    fs.chmodSync(path.join(to, file), fs.statSync(path.join(ROOT, file)).mode);
  }
  return files.length;
}

// npm and tsc take minutes on a loaded machine: more than a test's default timeout.
before(
  async () => {
    assert.ok(copyWorkingTree(clone) > 100);
    assert.ok(!fs.existsSync(path.join(clone, 'node_modules')));
    install = await run('npm', ['ci', '--omit=dev', '--offline', '--no-audit', '--no-fund'], {
      cwd: clone,
      timeoutMs: 240_000,
    });
  },
  { timeout: 600_000 },
);

after(() => {
  for (const { pid } of started) {
    if (pid === undefined) continue;
    try {
      process.kill(-pid, 'SIGKILL'); // the group this test started, if anything of it is left
    } catch {}
  }
  work.dispose();
});

/** Starts `command` in its own process group (so `after` can end all of it) and waits for /healthz. */
async function startService(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const service = startProcess(command, args, { cwd, env, detached: true });
  started.push({ pid: service.child.pid });
  const baseUrl = `http://127.0.0.1:${env.PORT}`;
  const up = await answers(`${baseUrl}/healthz`, service.child, 120_000);
  assert.ok(up, `the service did not answer /healthz:\n${service.output()}`);
  return { ...service, baseUrl };
}

describe('a production install', () => {
  test('npm ci --omit=dev installs the pinned Node 24 and leaves the dev tools out', () => {
    assert.ok(install, 'npm ci did not run');
    assert.equal(install.code, 0, `npm ci --omit=dev --offline:\n${shown(install)}`);
    const node = spawnSync(path.join(clone, 'node_modules/.bin/node'), ['--version'], { encoding: 'utf8' });
    assert.match(node.stdout, /^v24\./, 'node_modules/.bin/node is not Node 24');
    for (const devOnly of ['typescript', '@biomejs/biome', 'playwright-core', 's3rver']) {
      assert.ok(!fs.existsSync(path.join(clone, 'node_modules', devOnly)), `${devOnly} was installed`);
    }
  });

  test('npm start serves on Node 24: /healthz and /readyz answer 200; SIGTERM stops it with 0', {
    timeout: 240_000,
  }, async () => {
    assert.equal(install?.code, 0, 'npm ci failed');
    const dataDir = path.join(work.dir, 'data-npm-start');
    const port = String(await freePort());
    const env = serviceEnv({ PORT: port, DATA_DIR: dataDir, METRICS_TOKEN });
    const service = await startService('npm', ['start'], clone, env);
    assert.equal((await fetch(`${service.baseUrl}/readyz`)).status, 200);
    const metrics = await fetch(`${service.baseUrl}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    }).then((res) => res.text());
    assert.match(metrics, /nodejs_version_info\{version="v24\./, 'the service does not run on Node 24');
    // To the process group, as Ctrl-C in a terminal or systemd's default KillMode: npm itself does
    // not pass SIGTERM on to the service (docs/operations.md, "Containers").
    process.kill(-service.child.pid!, 'SIGTERM');
    await service.closed;
    assert.match(service.output(), /"msg":"stopped"/, service.output());
    // Its output closed when the last process of the group ended; give their exit a moment to finish.
    for (let i = 0; i < 50 && runningInGroup(service.child.pid!).length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.deepEqual(runningInGroup(service.child.pid!), [], 'a process of the group is still running');
  });

  test('the image runtime stage, laid out without Docker, starts as a non-root user and is healthy', {
    timeout: 240_000,
  }, async (t) => {
    assert.equal(install?.code, 0, 'npm ci failed');
    const stage = runtimeStage(readDockerfile());
    const app = layOutImage(stage, path.join(work.dir, 'image/app'));
    const dataDir = path.join(work.dir, 'image/data');
    fs.mkdirSync(dataDir, { recursive: true });
    const imageEnv = envOf(stage);
    const port = String(await freePort());
    // The image's ENV, with the test's port and data directory; HOST stays on loopback here.
    const env = serviceEnv({
      ...imageEnv,
      PATH: (imageEnv.PATH ?? '').replaceAll('/app', app).replace('$PATH', cleanEnv().PATH ?? ''),
      HOST: '127.0.0.1',
      PORT: port,
      DATA_DIR: dataDir,
    });
    const cmd = execForm(stage.find((i) => i.keyword === 'CMD')?.args ?? '');
    assert.ok(cmd, 'the image has no exec-form CMD');
    const [command, args] = unprivileged(cmd, dataDir, t);
    const service = await startService(command, args, app, env);
    const check = healthcheckCommand(stage);
    assert.ok(check, 'the image has no HEALTHCHECK CMD');
    const healthy = await run(check[0]!, check.slice(1), { cwd: app, env });
    assert.equal(healthy.code, 0, `HEALTHCHECK against the running service:\n${shown(healthy)}`);
    service.child.kill('SIGTERM');
    assert.equal(await service.exited, 0, service.output());
    const unhealthy = await run(check[0]!, check.slice(1), { cwd: app, env });
    assert.notEqual(unhealthy.code, 0, 'HEALTHCHECK passed with the service stopped');
  });
});

/** The processes of a group that have not exited (a zombie has: its parent, gone, cannot reap it). */
function runningInGroup(pgid: number): string[] {
  return fs.readdirSync('/proc').flatMap((pid) => {
    if (!/^\d+$/.test(pid)) return [];
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(group) === pgid && state !== 'Z' ? [stat.slice(0, stat.lastIndexOf(')') + 1)] : [];
    } catch {
      return []; // ended while listed
    }
  });
}

/**
 * The runtime stage's files: node_modules from the production install (hard links), every other
 * COPY from the working tree, relative to WORKDIR (`/app`).
 */
function layOutImage(stage: ReturnType<typeof runtimeStage>, app: string): string {
  fs.mkdirSync(app, { recursive: true });
  for (const copy of copiesOf(stage)) {
    const dest = path.join(app, copy.dest.replace(/^\/app\/?/, ''));
    if (copy.from !== null) {
      assert.deepEqual(copy.sources, ['/app/node_modules'], `unexpected COPY --from: ${copy.sources}`);
      const cp = spawnSync('cp', ['-al', path.join(clone, 'node_modules'), dest]);
      assert.equal(cp.status, 0, String(cp.stderr));
      fs.rmSync(path.join(dest, '@careers'), { recursive: true, force: true });
      continue;
    }
    for (const source of copy.sources) {
      const target = copy.dest.endsWith('/') ? path.join(dest, path.basename(source)) : dest;
      fs.cpSync(path.join(clone, source), target, { recursive: true });
    }
  }
  // Readable (not writable) by the unprivileged user, as the image's root-owned /app.
  for (let dir = app; dir !== path.dirname(work.dir); dir = path.dirname(dir)) fs.chmodSync(dir, 0o755);
  return app;
}

/** The command run as `nobody` (the image's USER stands for any non-root uid) when this test is root. */
function unprivileged(
  cmd: string[],
  dataDir: string,
  t: { diagnostic: (m: string) => void },
): [string, string[]] {
  if (process.getuid?.() !== 0 || !fs.existsSync('/usr/bin/setpriv')) {
    t.diagnostic('not root or no setpriv: the image CMD runs as the current user');
    return [cmd[0]!, cmd.slice(1)];
  }
  fs.chownSync(dataDir, 65534, 65534);
  return ['/usr/bin/setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', ...cmd]];
}
