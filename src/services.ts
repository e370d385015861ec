import fs from 'node:fs';
import path from 'node:path';
import type { BlobStore } from './blob-store/index.ts';
import type { Config } from './config.ts';
import type { DbHandle } from './db/connect.ts';
import { migrationsCurrent } from './db/migrate.ts';
import { createAccountService } from './domain/accounts/account-service.ts';
import { createAuditService } from './domain/console-users/audit-service.ts';
import { createAccountSafetyService } from './domain/console-users/security-service.ts';
import { createConsoleUserService } from './domain/console-users/user-service.ts';
import type { VirtualCvBuilder } from './domain/cv/build-step.ts';
import { createCvService } from './domain/cv/cv-service.ts';
import { createEventLog } from './domain/events/event-log.ts';
import { createWebhookDispatcher } from './domain/events/webhook-dispatcher.ts';
import { createWebhookService } from './domain/events/webhook-service.ts';
import { createIdempotencyService } from './domain/idempotency/idempotency-service.ts';
import { createInsightService } from './domain/insights/insight-service.ts';
import { createPageViewCounter } from './domain/insights/page-view-counter.ts';
import { createApplicationService } from './domain/intake/application-service.ts';
import { createCandidateService } from './domain/intake/candidate-service.ts';
import { createFormTokens } from './domain/intake/form-token.ts';
import { createHostedApplyService } from './domain/intake/hosted-apply.ts';
import { createPersonService } from './domain/intake/person-service.ts';
import { pipelineRepository } from './domain/intake/pipeline-repository.ts';
import { createPipelineService } from './domain/intake/pipeline-service.ts';
import { createUploadService } from './domain/intake/upload-service.ts';
import { jobRepository } from './domain/jobs/job-repository.ts';
import { createJobService } from './domain/jobs/job-service.ts';
import { createPublicJobService } from './domain/jobs/public-job-service.ts';
import { createKeyService } from './domain/keys/key-service.ts';
import { createDismissals } from './domain/matches/dismissals.ts';
import type { EmbeddingProvider } from './domain/matches/embeddings.ts';
import { createMatchService } from './domain/matches/match-service.ts';
import { createOpsStatsService } from './domain/ops/ops-stats-service.ts';
import { createTaskAdminService } from './domain/ops/task-admin-service.ts';
import type { CvInspector, CvLimits } from './domain/ports.ts';
import { createErasure } from './domain/privacy/erasure.ts';
import { createPrivacyService } from './domain/privacy/privacy-service.ts';
import { createTestDataEraser } from './domain/privacy/test-data.ts';
import { createScreeningService } from './domain/screening/screening-service.ts';
import type { Services } from './domain/services.ts';
import type { Clock } from './lib/clock.ts';
import { randomToken } from './lib/ids.ts';
import { mailRepository } from './mail/mail-repository.ts';
import { type Mailer, modeMailer } from './mail/mailer.ts';
import { createTaskQueue } from './tasks/queue.ts';
import { taskRepository } from './tasks/task-repository.ts';
import type { TaskHandlers } from './tasks/worker.ts';
import { createWebhookSender, type Resolver } from './webhooks/sender.ts';

/**
 * What the services are built from: the outside world and the settings they take. The composition
 * root imports no HTTP; src/runtime.ts builds these from the configuration and the app over them.
 */
export interface ServiceDeps {
  handle: DbHandle;
  clock: Clock;
  publicBaseUrl: string;
  files: BlobStore;
  inspector: CvInspector;
  cvLimits: CvLimits;
  mailer: Mailer;
  build: VirtualCvBuilder;
  stagedTtlSeconds: number;
  /**
   * The claim links' HMAC key (CLAIM_LINK_KEY or DATA_DIR/claim-link-key): never in the database.
   * The events feed's cursor key is derived from it.
   */
  claimLinkKey: string;
  /** Webhook delivery: WEBHOOK_ALLOW_PRIVATE, and the resolver (tests inject one). */
  webhooks?: { allowPrivate: boolean; resolve?: Resolver };
  /** Matching's embedding provider (EMBEDDINGS_URL); absent or null: off, no network call. */
  embeddings?: EmbeddingProvider | null;
}

const FINISHED_TASKS_KEPT_MS = 7 * 86_400_000;

