/**
 * The security table: every /v1 and /console/v1 route, read from the app itself (the guard's
 * route table: method, path and the credential and scopes its config asks for) and from the two
 * OpenAPI documents (bodies, required query parameters, the documented scope and error answers),
 * is called with every credential it must refuse and with another account's ids. A new route is
 * covered by adding nothing; a route that is neither guarded nor exempted below fails the table.
 * The console's pages and forms (/console) are walked the same way: each names the right its
 * role needs in its route config, and a signed-in user of every role is tried on each of them.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { CONSOLE_ROLES, type ConsoleRole } from '../src/contract/console-users.ts';
import { errorSchemas } from '../src/contract/error-docs.ts';
import { ERROR_CATALOGUE, ERROR_CODES, type ErrorCode } from '../src/contract/errors.ts';
import { SCOPES } from '../src/contract/vocabulary.ts';
import { can } from '../src/domain/console-users/rights.ts';
import { REFRESH_BATCH_MS } from '../src/domain/matches/match-service.ts';
import { type RouteGuard, routeGuards } from '../src/plugins/guard.ts';
import pool from './fixtures/matches/pool.json' with { type: 'json' };
import { type PoolCvDescription, renderPoolCv } from './fixtures/matches/render-cv.ts';
import roles from './fixtures/matches/roles.json' with { type: 'json' };
import { client, consoleCall, newAccount, newKey, unique } from './support/accounts.ts';
import { CONSOLE_TOKEN, type TestContext, useTestApp } from './support/app.ts';
import { applicationBody, applyTo, candidateBody, pdfFixture, uploadPdf } from './support/intake.ts';
import { managedJob } from './support/jobs.ts';
import { drainAll, mailTo } from './support/mail.ts';
import { newTemplate, triggerScreening } from './support/screening.ts';

/** Routes under /v1 or /console/v1 that no credential guards, each with the reason. */
const EXEMPT: Record<string, string> = {
  'GET /v1/openapi.json': 'the public API document: integrators and generators read it without a key',
  'GET /v1/reference': 'the API reference page, public like the document it renders',
  'GET /v1/reference/js/scalar.js': "the reference page's script",
  'GET /console/v1/openapi.json': "the console API's document, public like the API's",
};

/** Console pages (/console, not /console/v1) open to a signed-out person, each with the reason. */
const SIGNED_OUT_PAGES: Record<string, string> = {
  'GET /console/login': 'the sign-in form',
  'POST /console/login': 'signing in',
  'GET /console/invite/:token': 'the invitation link is its own credential',
  'POST /console/invite/:token': 'setting the password of an invitation',
  'GET /console/forgot': 'the forgot-password form',
  'POST /console/forgot': 'asking for a reset link (the same answer for any address)',
  'GET /console/reset/:resetToken': 'the reset link is its own credential',
  'POST /console/reset/:resetToken': 'setting a new password by the reset link',
  'GET /console/login/code': 'the second step of sign-in (the half-signed cookie is its credential)',
  'POST /console/login/code': 'the code of the second step',
  'GET /console/login/setup': 'setting TOTP up at sign-in when the account requires it',
  'POST /console/login/setup': 'the first code of that set-up',
};

/** Console pages and forms of any signed-in user, so naming no right, each with the reason. */
const ANY_ROLE: Record<string, string> = {
  'GET /console': 'Home for a role with jobs; sends any other role to the first page it may open',
  'POST /console/logout': 'signing out',
};

/** Console form posts exempt from the CSRF check, each with the reason. */
const NO_CSRF_REFUSAL: Record<string, string> = {
  'POST /console/logout': 'without the token it signs nobody out and answers the sign-in page (303)',
  'POST /console/login/code': 'with no half-signed sign-in (its cookie) there is nothing to act on: 410',
  'POST /console/login/setup': 'with no half-signed sign-in (its cookie) there is nothing to act on: 410',
};

/** Pages behind a right that no page links to, each with the reason (how a person gets there). */
const NOT_LINKED: Record<string, string> = {
  'GET /console/keys/new': 'minting a key redirects there (POST-redirect-GET) to show the secret once',
  'GET /console/webhooks/new': 'adding a webhook redirects there to show its signing secret once',
};

/** Fields a console form needs beside its CSRF token, so that a refusal is for the ids, not the form. */
const FORM_FIELDS: Record<string, Record<string, string>> = {
  'POST /console/users/:userId/role': { role: 'recruiter' },
  // A refused job form is answered with the form again (400), so the table sends a valid one.
  'POST /console/jobs': { title: 'Security table job' },
};

/** Console form posts answered by a page (200) rather than a redirect, each with the reason. */
const ANSWERS_A_PAGE: Record<string, string> = {
  'POST /console/jobs/preview': 'the job page preview: renders the form values, saves nothing',
};

/** Path parameters that name no account's resource, so another account's id means nothing. */
const NOT_ACCOUNT_SCOPED: Record<string, string> = {
  taskId: "the task queue is the operator's, across accounts",
  token: 'an invitation token is a credential of its own, of no account',
  resetToken: 'a password reset token is a credential of its own, of no account',
};

/** Values for required query parameters whose schema alone does not give a valid one. */
const QUERY_EXAMPLES: Record<string, (now: Date) => string> = {
  month: (now) => now.toISOString().slice(0, 7),
};

type Json = Record<string, unknown>;
interface Operation {
  parameters?: { in: string; name: string; required?: boolean; schema?: Json }[];
  requestBody?: { content?: Record<string, { schema?: Json; example?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: Json }> }>;
  description?: string;
  'x-error-codes'?: string[];
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: Json;
}

interface Seed {
  accountId: string;
  /** Every scope, on the account's ids. */
  secret: string;
  ids: Record<string, string>;
}

