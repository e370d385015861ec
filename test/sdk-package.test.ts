import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { newWebhookSecret, signedHeaders } from '../src/webhooks/sign.ts';
import { intakeAccount } from './support/accounts.ts';
import { useTestApp } from './support/app.ts';
import { createPublished } from './support/jobs.ts';
import {
  cleanEnv,
  NODE24,
  ROOT,
  type RunResult,
  run,
  SYSTEM_NODE,
  shown,
  tempDir,
} from './support/packaging.ts';

/**
 * The SDK as an integrator gets it: `npm pack` of packages/sdk (which builds it), the tarball
 * installed into a fresh project outside the repository with `--offline` (its dependency
 * openapi-fetch packed from this repository's node_modules), a strict TypeScript consumer type-checked against
 * the published `.d.ts` and compiled, then run against the live service on Node 24 and on the
 * machine's Node 20.
 */

const SDK = path.join(ROOT, 'packages/sdk');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

const systemNode = fs.existsSync(SYSTEM_NODE)
  ? spawnSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim()
  : null;

const CONSUMER = `import fs from 'node:fs';
import { CareersApiError, createCareersClient, type Job, verifyWebhook, type WebhookEvent } from '@careers/sdk';

interface Input {
  baseUrl: string;
  apiKey: string;
  delivery: { secret: string; headers: Record<string, string>; body: string };
}

const input = JSON.parse(fs.readFileSync(process.argv[2] ?? 'input.json', 'utf8')) as Input;
const careers = createCareersClient({ baseUrl: input.baseUrl, apiKey: input.apiKey });
const jobs: Job[] = (await careers.jobs.list({ limit: 10 })).jobs;
let refusal = 'none';
try {
  await createCareersClient({ baseUrl: input.baseUrl, apiKey: 'not-a-key', retries: 0 }).jobs.list();
} catch (err) {
  if (!(err instanceof CareersApiError)) throw err;
  refusal = err.error.code;
}
const { secret, headers, body } = input.delivery;
const event: WebhookEvent = await verifyWebhook(secret, headers, body);
console.log(JSON.stringify({ node: process.versions.node, jobIds: jobs.map((job) => job.id), refusal, event: event.type }));
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    lib: ['es2022'],
    // A Node project's usual types; fetch, Response and Headers come from @types/node.
    types: ['node'],
    typeRoots: [path.join(ROOT, 'node_modules/@types')],
    strict: true,
    skipLibCheck: false,
    outDir: 'out',
  },
  files: ['main.ts'],
};

const ctx = useTestApp({ listen: true });
const work = tempDir('careers-sdk-package-');
let tarball = '';
let entries: string[] = [];
let apiKey = '';
let jobId = '';
const steps: Record<string, RunResult> = {};

// npm and tsc take minutes on a loaded machine: more than a test's default timeout.
before(
  async () => {
    const packed = await run('npm', ['pack', '--json', '--pack-destination', work.dir], {
      cwd: SDK,
      timeoutMs: 180_000,
    });
    steps.pack = packed;
    if (packed.code !== 0) return;
    const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string }[];
    tarball = path.join(work.dir, info!.filename);
    entries = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout.trim().split('\n');
    const project = path.join(work.dir, 'consumer');
    fs.mkdirSync(project);
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    fs.writeFileSync(path.join(project, 'main.ts'), CONSUMER);
    fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    // openapi-fetch (and its one dependency) packed from this repository's node_modules, so the
    // install needs neither the network nor a packument npm's cache may lack (`npm ci` keeps only
    // the abbreviated ones): the same files the registry serves for the version the lockfile pins.
    const deps = ['openapi-fetch', 'openapi-typescript-helpers'].map((name) =>
      path.join(ROOT, 'node_modules', name),
    );
    steps.packDeps = await run(
      'npm',
      ['pack', '--json', '--ignore-scripts', '--pack-destination', work.dir, ...deps],
      {
        cwd: work.dir,
      },
    );
    if (steps.packDeps.code !== 0) return;
    const depTarballs = (JSON.parse(steps.packDeps.stdout) as { filename: string }[]).map((dep) =>
      path.join(work.dir, dep.filename),
    );
    steps.install = await run(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', tarball, ...depTarballs],
      {
        cwd: project,
        timeoutMs: 120_000,
      },
    );
    steps.tsc = await run(NODE24, [TSC, '-p', '.'], { cwd: project, timeoutMs: 120_000 });
    const { key, api } = await intakeAccount(ctx.app);
    apiKey = key.secret;
    jobId = (await createPublished(api)).id;
  },
  { timeout: 600_000 },
);

after(() => work.dispose());

const step = (name: string) => {
  const result = steps[name];
  assert.ok(result, `${name} did not run (an earlier step failed)`);
  assert.equal(result.code, 0, `${name}:\n${shown(result)}`);
};

/** Runs the compiled consumer with `node` against the live service; answers what it printed. */
async function consume(
  node: string,
): Promise<{ node: string; jobIds: string[]; refusal: string; event: string }> {
  step('tsc');
  const project = path.join(work.dir, 'consumer');
  const secret = newWebhookSecret();
  const body = JSON.stringify({ id: 'evt_pkg', type: 'job.published', createdAt: new Date().toISOString() });
  const input = {
    baseUrl: ctx.baseUrl,
    apiKey,
    delivery: { secret, headers: signedHeaders(secret, 'evt_pkg', new Date(), body), body },
  };
  fs.writeFileSync(path.join(project, 'input.json'), JSON.stringify(input));
  const result = await run(node, ['out/main.js', 'input.json'], { cwd: project, env: cleanEnv() });
  assert.equal(result.code, 0, `the consumer on ${node}:\n${shown(result)}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}');
}

