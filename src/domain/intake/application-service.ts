import type { ApplicationCreated, ApplicationStatus, ApplicationWrite } from '../../contract/intake.ts';
import type { Question } from '../../contract/questions.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { emailKey, isEmailAddress } from '../../lib/email.ts';
import { newId } from '../../lib/ids.ts';
import type { TaskQueue } from '../../tasks/queue.ts';
import { accountRepository } from '../accounts/account-repository.ts';
import { type VerifiedConsent, verifyReceipt } from '../consent/receipt.ts';
import {
  AppError,
  answersInvalid,
  attestationRequired,
  badRequest,
  dailyCapReached,
  jobNotOpen,
  notFound,
  rateLimited,
  uploadInvalid,
} from '../errors.ts';
import type { EventRecorder } from '../events/event-log.ts';
import { type JobRow, jobRepository } from '../jobs/job-repository.ts';
import { statusAt } from '../jobs/job-view.ts';
import type { Seal } from '../seal.ts';
import { type CheckedAnswers, checkAnswers } from './answer-check.ts';
import { type ApplicationRow, applicationRepository } from './application-repository.ts';
import { candidateRepository } from './candidate-repository.ts';
import { utcDay } from './day-window.ts';
import { type DemographicCounts, demographicCounts } from './demographic-counts.ts';
import { demographicRepository } from './demographic-repository.ts';
import type { UploadChannel, UploadService } from './upload-service.ts';

/** Where an application came from: the API, or the hosted apply page reached from the integrator's site or from the hosted job page. */
export type ApplicationSource = 'api' | 'integrator_site' | 'job_page';
const HOSTED_SOURCES: readonly ApplicationSource[] = ['integrator_site', 'job_page'];

function duplicateAnswer(row: ApplicationRow): ApplicationCreated {
  return {
    applicationId: row.id,
    candidateId: row.id,
    status: row.status,
    cvStatus: row.cv_status,
    duplicate: true,
  };
}

/** What the accepting transaction works from: the request, checked, and the upload to spend. */
interface Accepting {
  accountId: string;
  jobId: string;
  /** The applicant's address as compared (emailKey). */
  key: string;
  input: ApplicationWrite;
  consent: VerifiedConsent;
  source: ApplicationSource;
  uploadId: string;
  hostedMeta: { socketAddress: string } | undefined;
  seal: Seal<ApplicationCreated> | undefined;
  answers: CheckedAnswers;
}

/** The question a file answer's upload answered (for a refusal when a race spent it). */
function fileQuestionOf(a: Accepting, uploadId: string): string {
  const item = a.input.answers?.find(
    (x) => 'questionId' in x && (x.answer as { uploadId?: unknown } | null)?.uploadId === uploadId,
  );
  return item && 'questionId' in item ? item.questionId : 'unknown';
}

type NewApplicationRow = Parameters<typeof applicationRepository.insert>[1];

type Outcome = { answer: ApplicationCreated; discardFile: boolean } | { duplicateOf: ApplicationRow };

/** The new application's row: received, its CV processing, the consent as verified. */
function applicationRow(id: string, a: Accepting, blobKey: string | null, at: Date): NewApplicationRow {
  const { input, consent } = a;
  return {
    id,
    account_id: a.accountId,
    job_id: a.jobId,
    email_key: a.key,
    name: input.name,
    email: input.email.trim(),
    phone: input.phone ?? null,
    location: input.location ?? null,
    cover_note: input.coverNote ?? null,
    answers: input.answers ? JSON.stringify(a.answers.stored) : null,
    consent_receipt: JSON.stringify(input.consent),
    consent_text_id: consent.textId,
    consent_version: consent.version,
    consent_locale: consent.locale,
    consent_text: consent.text,
    consent_socket_address: a.hostedMeta?.socketAddress ?? null,
    lawful_basis: JSON.stringify(input.lawfulBasis),
    source: a.source,
    source_detail: input.source ? JSON.stringify(input.source) : null,
    source_channel: input.source?.channel ?? a.source,
    blob_key: blobKey,
    status: 'received',
    cv_status: 'processing',
    reason: null,
    claimed_at: null,
    created_at: at,
    updated_at: at,
  };
}

