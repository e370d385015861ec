import type { Clock } from '../lib/clock.ts';
import type { OutboxRow } from '../mail/mail-repository.ts';
import type { TaskHandlers } from '../tasks/worker.ts';
import type { AccountService } from './accounts/account-service.ts';
import type { AuditService } from './console-users/audit-service.ts';
import type { AccountSafetyService } from './console-users/security-service.ts';
import type { ConsoleUserService } from './console-users/user-service.ts';
import type { CvService } from './cv/cv-service.ts';
import type { EventLog } from './events/event-log.ts';
import type { DispatcherOptions, WebhookDispatcher } from './events/webhook-dispatcher.ts';
import type { WebhookService } from './events/webhook-service.ts';
import type { IdempotencyService } from './idempotency/idempotency-service.ts';
import type { InsightService } from './insights/insight-service.ts';
import type { PageViewCounter } from './insights/page-view-counter.ts';
import type { ApplicationService } from './intake/application-service.ts';
import type { CandidateService } from './intake/candidate-service.ts';
import type { createFormTokens } from './intake/form-token.ts';
import type { HostedApplyService } from './intake/hosted-apply.ts';
import type { PersonService } from './intake/person-service.ts';
import type { PipelineService } from './intake/pipeline-service.ts';
import type { UploadService } from './intake/upload-service.ts';
import type { JobService } from './jobs/job-service.ts';
import type { PublicJobService } from './jobs/public-job-service.ts';
import type { KeyService } from './keys/key-service.ts';
import type { Dismissals } from './matches/dismissals.ts';
import type { MatchService } from './matches/match-service.ts';
import type { OpsStatsService } from './ops/ops-stats-service.ts';
import type { TaskAdminService } from './ops/task-admin-service.ts';
import type { CvLimits } from './ports.ts';
import type { PrivacyService } from './privacy/privacy-service.ts';
import type { TestDataEraser } from './privacy/test-data.ts';
import type { ScreeningService } from './screening/screening-service.ts';

/** What one retention sweep did, each a count: records, files, rows removed or work queued. */
export interface MaintenanceReport {
  idempotencyRecords: number;
  uploads: number;
  stagedCvs: number;
  /** Applications and imports erased because their retention ran out (issue 30). */
  retentionErasedApplications: number;
  retentionErasedCandidates: number;
  matchGenerations: number;
  embeddingFallbacks: number;
  finishedTasks: number;
  expiredJobEvents: number;
  oldEvents: number;
  finishedDeliveries: number;
  consoleSessions: number;
  /** Expired reset links, half-signed sign-ins and secrets never shown (account safety). */
  consoleSafety: number;
}

/**
 * Every service of the domain, as the composition root (src/services.ts) builds them once. The
 * type lives here, beside the services, so that HTTP and the plugins name it without importing the
 * root: the root imports them, never the other way round.
 */
export interface Services {
  accounts: AccountService;
  uploads: UploadService;
  applications: ApplicationService;
  /** The recruiter's pipeline over applications (extensions.md §4). */
  pipeline: PipelineService;
  hostedApply: HostedApplyService;
  candidates: CandidateService;
  privacy: PrivacyService;
  /** Test mode's "Delete all test data" (extensions.md §8). */
  testData: TestDataEraser;
  people: PersonService;
  keys: KeyService;
  idempotency: IdempotencyService;
  jobs: JobService;
  publicJobs: PublicJobService;
  formTokens: ReturnType<typeof createFormTokens>;
  /** The services' clock, for what routes cache (the sitemap). */
  clock: Clock;
  cvLimits: CvLimits;
  cv: CvService;
  screening: ScreeningService;
  taskHandlers: TaskHandlers;
  matches: MatchService;
  /** A recruiter's decisions on matches: dismiss, restore (extensions.md §7). */
  matchDecisions: Dismissals;
  tasks: TaskAdminService;
  mail: { list(to: string | null): Promise<OutboxRow[]> };
  readiness(): Promise<boolean>;
  events: EventLog;
  webhooks: WebhookService;
  /** The webhook deliverer (started by worker processes); its own HTTP client and slots. */
  webhookDispatcher(
    options: Pick<DispatcherOptions, 'log' | 'concurrency' | 'perEndpoint' | 'pollMs'>,
  ): WebhookDispatcher;
  audit: AuditService;
  consoleUsers: ConsoleUserService;
  /** The queues' backlog and the sweeps' record, for /metrics. */
  opsStats: OpsStatsService;
  accountSafety: AccountSafetyService;
  /** Home's figures and the Jobs list's counts (extensions.md §4). */
  insights: InsightService;
  /** The hosted pages' view counts, batched in memory and flushed by a timer. */
  pageViews: PageViewCounter;
  /** Retention and housekeeping; safe to run on several workers at once. */
  maintenance(): Promise<MaintenanceReport>;
}