const ctx: TestContext = useTestApp(
  { authFailuresPerMinute: 1_000_000, webhooks: { allowPrivate: true } },
  seed,
);
let docs: { v1: OpenApi; console: OpenApi };
let table: RouteGuard[];
let owner: Seed;
let other: Seed;
/** One key per scope, of the owner's account. */
const scopedKeys = new Map<string, string>();
let revokedSecret: string;
let sessionCookie: string;
/** The CSRF token of the signed-in session's forms. */
let sessionCsrf: string;
/** A signed-in user of each role: of the owner's account, and of an account with no resources. */
const roleSessions = new Map<ConsoleRole, { owner: Session; bystander: Session }>();
interface Session {
  cookie: string;
  csrf: string;
}
let assertions = 0;
let requests = 0;

const key = (r: Pick<RouteGuard, 'method' | 'url'>) => `${r.method} ${r.url}`;
const paramsOf = (url: string) => [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
const toTemplate = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const isApi = (url: string) => url === '/v1' || url.startsWith('/v1/');
const isConsoleApi = (url: string) => url.startsWith('/console/v1/');

function exempt(route: RouteGuard): string | undefined {
  return EXEMPT[key(route)] ?? (route.method === 'HEAD' ? EXEMPT[`GET ${route.url}`] : undefined);
}

function operationOf(route: RouteGuard): Operation | undefined {
  const doc = isApi(route.url) ? docs.v1 : docs.console;
  const method = route.method === 'HEAD' ? 'get' : route.method.toLowerCase();
  return doc.paths[toTemplate(route.url)]?.[method];
}

const idempotent = (route: RouteGuard) =>
  operationOf(route)?.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key') === true;

/** A minimal value a JSON schema accepts (`$ref`s resolved in `components`). */
function sample(schema: Json, components: Json): unknown {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return sample((components.schemas as Record<string, Json>)[name]!, components);
  }
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const choices = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (choices) return sample(choices.find((c) => c.type !== 'null') ?? choices[0]!, components);
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(required.map((name) => [name, sample(properties[name]!, components)]));
    }
    case 'array':
      return Array.from({ length: Number(schema.minItems ?? 0) }, () =>
        sample(schema.items as Json, components),
      );
    case 'integer':
    case 'number':
      return Number(schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'email') return `${unique('person').toLowerCase()}@example.com`;
      if (schema.format === 'uri') return 'https://example.com/';
      if (schema.format === 'date-time') return ctx.clock.now().toISOString();
      return 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
    default:
      return null;
  }
}

/** The route's path with these ids in it; a parameter the seed has no id for fails the table. */
function pathOf(route: RouteGuard, ids: Record<string, string>): string {
  return route.url.replace(/:(\w+)/g, (_m, name: string) => {
    assert.ok(ids[name], `${key(route)}: the table has no id for :${name}; seed one`);
    return encodeURIComponent(ids[name]!);
  });
}

/** The request for a route with these ids: path, required query, a valid-shaped body, headers. */
function requestFor(route: RouteGuard, ids: Record<string, string>, headers: Record<string, string>) {
  const doc = isApi(route.url) ? docs.v1 : docs.console;
  const operation = operationOf(route);
  let url = pathOf(route, ids);
  const query = new URLSearchParams();
  for (const p of operation?.parameters ?? []) {
    if (p.in !== 'query' || !p.required) continue;
    const example = QUERY_EXAMPLES[p.name];
    query.set(p.name, example ? example(ctx.clock.now()) : String(sample(p.schema ?? {}, doc.components)));
  }
  if (query.size > 0) url += `?${query}`;
  const all: Record<string, string> = { ...headers };
  if (idempotent(route) && !all['idempotency-key']) all['idempotency-key'] = unique('idem');
  const media = operation?.requestBody?.content?.['application/json'];
  const body = media ? (media.example ?? sample(media.schema ?? {}, doc.components)) : undefined;
  return {
    method: route.method as InjectOptions['method'],
    url,
    headers: all,
    ...(body === undefined ? {} : { payload: body as object }),
  };
}

const byCode = (() => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const compiled = new Map<string, ValidateFunction>();
  errorSchemas().forEach((schema, i) => {
    const { $id: _id, ...rest } = schema as Json;
    compiled.set(ERROR_CODES[i]!, ajv.compile(rest));
  });
  return compiled;
})();
const documentedBodies = new Map<string, ValidateFunction>();

/** The answer is `status` with `code`, in the spec's error body, as the route's document says. */
function assertRefusal(route: RouteGuard, res: LightMyRequestResponse, code: ErrorCode, why: string) {
  const where = `${key(route)} (${why})`;
  const status = ERROR_CATALOGUE[code].status;
  assert.equal(res.statusCode, status, `${where}: ${res.statusCode} ${res.body}`);
  assertions += 1;
  if (route.method === 'HEAD') return;
  const body = res.json() as { error: Json };
  assert.deepEqual(Object.keys(body), ['error'], where);
  assert.equal(body.error.code, code, `${where}: ${res.body}`);
  assert.equal(body.error.requestId, res.headers['x-request-id'], where);
  assert.ok(String(body.error.message).length > 0, where);
  const validate = byCode.get(code)!;
  assert.ok(validate(body.error), `${where}: ${res.body} ${JSON.stringify(validate.errors)}`);
  assertions += 5;
  if (!isApi(route.url)) return;
  const operation = operationOf(route)!;
  assert.ok(operation['x-error-codes']?.includes(code), `${where}: the document does not list ${code}`);
  const schema = operation.responses?.[String(status)]?.content?.['application/json']?.schema;
  assert.ok(schema, `${where}: the document has no ${status} answer`);
  let documented = documentedBodies.get(`${where} ${status}`);
  if (!documented) {
    const ajv = new Ajv({ strict: false });
    addFormats.default(ajv);
    documented = ajv.compile({ ...schema, components: docs.v1.components });
    documentedBodies.set(`${where} ${status}`, documented);
  }
  assert.ok(documented(body), `${where}: not the documented ${status} body: ${res.body}`);
  assertions += 3;
}

