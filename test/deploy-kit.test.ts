import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parseConfig } from '../src/config.ts';
import {
  careersServices,
  composeText,
  durationMs,
  envExample,
  envOfService,
  readCompose,
  referencedVariables,
} from './support/compose.ts';
import {
  copiesOf,
  envOf,
  execForm,
  healthcheckCommand,
  type Instruction,
  readDockerfile,
  runtimeStage,
} from './support/dockerfile.ts';
import { ROOT } from './support/packaging.ts';

/**
 * The deployment kit read as Docker would read it (no Docker daemon here: nothing is built or
 * pulled): compose.yaml's fleet wired to one database, Redis, bucket and mail server, with
 * variables the service knows and accepts and a health check on every process; the Dockerfile
 * checked by hand the way hadolint would. test/deploy-processes.test.ts starts the processes with
 * compose's variables; test/production-install.test.ts runs the image's runtime stage.
 */

const CONFIG_VARIABLES = new Set(
  [...fs.readFileSync(path.join(ROOT, 'src/config.ts'), 'utf8').matchAll(/\(env, '([A-Z0-9_]+)'/g)].map(
    (match) => match[1]!,
  ),
);
const { compose } = readCompose();
const careers = careersServices(compose);
const byRole = (role: string) => careers.filter(([, service]) => envOfService(service).ROLE === role);
const dockerfile = readDockerfile();
const runtime = runtimeStage(dockerfile);
const SHARED = [
  'DATABASE_URL',
  'REDIS_URL',
  'S3_BUCKET',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'SMTP_URL',
  'PUBLIC_BASE_URL',
  'CONSOLE_TOKEN',
  'CLAIM_LINK_KEY',
];

describe('compose.yaml', () => {
  test('runs PostgreSQL, Redis, an S3 store, an SMTP catcher, a proxy, two API processes and a worker', () => {
    const images = Object.values(compose.services).map((service) => service.image ?? '');
    for (const wanted of [/^postgres:/, /^redis:/, /minio/, /mailpit/, /^caddy:/]) {
      assert.ok(
        images.some((image) => wanted.test(image)),
        `no ${wanted} service`,
      );
    }
    assert.equal(byRole('api').length, 2, 'two ROLE=api processes');
    assert.equal(byRole('worker').length, 1, 'one ROLE=worker process');
    assert.equal(careers.length, 3, 'no other process runs the careers image');
  });

  test('every careers process sets only variables src/config.ts reads, with values it accepts', () => {
    assert.ok(CONFIG_VARIABLES.has('DATABASE_URL') && CONFIG_VARIABLES.has('TRUST_PROXY'));
    for (const [name, service] of careers) {
      const env = envOfService(service);
      const unknown = Object.keys(env).filter((variable) => !CONFIG_VARIABLES.has(variable));
      assert.deepEqual(unknown, [], `${name} sets variables the service does not read`);
      const config = parseConfig({ ...envOf(runtime), ...env });
      assert.equal(config.http.host, '0.0.0.0', `${name} must listen on every interface in its container`);
      assert.ok(
        config.databaseUrl && config.redisUrl && config.s3 && config.mail.smtpUrl,
        `${name}: a store is missing`,
      );
      assert.ok(
        config.consoleToken && config.claimLinkKey,
        `${name}: CONSOLE_TOKEN and CLAIM_LINK_KEY are set`,
      );
    }
  });

  test('the API processes and the worker share the database, Redis, bucket, mail and secrets', () => {
    const [first, ...rest] = careers.map(([, service]) => envOfService(service));
    for (const variable of SHARED) {
      assert.ok(first?.[variable], `${variable} is not set`);
      for (const other of rest) assert.equal(other[variable], first[variable], `${variable} differs`);
    }
    // Each address names a service of this file.
    for (const variable of ['DATABASE_URL', 'REDIS_URL', 'S3_ENDPOINT', 'SMTP_URL']) {
      const host = new URL(first![variable]!).hostname;
      assert.ok(compose.services[host], `${variable} points at ${host}, which is not a service`);
    }
    for (const [name, service] of byRole('api')) assert.equal(envOfService(service).TRUST_PROXY, '1', name);
  });

  test('every long-running service has a health check; the worker checks its /readyz (its task loop runs)', () => {
    const imageCheck = healthcheckCommand(runtime);
    assert.ok(imageCheck?.join(' ').includes('/healthz'), 'the image checks /healthz');
    for (const [name, service] of Object.entries(compose.services)) {
      if (service.restart === 'no') continue; // a one-shot job (the bucket's creation)
      const inherited = service.build !== undefined ? imageCheck : null;
      const check = service.healthcheck?.test ?? inherited;
      assert.ok(check && !service.healthcheck?.disable, `${name} has no health check`);
    }
    for (const [name, service] of byRole('worker')) {
      const test = service.healthcheck?.test;
      assert.ok(Array.isArray(test), `${name} must check its readiness, not only that the process runs`);
      assert.ok(test.join(' ').includes('/readyz'), name);
      assert.ok(test.join(' ').includes('process.env.PORT'), `${name} asks the PORT it listens on`);
    }
  });

  test('careers processes wait for healthy dependencies, the proxy for healthy APIs; stops outlast the grace', () => {
    for (const [name, service] of careers) {
      const deps = service.depends_on ?? {};
      for (const needed of ['postgres', 'redis', 'mailpit']) {
        assert.equal(deps[needed]?.condition, 'service_healthy', `${name} waits for ${needed}`);
      }
      const graceMs = Number(envOfService(service).SHUTDOWN_GRACE_MS ?? 10_000);
      const stopMs = durationMs(service.stop_grace_period ?? '10s');
      assert.ok(stopMs > graceMs, `${name}: stop_grace_period ${stopMs} ms is not above SHUTDOWN_GRACE_MS`);
      assert.ok(!service.ports?.length, `${name} publishes a port: only the proxy does`);
    }
    const bucketJob = Object.entries(compose.services).find(([, service]) => service.restart === 'no');
    assert.ok(bucketJob, 'a one-shot job creates the bucket');
    for (const [name, service] of careers) {
      assert.equal(service.depends_on?.[bucketJob[0]]?.condition, 'service_completed_successfully', name);
    }
    const proxy = Object.values(compose.services).find((service) => service.image?.startsWith('caddy:'));
    for (const [name] of byRole('api')) assert.equal(proxy?.depends_on?.[name]?.condition, 'service_healthy');
  });

  test("secrets come from the operator's .env: each required variable is in .env.example, empty", () => {
    const example = envExample();
    const referenced = referencedVariables(composeText());
    assert.ok(referenced.size > 0);
    for (const [name, { required }] of referenced) {
      assert.ok(name in example, `${name} is not in .env.example`);
      if (required)
        assert.equal(example[name], '', `${name} has a value in .env.example: secrets are the operator's`);
    }
    for (const secret of ['CONSOLE_TOKEN', 'CLAIM_LINK_KEY', 'METRICS_TOKEN', 'POSTGRES_PASSWORD']) {
      assert.equal(referenced.get(secret)?.required, true, `${secret} must be required (\${${secret}:?…})`);
    }
  });

  test('the proxy sends to both API processes on the port they listen on', () => {
    const caddyfile = fs.readFileSync(path.join(ROOT, 'deploy/Caddyfile'), 'utf8');
    const port = envOf(runtime).PORT ?? '3000';
    for (const [name, service] of byRole('api')) {
      assert.equal(envOfService(service).PORT ?? port, port);
      assert.match(caddyfile, new RegExp(`\\b${name}:${port}\\b`), `the proxy does not send to ${name}`);
    }
    assert.match(caddyfile, /health_uri \/readyz/, 'an API that is not ready is taken out');
  });
});

const args = (keyword: string, stage = runtime) =>
  stage.filter((i) => i.keyword === keyword).map((i) => i.args);

describe('Dockerfile', () => {
  test('two stages: production dependencies by npm ci --omit=dev, then the runtime', () => {
    const stages = new Set(dockerfile.map((i) => i.stage));
    assert.ok(stages.size >= 2, 'multi-stage');
    const install = dockerfile.filter((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.args));
    assert.equal(install.length, 1);
    assert.match(install[0]!.args, /--omit=dev/);
    assert.ok(install[0]!.stage < Math.max(...stages), 'npm ci runs in a build stage, not the runtime');
    assert.deepEqual(
      copiesOf(runtime)
        .filter((copy) => copy.from !== null)
        .map((copy) => copy.sources),
      [['/app/node_modules']],
    );
  });

  test('the runtime runs as a non-root user, on 0.0.0.0, exposes PORT, stops on SIGTERM, checks /healthz', () => {
    const users = args('USER');
    assert.equal(users.length, 1);
    assert.ok(!/^(root|0)(:|$)/.test(users[0]!), 'USER is root');
    const userAt = runtime.findIndex((i) => i.keyword === 'USER');
    assert.ok(userAt < runtime.findIndex((i) => i.keyword === 'CMD'), 'USER comes before CMD');
    const env = envOf(runtime);
    assert.equal(env.HOST, '0.0.0.0');
    assert.deepEqual(args('EXPOSE'), [env.PORT ?? '3000']);
    assert.deepEqual(args('STOPSIGNAL'), ['SIGTERM']);
    assert.match(args('HEALTHCHECK')[0] ?? '', /--interval=\S+ .*--timeout=\S+/);
    assert.deepEqual(execForm(args('CMD')[0] ?? ''), ['node', 'src/main.ts']);
  });

  test('prlimit comes from util-linux and is checked while building', () => {
    const installs = args('RUN').filter((run) => /apt-get install/.test(run));
    assert.ok(installs.some((run) => /\butil-linux\b/.test(run) && /prlimit --version/.test(run)));
  });

  test('hadolint basics: tagged bases, no ADD, apt without recommends and its lists removed, absolute WORKDIR', () => {
    for (const from of args('FROM', dockerfile)) {
      const image = from.split(/\s+/)[0]!.replace(/\$\{[^}]+\}/g, 'x');
      assert.match(image, /:[\w.-]+$/, `${image} has no tag`);
      assert.doesNotMatch(image, /:latest$/);
    }
    assert.deepEqual(args('ADD', dockerfile), []);
    for (const run of args('RUN', dockerfile).filter((r) => /apt-get install/.test(r))) {
      assert.match(run, /apt-get update/);
      assert.match(run, /apt-get install -y --no-install-recommends/);
      assert.match(run, /rm -rf \/var\/lib\/apt\/lists\/\*/);
    }
    for (const dir of args('WORKDIR', dockerfile)) assert.ok(dir.startsWith('/'), dir);
    assert.doesNotMatch(args('RUN', dockerfile).join('\n'), /\bsudo\b|\bcurl\b.*\|\s*sh/);
  });

  test('every COPY source exists and .dockerignore keeps it; node_modules, .git and data stay out', () => {
    const ignore = fs
      .readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    const ignored = (file: string) =>
      ignore.some(
        (pattern) => !pattern.startsWith('!') && (file === pattern || file.startsWith(`${pattern}/`)),
      );
    for (const wanted of ['node_modules', '.git', 'data', 'packages/sdk/dist']) {
      assert.ok(ignored(wanted), `.dockerignore lets ${wanted} into the build context`);
    }
    const sources = dockerfile
      .filter((i: Instruction) => i.keyword === 'COPY' && !i.args.includes('--from='))
      .flatMap((i) => copiesOf([i])[0]!.sources);
    assert.ok(sources.length >= 4);
    for (const source of sources) {
      assert.ok(fs.existsSync(path.join(ROOT, source)), `COPY ${source}: no such file`);
      assert.ok(!ignored(source.replace(/\/$/, '')), `COPY ${source} is excluded by .dockerignore`);
    }
  });
});