/** Composition root: every service built once, from narrow dependencies. */
export function createServices(deps: ServiceDeps): Services {
  const { handle, clock, publicBaseUrl, files, inspector, cvLimits } = deps;
  const db = handle.db;
  const queue = createTaskQueue({ clock });
  // Candidate mail by the account's mode: test mail to the outbox only (extensions.md §8).
  const candidateMail = modeMailer(deps.mailer, { db, clock });
  const uploads = createUploadService({ db, clock, files, inspector, limits: cvLimits });
  const idempotency = createIdempotencyService({ db, clock });
  const events = createEventLog({
    db,
    clock,
    cursorKey: deps.claimLinkKey,
    expiredJobs: jobRepository.listExpiredAfter,
  });
  const webhooks = createWebhookService({ db, clock, allowPrivate: deps.webhooks?.allowPrivate ?? false });
  const matches = createMatchService({
    db,
    clock,
    queue,
    events,
    // Fallbacks are logged (warn) and counted by the app that observes the service (app.ts).
    embeddings: deps.embeddings ?? null,
    // "Don't match me" keeps a keyed digest of the address under the claim link key (issue 31).
    addressKey: deps.claimLinkKey,
  });
  // The one erasure routine every path uses (issue 30), and retention, requests and exports.
  const erasure = createErasure({
    events,
    matches,
    also: [
      (trx, kind, id) =>
        kind === 'application' ? pipelineRepository.eraseNotes(trx, id) : Promise.resolve(),
    ],
  });
  const privacy = createPrivacyService({
    db,
    clock,
    files,
    erasure,
    addressKey: deps.claimLinkKey,
    notesFor: async (on, ids) => {
      const notes = new Map<string, unknown[]>();
      for (const note of await pipelineRepository.notesOf(on, ids)) {
        const list = notes.get(note.application_id) ?? [];
        list.push({ text: note.text, author: note.author_email, createdAt: note.created_at.toISOString() });
        notes.set(note.application_id, list);
      }
      return notes;
    },
  });
  const cv = createCvService({
    db,
    clock,
    files,
    inspector,
    build: deps.build,
    mailer: candidateMail,
    queue,
    publicBaseUrl,
    stagedTtlSeconds: deps.stagedTtlSeconds,
    claimLinkKey: deps.claimLinkKey,
    events,
    matches,
    erasure,
  });
  const screening = createScreeningService({ db, clock, queue, mailer: candidateMail, events });
  const applications = createApplicationService({ db, clock, uploads, queue, events });
  const audit = createAuditService({ db, clock });
  const opsStats = createOpsStatsService({ db, clock });
  const consoleUsers = createConsoleUserService({ db, clock, mailer: deps.mailer, publicBaseUrl, audit });
  const accountSafety = createAccountSafetyService({
    db,
    clock,
    mailer: deps.mailer,
    publicBaseUrl,
    audit,
    sealKey: deps.claimLinkKey,
    startSession: consoleUsers.startSession,
  });
  const people = createPersonService({
    db,
    clock,
    uploads,
    files,
    inspector,
    build: deps.build,
    queue,
    matches,
  });
  const taskHandlers: TaskHandlers = {
    'build-cv': (p, task) => cv.buildCv(p.kind, p.id, { last: task.attempts >= task.max_attempts }),
    'send-claim-mail': (p) => cv.sendClaimMail(p.kind, p.id),
    'send-account-notice': (p) => cv.sendAccountNotice(p.candidateId),
    'send-screening-invite': (p) => screening.sendInvite(p.screeningId),
    'stand-on-account-cv': (p) => applications.standOnAccountCv(p.applicationId),
    'generate-matches': async (p) => {
      await matches.generate(p.accountId, p.jobId);
    },
    'refresh-matches': async (p) => {
      await matches.refresh(p.accountId);
    },
    'build-person-cv': (p, task) => people.buildCv(p.personId, { last: task.attempts >= task.max_attempts }),
  };

  return {
    accounts: createAccountService({ db, clock }),
    uploads,
    applications,
    pipeline: createPipelineService({ db, clock, events, audit, files }),
    hostedApply: createHostedApplyService({ clock, uploads, applications }),
    candidates: createCandidateService({
      db,
      clock,
      uploads,
      files,
      queue,
      matches,
      erasure,
      erasedOnRequest: privacy.erasedOnRequest,
    }),
    privacy,
    testData: createTestDataEraser({ db, clock, files, erasure }),
    people,
    keys: createKeyService({ db, clock }),
    idempotency,
    jobs: createJobService({ db, clock, publicBaseUrl, screenings: screening, events }),
    publicJobs: createPublicJobService({ db, clock, publicBaseUrl }),
    formTokens: createFormTokens({ db, clock }),
    clock,
    cvLimits,
    cv,
    screening,
    taskHandlers,
    matches,
    matchDecisions: createDismissals({ db, clock, queue, audit }),
    tasks: createTaskAdminService({ db, clock }),
    mail: { list: (to: string | null) => mailRepository.listOutbox(db, to, 500) },
    readiness: () => migrationsCurrent(handle),
    events,
    webhooks,
    webhookDispatcher(options) {
      const sender = createWebhookSender({
        allowPrivate: deps.webhooks?.allowPrivate ?? false,
        ...(deps.webhooks?.resolve ? { resolve: deps.webhooks.resolve } : {}),
      });
      const dispatcher = createWebhookDispatcher({ db, clock, sender, ...options });
      return {
        ...dispatcher,
        async stop() {
          await dispatcher.stop();
          sender.close();
        },
      };
    },
    audit,
    consoleUsers,
    opsStats,
    accountSafety,
    insights: createInsightService({ db, clock }),
    pageViews: createPageViewCounter({ db, clock }),
    async maintenance() {
      // Each sweep timed and counted for /metrics (sweep_* metrics), in this order.
      const sweep = opsStats.sweep;
      return {
        idempotencyRecords: await sweep('idempotency_records', () => idempotency.sweep()),
        uploads: await sweep('uploads', () => uploads.sweep()),
        stagedCvs: await sweep('staged_cvs', () => cv.expireStaged()),
        retentionErasedApplications: await sweep(
          'retention_applications',
          async () => (await privacy.sweepRetention(['application'])).applications,
        ),
        retentionErasedCandidates: await sweep(
          'retention_candidates',
          async () => (await privacy.sweepRetention(['candidate'])).candidates,
        ),
        // Edits of a managed role's words or cap, and roles newly managed, queue their generation.
        matchGenerations: await sweep('match_generations', () => matches.refresh(null)),
        // Generations that ranked lexically because the embedding provider failed (counted warning).
        embeddingFallbacks: matches.takeEmbeddingFallbacks(),
        finishedTasks: await sweep('finished_tasks', () =>
          taskRepository.deleteFinished(db, new Date(clock.now().getTime() - FINISHED_TASKS_KEPT_MS)),
        ),
        expiredJobEvents: await sweep('expired_job_events', () => events.sweepExpiredJobs()),
        oldEvents: await sweep('old_events', () => events.sweepOld()),
        finishedDeliveries: await sweep('finished_deliveries', () => webhooks.sweepFinished()),
        consoleSessions: await sweep('console_sessions', () => consoleUsers.sweepSessions()),
        consoleSafety: await sweep('console_safety', () => accountSafety.sweep()),
      };
    },
  };
}