async function call(
  route: RouteGuard,
  ids: Record<string, string>,
  headers: Record<string, string>,
  payload?: object,
) {
  requests += 1;
  const request = requestFor(route, ids, headers);
  return ctx.app.inject(payload === undefined ? request : { ...request, payload });
}

/** The managed role of each seeded account (a backend role of the matches' labelled set) and a CV it matches. */
const ROLE = roles.find((role) => role.truth.occupation === 'backend')!.job;
const POOL_CV = (pool as (PoolCvDescription & { truth: { occupation: string } })[]).find(
  (cv) => cv.truth.occupation === 'backend' && cv.language === 'en',
)!;

/** An account with every kind of resource a path can name, all reached through the app. */
async function seedAccount(): Promise<Seed> {
  const account = await newAccount(ctx.app, {
    dpa: true,
    limits: { requestsPerMinute: 1_000_000, managedAdSlots: 10 },
  });
  const id = account.id;
  const full = await newKey(ctx.app, id, [...SCOPES]);
  const api = client(ctx.app, full.secret);
  const spare = await newKey(ctx.app, id, ['jobs:read']);
  // The webhook comes first, so the events below give it deliveries.
  const hook = await consoleCall(ctx.app, 'POST', `/accounts/${id}/webhooks`, {
    url: 'http://127.0.0.1:9/hook',
  });
  assert.equal(hook.statusCode, 201, hook.body);
  const webhookId = hook.json().webhook.id as string;
  const job = await managedJob(ctx.app, api, id, ROLE);
  const { candidateId } = await applyTo(ctx, api, job.id);
  // One person in the account's pool whom the role matches (the seed reads the match once built).
  const email = `${unique('pool').toLowerCase()}@example.com`;
  const upload = await uploadPdf(ctx, api, await renderPoolCv(POOL_CV));
  const imported = await api.post('/v1/candidates', candidateBody(upload.uploadId, { email }), {
    'idempotency-key': unique('idem'),
  });
  assert.equal(imported.statusCode, 201, imported.body);
  const template = await newTemplate(ctx.app, id);
  const screening = await triggerScreening(api, job.id, candidateId, { templateId: template.id });
  assert.equal(screening.statusCode, 201, screening.body);
  const user = await consoleCall(ctx.app, 'POST', `/accounts/${id}/users`, {
    email: `${unique('user').toLowerCase()}@example.com`,
    role: 'recruiter',
  });
  assert.equal(user.statusCode, 201, user.body);
  return {
    accountId: id,
    secret: full.secret,
    ids: {
      accountId: id,
      jobId: job.id,
      applicationId: candidateId,
      // Replaced by a match's candidate once matches are generated (the screening route takes either).
      candidateId,
      keyId: spare.id,
      templateId: template.id,
      screeningId: screening.json().screening.screeningId,
      webhookId,
      userId: user.json().user.id,
    },
  };
}

/** Delivers what is due, so that each seeded webhook has a delivery; answers the first one's id. */
async function deliveryOf(seed: Seed): Promise<string> {
  const { accountId, webhookId } = seed.ids;
  const res = await consoleCall(ctx.app, 'GET', `/accounts/${accountId}/webhooks/${webhookId}/deliveries`);
  const deliveries = res.json().deliveries as { id: string }[];
  assert.ok(deliveries.length > 0, `no delivery for ${webhookId}: ${res.body}`);
  return deliveries[0]!.id;
}

/** Signs a console user of the owner's account in through the invitation page; the session cookie. */
async function signIn(accountId: string, role: ConsoleRole = 'admin'): Promise<string> {
  const invited = await consoleCall(ctx.app, 'POST', `/accounts/${accountId}/users`, {
    email: `${unique(role).toLowerCase()}@example.com`,
    role,
  });
  const path = new URL(invited.json().inviteUrl as string).pathname;
  const page = await ctx.app.inject({ method: 'GET', url: path });
  const csrfCookie = String(page.headers['set-cookie']).split(';')[0]!;
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
  const accepted = await ctx.app.inject({
    method: 'POST',
    url: path,
    headers: { cookie: csrfCookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ csrf, password: 'correct horse battery staple' }).toString(),
  });
  assert.equal(accepted.statusCode, 303, accepted.body);
  const line = [accepted.headers['set-cookie']].flat().find((c) => String(c).startsWith('console_session='));
  assert.ok(line, 'no session cookie');
  // extensions.md §1: HttpOnly, SameSite, Secure under https (the test app's base URL is https).
  for (const attribute of [/; HttpOnly/i, /; SameSite=(Lax|Strict)/i, /; Secure/i, /; Path=\/console(;|$)/]) {
    assert.match(line, attribute);
  }
  return line.split(';')[0]!;
}

