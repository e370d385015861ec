import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { test } from 'node:test';

/**
 * What a fresh `npm install` and `npm start` depend on: install scripts reviewed in `allowScripts`
 * (npm 12 blocks the others, and then `npm start` would run on whatever Node the machine has),
 * the Node version named once for version managers, one copy of each AWS SDK package, and the SDK
 * loaded only by a service that stores CVs in S3.
 */

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
  engines: { node: string };
  allowScripts?: Record<string, boolean>;
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<
    string,
    { version?: string; hasInstallScript?: boolean; os?: string[]; libc?: string[]; cpu?: string[] }
  >;
};

const nameOf = (key: string) => key.replace(/^.*node_modules\//, '');

test('every package with an install script is reviewed in allowScripts', () => {
  const withScripts = Object.entries(lock.packages)
    .filter(([key, entry]) => key !== '' && entry.hasInstallScript)
    .map(([key]) => nameOf(key));
  assert.ok(withScripts.includes('node'), 'the pinned node package runs a preinstall');
  const allowed = pkg.allowScripts ?? {};
  for (const name of withScripts) {
    const reviewed = Object.keys(allowed).some((k) => k === name || k.startsWith(`${name}@`));
    assert.ok(reviewed, `${name} has an install script that allowScripts does not cover`);
  }
  assert.equal(allowed.node, true);
});

test('.nvmrc, engines and the pinned node package name the same major version', () => {
  const nvmrc = fs.readFileSync('.nvmrc', 'utf8').trim();
  assert.match(nvmrc, /^\d+$/);
  assert.equal(pkg.engines.node, `>=${nvmrc}`);
  assert.equal(lock.packages['node_modules/node']?.version?.split('.')[0], nvmrc);
});

test('the lockfile keeps one copy of each @aws-sdk and @smithy package', () => {
  const copies = new Map<string, string[]>();
  for (const [key, entry] of Object.entries(lock.packages)) {
    const name = nameOf(key);
    if (!/^@(aws-sdk|smithy)\//.test(name)) continue;
    copies.set(name, [...(copies.get(name) ?? []), `${key}@${entry.version}`]);
  }
  assert.ok(copies.size > 10);
  const duplicated = [...copies.values()].filter((list) => list.length > 1);
  assert.deepEqual(duplicated, []);
});

test('platform-specific packages say which libc they are built for, so musl never gets a glibc binary', () => {
  const linux = Object.entries(lock.packages).filter(([, entry]) => entry.os?.includes('linux'));
  assert.ok(linux.length > 0);
  // Where a package ships a glibc and a musl build for one CPU, each must say which it is, or npm
  // installs both and the wrong one may load. (A build with no musl sibling, such as
  // @napi-rs/canvas-linux-arm-gnueabihf, has nothing to be confused with.)
  const builds = new Map<string, string[]>();
  for (const [key, entry] of linux) {
    const family = `${key.split('-linux-')[0]} ${entry.cpu?.join(',')}`;
    builds.set(family, [...(builds.get(family) ?? []), key]);
  }
  const paired = [...builds.values()].filter((keys) => keys.length > 1).flat();
  assert.ok(paired.length > 0);
  for (const key of paired) {
    const entry = lock.packages[key]!;
    assert.ok(entry.libc && entry.libc.length > 0, `${key} has no libc`);
  }
});

const probe = `
import { registerHooks } from 'node:module';
const loaded = new Set();
registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); loaded.add(r.url); return r; } });
const fs = await import('node:fs');
const os = await import('node:os');
const path = await import('node:path');
const { parseConfig } = await import('./src/config.ts');
const { createRuntime } = await import('./src/runtime.ts');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lazy-s3-'));
const env = { DATA_DIR: dataDir, ...(process.argv[1] === 's3' ? { S3_BUCKET: 'cvs', S3_REGION: 'eu-west-1' } : {}) };
const runtime = await createRuntime(parseConfig(env));
await runtime.close();
fs.rmSync(dataDir, { recursive: true, force: true });
console.log(JSON.stringify([...loaded].filter((url) => url.includes('/@aws-sdk/')).length));
`;

function awsModulesLoaded(mode: 'local' | 's3'): number {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', probe, mode], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
    timeout: 60_000,
  });
  assert.equal(run.status, 0, run.stderr);
  return Number(run.stdout.trim().split('\n').at(-1));
}

test('the AWS SDK is loaded only when S3 is configured', () => {
  assert.equal(awsModulesLoaded('local'), 0);
  assert.ok(awsModulesLoaded('s3') > 0);
});