/** DATA_DIR/`name`, holding a random token written once (mode 0600) by whichever start came first. */
function generatedOnce(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `${randomToken(32)}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return file;
}

/** The console token: from CONSOLE_TOKEN, else generated once and kept in DATA_DIR/console-token. */
export function resolveConsoleToken(config: Config): { token: string; source: string } {
  if (config.consoleToken !== null)
    return { token: config.consoleToken, source: 'the CONSOLE_TOKEN variable' };
  const file = generatedOnce(config.dataDir, 'console-token');
  return { token: fs.readFileSync(file, 'utf8').trim(), source: file };
}

/**
 * The claim links' HMAC key: CLAIM_LINK_KEY, else generated once into DATA_DIR/claim-link-key
 * (mode 0600). Outside the database on purpose: a copy of the database (the link hashes included)
 * cannot make a working link. Several instances share it through the variable or a shared DATA_DIR.
 */
export function resolveClaimLinkKey(config: Config): string {
  if (config.claimLinkKey !== null) return config.claimLinkKey;
  const file = generatedOnce(config.dataDir, 'claim-link-key');
  // A file copied in with looser permissions is narrowed to its owner.
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  const key = fs.readFileSync(file, 'utf8').trim();
  if (key.length < 32)
    throw new Error(`${file} holds no usable key (at least 32 characters); remove it to generate one.`);
  return key;
}