/** Seeds both accounts, then what needs the worker or the others: matches, deliveries, a session. */
async function seed(): Promise<void> {
  docs = {
    v1: (await ctx.app.inject('/v1/openapi.json')).json(),
    console: (await ctx.app.inject('/console/v1/openapi.json')).json(),
  };
  table = [...routeGuards(ctx.app)];
  owner = await seedAccount();
  other = await seedAccount();
  // CVs built, profiles refreshed, matches generated: as matches.test.ts settles them.
  await drainAll(ctx.worker);
  ctx.clock.advance(REFRESH_BATCH_MS + 1);
  await ctx.services.maintenance();
  await drainAll(ctx.worker);
  for (const seeded of [owner, other]) {
    const res = await client(ctx.app, seeded.secret).get(`/v1/jobs/${seeded.ids.jobId}/matches`);
    const matches = res.json().matches as { candidateId: string; matchId: string }[] | undefined;
    assert.ok(matches?.length, `no match for the seeded role: ${res.body}`);
    seeded.ids.candidateId = matches[0]!.candidateId;
    seeded.ids.matchId = matches[0]!.matchId;
  }
  const dispatcher = ctx.services.webhookDispatcher({ log: { warn() {}, error() {} }, pollMs: 20 });
  await dispatcher.drain();
  await dispatcher.stop();
  // The pages name a delivery attempt `attemptId`.
  for (const seeded of [owner, other]) {
    seeded.ids.deliveryId = await deliveryOf(seeded);
    seeded.ids.attemptId = seeded.ids.deliveryId;
  }
  // Ids of no account, for the routes' own checks: a task the worker ran, a platform person, an
  // open invitation's token.
  const tasks = await consoleCall(ctx.app, 'GET', '/tasks?state=done');
  owner.ids.taskId = tasks.json().tasks[0].id;
  const person = await consoleCall(ctx.app, 'POST', '/people', {
    email: `${unique('seeker').toLowerCase()}@example.com`,
    name: 'Ines Duarte',
  });
  assert.equal(person.statusCode, 201, person.body);
  owner.ids.personId = person.json().person.id;
  const invited = await consoleCall(ctx.app, 'POST', `/accounts/${owner.accountId}/users`, {
    email: `${unique('invitee').toLowerCase()}@example.com`,
    role: 'recruiter',
  });
  owner.ids.token = String(invited.json().inviteUrl).split('/').at(-1)!;
  // An open password reset link's token, for a user who has set a password.
  const joining = await consoleCall(ctx.app, 'POST', `/accounts/${owner.accountId}/users`, {
    email: `${unique('resetter').toLowerCase()}@example.com`,
    role: 'recruiter',
  });
  const joinPath = new URL(joining.json().inviteUrl as string).pathname;
  const joinPage = await ctx.app.inject({ method: 'GET', url: joinPath });
  const joinCookie = String([joinPage.headers['set-cookie']].flat()[0]).split(';')[0]!;
  await ctx.app.inject({
    method: 'POST',
    url: joinPath,
    headers: { cookie: joinCookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      csrf: /name="csrf" value="([^"]+)"/.exec(joinPage.body)![1]!,
      password: 'a long enough password',
    }).toString(),
  });
  await ctx.services.accountSafety.requestReset(joining.json().user.email);
  const resetMail = (await mailTo(ctx.app, joining.json().user.email)).find((m) => /Reset/.test(m.subject));
  owner.ids.resetToken = /\/console\/reset\/([A-Za-z0-9_-]{43})/.exec(resetMail!.text)![1]!;
  for (const scope of SCOPES) scopedKeys.set(scope, (await newKey(ctx.app, owner.accountId, [scope])).secret);
  const revoked = await newKey(ctx.app, owner.accountId, [...SCOPES]);
  // Seen working once, so the guard knows it, then revoked.
  assert.equal((await client(ctx.app, revoked.secret).get('/v1/jobs')).statusCode, 200);
  const gone = await consoleCall(ctx.app, 'DELETE', `/accounts/${owner.accountId}/keys/${revoked.id}`);
  assert.equal(gone.statusCode, 204, gone.body);
  revokedSecret = revoked.secret;
  sessionCookie = await signIn(owner.accountId);
  const page = await ctx.app.inject({
    method: 'GET',
    url: '/console/jobs',
    headers: { cookie: sessionCookie },
  });
  sessionCsrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
  const bystander = await newAccount(ctx.app, { dpa: true, limits: { requestsPerMinute: 1_000_000 } });
  for (const role of CONSOLE_ROLES) {
    roleSessions.set(role, {
      owner: await sessionOf(owner.accountId, role),
      bystander: await sessionOf(bystander.id, role),
    });
  }
}

/** A signed-in user of this role and account, with the CSRF token of their forms (from their home page). */
async function sessionOf(accountId: string, role: ConsoleRole): Promise<Session> {
  const cookie = await signIn(accountId, role);
  const home = await ctx.app.inject({ method: 'GET', url: '/console', headers: { cookie } });
  // /console is Home for a role with jobs; any other role is sent to its first page.
  const page =
    home.statusCode === 200
      ? home
      : await ctx.app.inject({ method: 'GET', url: home.headers.location!, headers: { cookie } });
  assert.equal(page.statusCode, 200, `${role}: home ${home.headers.location} ${page.statusCode}`);
  return { cookie, csrf: /name="csrf" value="([^"]+)"/.exec(page.body)![1]! };
}

after(async () => {
  if (table) {
    const count = (f: (r: RouteGuard) => boolean) => table.filter(f).length;
    console.log(
      `security table: ${count((r) => isApi(r.url) && !exempt(r))} /v1, ${count((r) => isConsoleApi(r.url) && !exempt(r))} /console/v1 and ${count((r) => isConsolePage(r.url))} console page routes (HEAD included); ${requests} requests, ${assertions} assertions`,
    );
  }
});

const guarded = () => table.filter((r) => (isApi(r.url) || isConsoleApi(r.url)) && !exempt(r));
const apiRoutes = () => guarded().filter((r) => isApi(r.url));
const consoleRoutes = () => guarded().filter((r) => isConsoleApi(r.url));