describe('the SDK package', () => {
  test('npm pack builds it; the tarball holds the compiled ESM, its types, README and CHANGELOG only', () => {
    step('pack');
    const files = entries.map((entry) => entry.replace(/^package\//, ''));
    for (const needed of ['package.json', 'README.md', 'CHANGELOG.md', 'dist/index.js', 'dist/index.d.ts']) {
      assert.ok(files.includes(needed), `${needed} is not in the tarball: ${files.join(', ')}`);
    }
    const unexpected = files.filter(
      (file) => !/^(package\.json|README\.md|CHANGELOG\.md|LICENSE|dist\/[\w.-]+\.(js|d\.ts))$/.test(file),
    );
    assert.deepEqual(unexpected, [], 'tests, TypeScript sources or service files in the tarball');
    const manifest = JSON.parse(
      spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout,
    ) as Record<string, unknown>;
    assert.equal(manifest.private, undefined, 'a private package cannot be published');
    assert.match(String(manifest.name), /^@[a-z0-9-]+\/[a-z0-9-]+$/);
    assert.match(String(manifest.version), /^\d+\.\d+\.\d+$/);
    assert.deepEqual(manifest.exports, { '.': { types: './dist/index.d.ts', default: './dist/index.js' } });
    assert.equal(manifest.types, './dist/index.d.ts');
  });

  test('installs into a fresh project outside the repository without the network', () => {
    step('install');
    const installed = path.join(work.dir, 'consumer/node_modules/@careers/sdk');
    assert.ok(fs.existsSync(path.join(installed, 'dist/index.js')));
    assert.ok(
      !fs.lstatSync(installed).isSymbolicLink(),
      'the SDK must be a copy, not a link into the repository',
    );
    assert.ok(fs.existsSync(path.join(work.dir, 'consumer/node_modules/openapi-fetch/package.json')));
  });

  test('a strict TypeScript consumer (nodenext) type-checks against the published .d.ts', () => {
    step('tsc');
    assert.ok(fs.existsSync(path.join(work.dir, 'consumer/out/main.js')));
  });

  test('the consumer lists jobs, gets a typed refusal and verifies a webhook on Node 24', async () => {
    const out = await consume(NODE24);
    assert.match(out.node, /^24\./);
    assert.ok(out.jobIds.includes(jobId), `the published job is not listed: ${out.jobIds.join(', ')}`);
    assert.equal(out.refusal, 'unauthorized');
    assert.equal(out.event, 'job.published');
  });

  test(`the same consumer runs on the system Node (${systemNode ?? 'absent'})`, {
    skip: systemNode === null ? `${SYSTEM_NODE} is absent: no second Node to run the consumer on` : false,
  }, async () => {
    const out = await consume(SYSTEM_NODE);
    assert.equal(`v${out.node}`, systemNode);
    assert.ok(out.jobIds.includes(jobId));
    assert.equal(out.refusal, 'unauthorized');
    assert.equal(out.event, 'job.published');
  });
});