export function createApplicationService(deps: {
  db: Db;
  clock: Clock;
  uploads: UploadService;
  queue: TaskQueue;
  events: EventRecorder;
}) {
  const { db, clock, uploads, queue, events } = deps;

  /** (1) the account's job, and published. */
  async function openJob(trx: Db, accountId: string, jobId: string, now: Date) {
    const job = await jobRepository.find(trx, accountId, jobId);
    if (!job) throw notFound('Job');
    const status = statusAt(job, now);
    if (status !== 'published') {
      throw jobNotOpen(status);
    }
    return job;
  }

  /**
   * The answers check (§5), after (3) and before (4): reads only. A file answer's upload must be
   * this channel's, live, sent and a PDF, like the CV's before its own checks.
   */
  async function checkAnswersOf(
    accountId: string,
    job: JobRow,
    input: ApplicationWrite,
    channel: UploadChannel,
  ): Promise<CheckedAnswers> {
    const questions = ((job.content as Record<string, unknown>).questions ?? []) as Question[];
    return checkAnswers(questions, input.answers, input.cv.uploadId, async (uploadId) => {
      try {
        const upload = await uploads.usable(accountId, uploadId, channel);
        return { usable: await uploads.looksLikePdf(upload), name: upload.file_name };
      } catch (error) {
        if (error instanceof AppError && error.code === 'upload_invalid')
          return { usable: false, name: null };
        throw error;
      }
    });
  }

  /**
   * (4) the account's daily budget, then the job's own daily allowance. The hosted apply page has
   * budgets of its own (anonymous submissions never spend what the integrator's API calls need),
   * and the API's count only the API's applications.
   */
  async function budgets(
    trx: Db,
    accountId: string,
    jobId: string,
    now: Date,
    source: ApplicationSource,
  ): Promise<void> {
    const account = await accountRepository.find(trx, accountId);
    if (!account) throw notFound('Account');
    const day = utcDay(now);
    const hosted = source !== 'api';
    const sources: readonly ApplicationSource[] = hosted ? HOSTED_SOURCES : ['api'];
    const perAccount = hosted ? account.hosted_daily_applications : account.daily_applications;
    const perJob = hosted ? account.hosted_job_daily_applications : account.job_daily_applications;
    if ((await applicationRepository.countSince(trx, { accountId }, day.start, sources)) >= perAccount) {
      throw dailyCapReached(
        hosted ? 'applications through the hosted page' : 'applications',
        perAccount,
        day,
      );
    }
    if ((await applicationRepository.countSince(trx, { jobId }, day.start, sources)) >= perJob) {
      throw rateLimited(
        `This job takes at most ${perJob} applications a day${hosted ? ' through the hosted page' : ''}; retry after midnight UTC.`,
        day.secondsLeft,
      );
    }
  }

  /**
   * The accepting transaction, under the account's row lock: the job still open, no application
   * from the address meanwhile, the budgets again, the upload spent; then the row, its follow-up
   * task (build the CV, or stand on the person's own) and the event.
   */
  async function acceptIn(trx: Db, a: Accepting): Promise<Outcome> {
    const { accountId, jobId, key, source } = a;
    await accountRepository.lock(trx, accountId);
    const at = clock.now();
    const job = await openJob(trx, accountId, jobId, at);
    const raced = await applicationRepository.findByAddress(trx, jobId, key);
    if (raced) return { duplicateOf: raced };
    await budgets(trx, accountId, jobId, at, source);
    if (!(await uploads.spend(trx, accountId, a.uploadId))) {
      throw uploadInvalid('another request used it meanwhile');
    }
    // The file answers' uploads are spent with the CV's; their files stay, kept with the CV's.
    for (const uploadId of a.answers.files)
      if (!(await uploads.spend(trx, accountId, uploadId)))
        throw answersInvalid([{ questionId: fileQuestionOf(a, uploadId), problem: 'upload_invalid' }]);
    // Apart, with nothing that leads back to this application (migration 133).
    await demographicRepository.insert(trx, accountId, jobId, a.answers.demographic);
    const id = newId('app', at);
    // A person who holds an account applies on their own CV: nothing is built, nobody is emailed.
    const holdsAccount = (await candidateRepository.findPerson(trx, key)) !== undefined;
    await applicationRepository.insert(trx, applicationRow(id, a, holdsAccount ? null : a.uploadId, at));
    if (holdsAccount) {
      // The application stands on the person's own CV: nothing is built; a moment later the
      // status reads `claimed` (the 201 keeps the spec's `processing`).
      await queue.enqueue(
        trx,
        'stand-on-account-cv',
        { applicationId: id },
        { key: `stand-on-account-cv:${id}` },
      );
    } else {
      await queue.enqueue(
        trx,
        'build-cv',
        { kind: 'application', id },
        { key: `build-cv:application:${id}` },
      );
    }
    await events.record(trx, accountId, {
      type: 'application.received',
      data: { applicationId: id, jobId, status: 'received', cvStatus: 'processing' },
    });
    const answer: ApplicationCreated = {
      applicationId: id,
      candidateId: id,
      status: 'received',
      cvStatus: 'processing',
      // openJob let only a published job through.
      job: { id: job.id, status: 'published' },
    };
    await a.seal?.(trx, answer);
    return { answer, discardFile: holdsAccount };
  }

  return {
    /**
     * The spec's checks in order, each refusing before anything is spent. The PDF check runs
     * outside any transaction (it takes a child process seconds); the accepting transaction then
     * re-checks what may have moved meanwhile, under the account's row lock so that concurrent
     * applications cannot overspend the budgets.
     */
    async apply(
      accountId: string,
      jobId: string,
      input: ApplicationWrite,
      source: ApplicationSource,
      seal?: Seal<ApplicationCreated>,
      hostedMeta?: { socketAddress: string },
    ): Promise<ApplicationCreated> {
      // The API's validator ran the same check; the hosted page's values come here as typed.
      if (!isEmailAddress(input.email.trim()))
        throw badRequest('email must be one bare address, such as name@example.com.', { field: 'email' });
      const now = clock.now();
      const job = await openJob(db, accountId, jobId, now);
      const consent = verifyReceipt(input.consent, now);
      if (input.lawfulBasis.attested !== true) throw attestationRequired();
      const hosted = source !== 'api';
      const answers = await checkAnswersOf(accountId, job, input, hosted ? 'hosted' : 'api');
      const key = emailKey(input.email);
      // The hosted page is anonymous: it checks the budgets and the file before it looks for an
      // earlier application, and answers a duplicate as a new one, so that nobody learns from it
      // whether a named person applied. The API (the employer's own key) answers the duplicate first.
      if (!hosted) {
        const existing = await applicationRepository.findByAddress(db, jobId, key);
        if (existing) return this.answerDuplicate(accountId, existing, input.cv.uploadId, 'api', seal);
      }
      await budgets(db, accountId, jobId, now, source);
      const upload = await uploads.usable(accountId, input.cv.uploadId, hosted ? 'hosted' : 'api');
      // The hosted page's anonymous traffic has its own share of the checker, per client address;
      // the API's is per account. Only the verdict is needed here: the build task reads the text.
      await uploads.inspect(
        upload,
        consent.locale,
        source === 'api' ? { lane: 'api', key: accountId } : { lane: 'page', key: String(input.consent.ip) },
        'none',
      );

      const result = await db.transaction().execute((trx) =>
        acceptIn(trx, {
          accountId,
          jobId,
          key,
          input,
          consent,
          source,
          uploadId: upload.id,
          hostedMeta,
          seal,
          answers,
        }),
      );
      if ('duplicateOf' in result)
        return this.answerDuplicate(
          accountId,
          result.duplicateOf,
          upload.id,
          hosted ? 'hosted' : 'api',
          seal,
        );
      if (result.discardFile) await uploads.eraseFile(upload.id);
      return result.answer;
    },

    /**
     * The dry run (§5, POST …/applications/validate): the shape was checked by the route; then
     * (1)–(3), the answers and (5), reading only. Budgets (4) and the PDF check (6) are not run,
     * and nothing is written, spent, sent or counted.
     */
    async validate(accountId: string, jobId: string, input: ApplicationWrite): Promise<{ valid: true }> {
      if (!isEmailAddress(input.email.trim()))
        throw badRequest('email must be one bare address, such as name@example.com.', { field: 'email' });
      const now = clock.now();
      const job = await openJob(db, accountId, jobId, now);
      verifyReceipt(input.consent, now);
      if (input.lawfulBasis.attested !== true) throw attestationRequired();
      await checkAnswersOf(accountId, job, input, 'api');
      // The real call answers an address that already applied 200 (duplicate) before (4) and (5).
      if (await applicationRepository.findByAddress(db, jobId, emailKey(input.email))) return { valid: true };
      await uploads.usable(accountId, input.cv.uploadId, 'api');
      return { valid: true };
    },

    /**
     * The demographic answers of a job, as counts only (§5): per question and value, every
     * listed option and `prefer_not_to_say`; a count under 5 (0 included) is not given.
     */
    async demographicCounts(accountId: string, jobId: string): Promise<DemographicCounts> {
      const job = await jobRepository.find(db, accountId, jobId);
      if (!job) throw notFound('Job');
      const questions = ((job.content as Record<string, unknown>).questions ?? []) as Question[];
      return demographicCounts(questions, await demographicRepository.counts(db, accountId, jobId));
    },

    /** The same address on the same job: the existing application; the new file is not kept. */
    async answerDuplicate(
      accountId: string,
      existing: ApplicationRow,
      uploadId: string,
      channel: UploadChannel,
      seal?: Seal<ApplicationCreated>,
    ): Promise<ApplicationCreated> {
      const answer = duplicateAnswer(existing);
      const upload = await uploads.usable(accountId, uploadId, channel).catch(() => null);
      if (upload) await uploads.discard(accountId, upload.id);
      if (seal) await db.transaction().execute((trx) => seal(trx, answer));
      return answer;
    },

    /** Task: an application of a person who holds an account is `claimed` (processing → claimed). */
    async standOnAccountCv(applicationId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const moved = await applicationRepository.markStandingOnAccount(trx, applicationId, clock.now());
        if (!moved) return;
        await events.record(trx, moved.account_id, {
          type: 'application.cv_status_changed',
          data: { applicationId: moved.id, jobId: moved.job_id, status: 'received', cvStatus: 'claimed' },
        });
      });
    },

    async status(accountId: string, applicationId: string): Promise<ApplicationStatus> {
      const row = await applicationRepository.find(db, accountId, applicationId);
      if (!row) throw notFound('Application');
      return {
        applicationId: row.id,
        jobId: row.job_id,
        candidateId: row.id,
        status: row.status,
        cvStatus: row.cv_status,
        createdAt: row.created_at.toISOString(),
        ...(row.claimed_at ? { claimedAt: row.claimed_at.toISOString() } : {}),
        ...(row.reason ? { reason: row.reason } : {}),
        ...(row.erased_at ? { erasedAt: row.erased_at.toISOString() } : {}),
      };
    },
  };
}

export type ApplicationService = ReturnType<typeof createApplicationService>;