describe('the table covers every route', () => {
  test('the guard saw every route the router holds', () => {
    const printed = ctx.app.printRoutes({ commonPrefix: false });
    const stack: string[] = [];
    let count = 0;
    for (const line of printed.split('\n')) {
      const match = /^([│ ]*)(?:├── |└── )(\S+)(?: \(([^)]+)\))?$/.exec(line);
      if (!match) continue;
      stack.length = match[1]!.length / 4;
      stack.push(match[2]!);
      const url = stack.join('');
      for (const method of match[3]?.split(', ') ?? []) {
        count += 1;
        assert.ok(
          table.some((r) => r.method === method && r.url === url),
          `${method} ${url} was registered before the guard`,
        );
      }
    }
    assert.ok(count > 50 && count === table.length, `${count} routed, ${table.length} in the table`);
  });

  test('each /v1 route asks for a key with a scope, each /console/v1 route for the console token', () => {
    for (const listed of [
      EXEMPT,
      SIGNED_OUT_PAGES,
      ANY_ROLE,
      NO_CSRF_REFUSAL,
      FORM_FIELDS,
      NOT_LINKED,
      ANSWERS_A_PAGE,
    ].flatMap(Object.keys)) {
      assert.ok(
        table.some((r) => key(r) === listed),
        `stale exemption: ${listed} is no route`,
      );
    }
    for (const route of table.filter((r) => isApi(r.url) || isConsoleApi(r.url))) {
      if (exempt(route)) {
        assert.equal(route.credential, 'none', `${key(route)} is exempted but guarded`);
        continue;
      }
      const wanted = isApi(route.url) ? 'key' : 'console';
      assert.equal(route.credential, wanted, `${key(route)} is not guarded by the ${wanted} credential`);
      if (wanted === 'key') assert.ok(route.scopes.length > 0, `${key(route)} has no scope`);
    }
  });

  test('each guarded route is in its OpenAPI document; a /v1 route documents the scope it asks for', () => {
    for (const route of guarded()) {
      const operation = operationOf(route);
      assert.ok(operation, `${key(route)} is not in its OpenAPI document`);
      if (!isApi(route.url) || route.method === 'HEAD') continue;
      const named = /^Scope ([^.(]*)/.exec(operation.description ?? '')?.[1] ?? '';
      const documented = [...named.matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort();
      assert.deepEqual(documented, [...route.scopes].sort(), `${key(route)}: documented scopes`);
    }
  });
});

describe('/v1: every route refuses what it must', () => {
  test('no key, a revoked key, the console token, a console session: 401 unauthorized', async () => {
    await allUnauthorized(apiRoutes(), [
      ['no key', {}],
      ['revoked key', { authorization: `Bearer ${revokedSecret}` }],
      ['revoked key in x-api-key', { 'x-api-key': revokedSecret }],
      ['console token', { authorization: `Bearer ${CONSOLE_TOKEN}` }],
      ['console token in x-api-key', { 'x-api-key': CONSOLE_TOKEN }],
      ['console session cookie', { cookie: sessionCookie }],
    ]);
  });

  test('a key without the route’s scope: 403 forbidden naming the scope', async () => {
    for (const route of apiRoutes()) {
      for (const scope of SCOPES.filter((s) => !route.scopes.includes(s))) {
        const res = await call(route, owner.ids, { authorization: `Bearer ${scopedKeys.get(scope)}` });
        assertRefusal(route, res, 'forbidden', `key with only ${scope}`);
        if (route.method === 'HEAD') continue;
        const { missingScope: missing, acceptedScopes, message } = res.json().error as Json;
        assert.equal(missing, route.scopes[0], `${key(route)}: missingScope ${missing}`);
        // Every scope the route accepts is named, in the body and in the message.
        assert.deepEqual(acceptedScopes, route.scopes, `${key(route)}: acceptedScopes`);
        for (const accepted of route.scopes) {
          assert.ok(String(message).includes(`"${accepted}"`), `${key(route)}: message names no ${accepted}`);
        }
        assertions += 2 + route.scopes.length;
      }
    }
  });

  test('another account’s ids in the path: 404 not_found, never 403 or 2xx', async () => {
    for (const route of apiRoutes()) {
      await crossAccount(route, { authorization: `Bearer ${owner.secret}` });
    }
  });
});

describe('/v1: one account’s Idempotency-Key means nothing to another', () => {
  test('the same key and body from another account is answered afresh, never replayed', async () => {
    let kept = 0;
    for (const route of apiRoutes().filter(idempotent)) {
      const idem = unique('idem');
      const as = (seed: Seed) => ({ authorization: `Bearer ${seed.secret}`, 'idempotency-key': idem });
      const first = await call(route, owner.ids, as(owner));
      const again = await call(route, owner.ids, as(owner));
      // Only a kept answer is replayed: with none kept there is nothing to leak.
      if (again.headers['idempotent-replayed'] !== 'true') continue;
      kept += 1;
      const theirs = await call(route, other.ids, as(other));
      assert.notEqual(
        theirs.headers['idempotent-replayed'],
        'true',
        `${key(route)}: replayed to another account`,
      );
      assert.notEqual(theirs.body, first.body, `${key(route)}: another account got the first answer`);
      assertions += 2;
    }
    assert.ok(kept >= 4, `only ${kept} idempotent routes kept an answer; the check shows too little`);
  });
});

/** Each credential on each route, on the owner's ids: 401 `unauthorized`. */
async function allUnauthorized(routes: RouteGuard[], credentials: [string, Record<string, string>][]) {
  for (const route of routes) {
    for (const [why, headers] of credentials) {
      assertRefusal(route, await call(route, owner.ids, headers), 'unauthorized', why);
    }
  }
}

/**
 * The owner's ids with another account's put in: each account-scoped id alone, and every id but
 * the account's together (under the other account itself they would be its own). The operator
 * may address any account, so a console API path whose only id is the account has none.
 */
function swaps(route: RouteGuard): Record<string, string>[] {
  const names = paramsOf(route.url).filter((name) => !(name in NOT_ACCOUNT_SCOPED));
  if (names.length === 0 || (isConsoleApi(route.url) && names.length === 1)) return [];
  const variants = names.map((name) => ({ [name]: other.ids[name]! }));
  const nested = names.filter((name) => name !== 'accountId');
  if (nested.length > 1) variants.push(Object.fromEntries(nested.map((n) => [n, other.ids[n]!])));
  return variants;
}

/** An id of the same shape that names nothing. */
const unknownId = (id: string) => `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`;

/** The error without its request id: what tells one refusal from another. */
function refusalOf(res: LightMyRequestResponse): unknown {
  if (res.body === '') return res.statusCode;
  const { requestId: _id, ...rest } = res.json().error;
  return { status: res.statusCode, ...rest };
}

/**
 * Another account's ids: 404, and the same answer as for ids that name nothing, so that the
 * refusal does not even say the id exists (the account itself aside, on the operator's API).
 */
async function crossAccount(route: RouteGuard, headers: Record<string, string>) {
  for (const swapped of swaps(route)) {
    const why = `another account's ${Object.keys(swapped).join(', ')}`;
    const res = await call(route, { ...owner.ids, ...swapped }, headers);
    assertRefusal(route, res, 'not_found', why);
    // The operator may know which accounts exist; an account swapped in is no secret to compare.
    if ('accountId' in swapped) continue;
    const unknown = Object.fromEntries(Object.entries(swapped).map(([name, id]) => [name, unknownId(id)]));
    const none = await call(route, { ...owner.ids, ...unknown }, headers);
    assert.deepEqual(refusalOf(res), refusalOf(none), `${key(route)} (${why}): differs from an unknown id's`);
    assertions += 1;
  }
}

describe('/console/v1: every route refuses what it must', () => {
  test('no token, a wrong token, an API key, a console session: 401 unauthorized', async () => {
    await allUnauthorized(consoleRoutes(), [
      ['no token', {}],
      ['wrong token', { authorization: `Bearer ${CONSOLE_TOKEN}x` }],
      ['console token in x-api-key', { 'x-api-key': CONSOLE_TOKEN }],
      ['API key', { authorization: `Bearer ${owner.secret}` }],
      ['API key in x-api-key', { 'x-api-key': owner.secret }],
      ['console session cookie', { cookie: sessionCookie }],
    ]);
  });

  test('another account’s ids under an account: 404 not_found, never 403 or 2xx', async () => {
    for (const route of consoleRoutes()) {
      await crossAccount(route, { authorization: `Bearer ${CONSOLE_TOKEN}` });
    }
  });
});

const isConsolePage = (url: string) =>
  (url === '/console' || url.startsWith('/console/')) && !isConsoleApi(url);
const pageRoutes = () => table.filter((r) => isConsolePage(r.url));
const signedOutPage = (r: RouteGuard) =>
  SIGNED_OUT_PAGES[key(r)] ?? (r.method === 'HEAD' ? SIGNED_OUT_PAGES[`GET ${r.url}`] : undefined);

/** A console page or form post with these ids; a post carries `csrf` when given. */
function pageCall(
  route: RouteGuard,
  ids: Record<string, string>,
  headers: Record<string, string>,
  csrf?: string,
) {
  const url = pathOf(route, ids);
  const post = route.method === 'POST';
  requests += 1;
  return ctx.app.inject({
    method: route.method as InjectOptions['method'],
    url,
    headers: post ? { ...headers, 'content-type': 'application/x-www-form-urlencoded' } : headers,
    ...(post
      ? { payload: new URLSearchParams({ ...FORM_FIELDS[key(route)], ...(csrf ? { csrf } : {}) }).toString() }
      : {}),
  });
}

function assertPage(route: RouteGuard, res: LightMyRequestResponse, status: number, why: string) {
  assert.equal(
    res.statusCode,
    status,
    `${key(route)} (${why}): ${res.statusCode} ${res.headers.location ?? ''}`,
  );
  assertions += 1;
}

describe('/console pages: the session cookie is the only way in', () => {
  test('signed out, or with an API key or the console token instead: sent to sign in', async () => {
    for (const route of pageRoutes().filter((r) => !signedOutPage(r))) {
      for (const [why, headers] of [
        ['signed out', {}],
        ['API key', { authorization: `Bearer ${owner.secret}` }],
        ['console token', { authorization: `Bearer ${CONSOLE_TOKEN}` }],
      ] as const) {
        const res = await pageCall(route, owner.ids, headers);
        assertPage(route, res, 303, why);
        assert.equal(res.headers.location, '/console/login', `${key(route)} (${why})`);
        assertions += 1;
      }
    }
  });

  test('a form posted without its CSRF token, or with another: 403, nothing done', async () => {
    for (const route of pageRoutes().filter((r) => r.method === 'POST' && !NO_CSRF_REFUSAL[key(r)])) {
      const headers = { cookie: sessionCookie };
      assertPage(route, await pageCall(route, owner.ids, headers), 403, 'no CSRF token');
      assertPage(
        route,
        await pageCall(route, owner.ids, headers, `${sessionCsrf}x`),
        403,
        'wrong CSRF token',
      );
    }
  });

  test('another account’s ids in a page or a form: 404, never 403 or done', async () => {
    for (const route of pageRoutes()) {
      for (const swapped of swaps(route)) {
        const res = await pageCall(
          route,
          { ...owner.ids, ...swapped },
          { cookie: sessionCookie },
          sessionCsrf,
        );
        assertPage(route, res, 404, `another account's ${Object.keys(swapped).join(', ')}`);
      }
    }
  });

  test('signed in, each page on its own ids opens', async () => {
    for (const route of pageRoutes().filter((r) => r.method !== 'POST')) {
      const res = await pageCall(route, owner.ids, { cookie: sessionCookie });
      assert.ok(
        [200, 303].includes(res.statusCode),
        `${key(route)}: ${res.statusCode} ${res.body.slice(0, 200)}`,
      );
      assertions += 1;
    }
  });
});

const anyRole = (r: RouteGuard) =>
  ANY_ROLE[key(r)] ?? (r.method === 'HEAD' ? ANY_ROLE[`GET ${r.url}`] : undefined);
/** Console pages and forms behind a right: every one a signed-in user reaches but those of any role. */
const rightRoutes = () => pageRoutes().filter((r) => !signedOutPage(r) && !anyRole(r));
const holds = (role: ConsoleRole, route: RouteGuard) => route.right === null || can(role, route.right);

/** The console routes a page's link (GET) or form (its method) leads to; none when it leads elsewhere. */
function controlsOf(body: string): { method: string; path: string; control: string }[] {
  const found: { method: string; path: string; control: string }[] = [];
  for (const [control, href] of body.matchAll(/<a\b[^>]*\bhref="([^"]*)"/g)) {
    found.push({ method: 'GET', path: href!, control });
  }
  for (const [control] of body.matchAll(/<form\b[^>]*>/g)) {
    const method = /\bmethod="(\w+)"/.exec(control)?.[1]?.toUpperCase() ?? 'GET';
    const path = /\baction="([^"]*)"/.exec(control)?.[1] ?? '';
    found.push({ method, path, control });
  }
  return found
    .map((c) => ({ ...c, path: c.path.replaceAll('&amp;', '&').split(/[?#]/)[0]! }))
    .filter((c) => c.path === '/console' || (c.path.startsWith('/console/') && !isConsoleApi(c.path)));
}

/** The table's route for a control's method and path. */
function routeOf(method: string, path: string): RouteGuard | undefined {
  return pageRoutes().find(
    (r) => r.method === method && new RegExp(`^${r.url.replace(/:\w+/g, '[^/]+')}$`).test(path),
  );
}

describe('/console pages: each role reaches only what its rights allow (extensions.md §1)', () => {
  test('each page or form a signed-in user reaches names the right it needs in its route config', () => {
    for (const route of pageRoutes()) {
      if (signedOutPage(route) || anyRole(route)) {
        assert.equal(route.right, null, `${key(route)} is open to everyone yet names a right`);
      } else {
        assert.ok(route.right, `${key(route)} names no right (config.right)`);
      }
    }
    assert.ok(rightRoutes().length > 20, `only ${rightRoutes().length} routes behind a right`);
  });

  test('a role without the right: 403 on the page and on the form, on the account’s real ids', async () => {
    for (const role of CONSOLE_ROLES) {
      const { owner: session } = roleSessions.get(role)!;
      for (const route of rightRoutes().filter((r) => !holds(role, r))) {
        const res = await pageCall(route, owner.ids, { cookie: session.cookie }, session.csrf);
        assertPage(route, res, 403, `${role} lacks ${route.right}`);
        if (route.method === 'HEAD') continue;
        assert.match(res.body, /Your role cannot/, `${key(route)} (${role}): not the role's refusal`);
        assertions += 1;
      }
    }
  });

  test('the role holding the right opens the page, and its form is not refused', async () => {
    for (const role of CONSOLE_ROLES) {
      const sessions = roleSessions.get(role)!;
      for (const route of rightRoutes().filter((r) => holds(role, r))) {
        if (route.method !== 'POST') {
          const res = await pageCall(route, owner.ids, { cookie: sessions.owner.cookie });
          assert.ok(
            [200, 303].includes(res.statusCode),
            `${key(route)} (${role} holds ${route.right}): ${res.statusCode} ${res.body.slice(0, 200)}`,
          );
          assertions += 1;
          continue;
        }
        // Posted from an account with nothing in it, so that nothing of the owner's changes: past
        // the role the owner's ids are not found (404) and a form naming none is answered (303).
        const { bystander } = sessions;
        const res = await pageCall(route, owner.ids, { cookie: bystander.cookie }, bystander.csrf);
        const expected = paramsOf(route.url).length > 0 ? 404 : ANSWERS_A_PAGE[key(route)] ? 200 : 303;
        assertPage(route, res, expected, `${role} holds ${route.right}`);
      }
    }
  });

  test('a page shows a role no link or form its role cannot use, and a link to each page it may open', async () => {
    let controls = 0;
    for (const role of CONSOLE_ROLES) {
      const { owner: session } = roleSessions.get(role)!;
      const reached = new Set<RouteGuard>();
      for (const route of pageRoutes().filter((r) => r.method === 'GET' && !signedOutPage(r))) {
        const res = await pageCall(route, owner.ids, { cookie: session.cookie });
        for (const control of controlsOf(res.body)) {
          const target = routeOf(control.method, control.path);
          assert.ok(target, `${key(route)} (${role}): ${control.control} leads to no console route`);
          assert.ok(
            holds(role, target),
            `${key(route)} (${role}): shows ${control.control}, which needs ${target.right}`,
          );
          reached.add(target);
          controls += 1;
          assertions += 2;
        }
      }
      // The navigation agrees with the routes' config: each top page the role holds is linked.
      for (const top of rightRoutes().filter((r) => r.method === 'GET' && paramsOf(r.url).length === 0)) {
        if (!holds(role, top) || NOT_LINKED[key(top)]) continue;
        assert.ok(reached.has(top), `${role} holds ${top.right} but no page links to ${key(top)}`);
        assertions += 1;
      }
    }
    assert.ok(controls > 100, `only ${controls} controls seen; the check shows too little`);
  });
});

/**
 * Bodies that the document's samples cannot give, so that the route answers 2xx: each reads a
 * fresh upload, made with a second key of the account so that the key under test counts only the
 * route's own request.
 */
const VALID_BODIES: Record<string, (helper: ReturnType<typeof client>) => Promise<object>> = {
  'POST /v1/jobs/:jobId/applications': async (helper) =>
    applicationBody(ctx.clock, (await uploadPdf(ctx, helper, pdfFixture('cv-2-pages.pdf'))).uploadId),
  'POST /v1/jobs/:jobId/applications/validate': async (helper) =>
    applicationBody(ctx.clock, (await uploadPdf(ctx, helper, pdfFixture('cv-2-pages.pdf'))).uploadId),
  'POST /v1/candidates': async (helper) =>
    candidateBody((await uploadPdf(ctx, helper, pdfFixture('cv-2-pages.pdf'))).uploadId),
};

/** Routes whose answer ends what others need (the job's close, deletions): they run last. */
const ENDS_SOMETHING = (route: RouteGuard) =>
  route.method === 'DELETE' ? 2 : route.url.endsWith('/close') ? 1 : 0;

/** The X-RateLimit headers of a key's answer: the account's limit, what is left, the window's end. */
function assertLimitHeaders(
  route: RouteGuard,
  res: LightMyRequestResponse,
  limit: number,
  remaining: number,
) {
  const where = `${key(route)} ${res.statusCode}`;
  assert.equal(res.headers['x-ratelimit-limit'], String(limit), `${where}: X-RateLimit-Limit`);
  assert.equal(res.headers['x-ratelimit-remaining'], String(remaining), `${where}: X-RateLimit-Remaining`);
  const reset = Number(res.headers['x-ratelimit-reset']);
  const nowSeconds = ctx.clock.now().getTime() / 1000;
  assert.ok(
    Number.isInteger(reset) && reset >= Math.floor(nowSeconds) && reset <= nowSeconds + 60,
    `${where}: X-RateLimit-Reset ${res.headers['x-ratelimit-reset']} is not within the test clock's minute`,
  );
  assertions += 3;
}

describe('the right credential on its own ids passes the guard', () => {
  // The control for the API tables above: the same requests, with the right credential and the
  // account's own ids, are neither refused nor not found. It changes the owner's resources, so it
  // runs last, and its deletions last of all. Each rate-limited /v1 route answers 2xx here, with
  // the X-RateLimit headers of a key that counted exactly that request.
  test('no 401, 403 or 404, and no 5xx; each rate-limited /v1 route 2xx with its headers', async () => {
    const routes = [...apiRoutes(), ...consoleRoutes()].sort((a, b) => ENDS_SOMETHING(a) - ENDS_SOMETHING(b));
    const helper = client(ctx.app, (await newKey(ctx.app, owner.accountId, [...SCOPES])).secret);
    const counted = await newKey(ctx.app, owner.accountId, [...SCOPES]);
    // The role tests' forms closed and unmanaged the seeded ad; its matches answer 2xx only when it
    // is published and managed again.
    const republished = await helper.post(`/v1/jobs/${owner.ids.jobId}/publish`);
    assert.equal(republished.statusCode, 200, republished.body);
    const remanaged = await consoleCall(
      ctx.app,
      'POST',
      `/accounts/${owner.accountId}/jobs/${owner.ids.jobId}/manage`,
    );
    assert.ok([200, 409].includes(remanaged.statusCode), remanaged.body);
    let spent = 0;
    for (const route of routes) {
      if (paramsOf(route.url).some((name) => name in NOT_ACCOUNT_SCOPED)) continue;
      // Test helpers answer a live key 404 by design; test-mode.test.ts is their control.
      if (route.url.startsWith('/v1/test/')) continue;
      const credential = isApi(route.url) ? counted.secret : CONSOLE_TOKEN;
      const body = await VALID_BODIES[key(route)]?.(helper);
      const res = await call(route, owner.ids, { authorization: `Bearer ${credential}` }, body);
      assert.ok(![401, 403, 404].includes(res.statusCode), `${key(route)}: ${res.statusCode} ${res.body}`);
      assert.ok(res.statusCode < 500, `${key(route)}: ${res.statusCode} ${res.body}`);
      assertions += 2;
      if (!route.rateLimited) {
        assert.equal(res.headers['x-ratelimit-limit'], undefined, `${key(route)} is not rate limited`);
        continue;
      }
      spent += 1;
      assert.ok(res.statusCode < 300, `${key(route)}: ${res.statusCode} ${res.body}`);
      assertLimitHeaders(route, res, 1_000_000, 1_000_000 - spent);
    }
    assert.ok(spent >= 15, `only ${spent} rate-limited /v1 answers`);
  });
});

describe('/v1: every rate-limited route counts against the key and refuses past the limit', () => {
  // Runs after the control above, on its own account with a limit of one request a minute: each
  // route, with a fresh key, answers its first request with Remaining 0 and its second 429.
  test('the second request of a minute: 429 rate_limited with Retry-After and the headers', async () => {
    const limited = await newAccount(ctx.app, { dpa: true, limits: { requestsPerMinute: 1 } });
    const ids = Object.fromEntries(Object.keys(owner.ids).map((name) => [name, unique(name)]));
    let checked = 0;
    for (const route of apiRoutes().filter((r) => r.rateLimited)) {
      const secret = (await newKey(ctx.app, limited.id, [...SCOPES])).secret;
      const headers = { authorization: `Bearer ${secret}` };
      const first = await call(route, ids, headers);
      assert.ok(first.statusCode !== 429 && first.statusCode < 500, `${key(route)}: ${first.statusCode}`);
      assertLimitHeaders(route, first, 1, 0);
      const second = await call(route, ids, headers);
      assertRefusal(route, second, 'rate_limited', 'past the per-minute limit');
      assertLimitHeaders(route, second, 1, 0);
      const retryAfter = Number(second.headers['retry-after']);
      assert.ok(
        retryAfter >= 1 && retryAfter <= 60,
        `${key(route)}: Retry-After ${second.headers['retry-after']}`,
      );
      checked += 1;
    }
    assert.ok(checked >= 15, `only ${checked} rate-limited /v1 routes`);
  });
});
