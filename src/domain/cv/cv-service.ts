import { createHash, createHmac } from 'node:crypto';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { accountNoticeMail, claimMail } from '../../mail/templates.ts';
import type { TaskQueue } from '../../tasks/queue.ts';
import { type ConsentLocale, isConsentLocale } from '../consent/consent-texts.ts';
import { conflict, notFound } from '../errors.ts';
import type { EventRecorder } from '../events/event-log.ts';
import type { CvFileStore, CvInspector } from '../ports.ts';
import type { Erasure } from '../privacy/erasure.ts';
import { checkAndBuildCv, type VirtualCvBuilder } from './build-step.ts';
import { type CvSubject, cvRepository, type SubjectKind } from './cv-repository.ts';

/** Matching's side of a CV's life (issue 19): a profile when built, nothing once erased. */
export interface CvMatchPort {
  profileBuilt(
    trx: Db,
    subject: { kind: SubjectKind; id: string; accountId: string; email: string | null },
    document: unknown,
  ): Promise<void>;
  erase(trx: Db, kind: SubjectKind, id: string): Promise<void>;
  /** "Don't match me" (issue 31 item 6): recorded, and the person out of the account's pools. */
  optOut(trx: Db, accountId: string, email: string): Promise<void>;
  isOptedOut(on: Db, accountId: string, email: string): Promise<boolean>;
}

export type LinkState =
  | {
      kind: 'open';
      subject: CvSubject;
      locale: ConsentLocale;
      company: string;
      role: string | null;
      /** The role's page path (in English; the page swaps the language) while the role is live. */
      jobPath: string | null;
      /** Already claimed (or shared): the page shows it with the delete button only. */
      claimed: boolean;
      /** The person said "Don't match me" to this account: the page confirms it instead of offering it. */
      optedOut: boolean;
      cv: Record<string, unknown> | null;
    }
  | { kind: 'gone'; locale: ConsentLocale; why: 'used' | 'expired' }
  | { kind: 'unknown' };

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const localeOf = (value: string): ConsentLocale => (isConsentLocale(value) ? value : 'en');
const subjectRef = (kind: SubjectKind, id: string) => `${kind}:${id}`;

export function createCvService(deps: {
  db: Db;
  clock: Clock;
  files: CvFileStore;
  inspector: CvInspector;
  build: VirtualCvBuilder;
  mailer: Mailer;
  queue: TaskQueue;
  publicBaseUrl: string;
  stagedTtlSeconds: number;
  /** The claim links' HMAC key, from outside the database. */
  claimLinkKey: string;
  events: EventRecorder;
  matches?: CvMatchPort;
  erasure: Erasure;
}) {
  const { db, clock, files, mailer, queue, events } = deps;

  /** The CV's move as an event, in the move's transaction: ids and statuses only. */
  async function cvMoved(
    trx: Db,
    subject: CvSubject,
    cvStatus: 'staged' | 'claimed' | 'deleted' | 'failed',
    withdrawn = false,
  ): Promise<void> {
    if (subject.kind === 'candidate') {
      await events.record(trx, subject.accountId, {
        type: 'candidate.cv_status_changed',
        data: { candidateId: subject.id, status: subject.outcome ?? 'queued', cvStatus },
      });
      return;
    }
    const data = {
      applicationId: subject.id,
      jobId: subject.jobId ?? '',
      status: withdrawn ? ('withdrawn' as const) : ('received' as const),
      cvStatus,
    };
    await events.record(trx, subject.accountId, { type: 'application.cv_status_changed', data });
    if (withdrawn) await events.record(trx, subject.accountId, { type: 'application.withdrawn', data });
  }
  const ttlMs = deps.stagedTtlSeconds * 1000;

  /**
   * Tokens are derived, not stored (only their hash is): a retried mail task rebuilds the same link
   * it sent before. The key lives outside the database (CLAIM_LINK_KEY or DATA_DIR/claim-link-key),
   * so a copy of the database alone cannot make a link.
   */
  async function tokenFor(kind: SubjectKind, id: string): Promise<string> {
    return createHmac('sha256', deps.claimLinkKey).update(`claim:${kind}:${id}`).digest('base64url');
  }

  async function linkFor(subject: CvSubject, expiresAt: Date): Promise<string> {
    const token = await tokenFor(subject.kind, subject.id);
    await cvRepository.ensureLink(db, {
      token_hash: hashToken(token),
      subject_kind: subject.kind,
      subject_id: subject.id,
      locale: subject.locale,
      expires_at: expiresAt,
      created_at: clock.now(),
    });
    return `${deps.publicBaseUrl}/cv/${token}`;
  }

  /** The PDF could not be read or built: processing → failed, and the file goes. */
  async function unreadable(subject: CvSubject): Promise<void> {
    const { kind, id } = subject;
    const failed = await db.transaction().execute(async (trx) => {
      if (!(await cvRepository.markUnreadable(trx, kind, id, clock.now()))) return false;
      await cvMoved(trx, subject, 'failed', kind === 'application');
      return true;
    });
    if (failed && subject.blobKey) await files.delete(subject.blobKey);
  }

  /** The virtual CV is built: store it, processing → staged, profile it for matching, queue the claim mail. */
  async function stage(subject: CvSubject, document: unknown): Promise<void> {
    const { kind, id } = subject;
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      await cvRepository.insertVirtualCv(trx, {
        id: newId('vcv', now),
        account_id: subject.accountId,
        subject_kind: kind,
        subject_id: id,
        document,
        created_at: now,
      });
      if (!(await cvRepository.moveStatus(trx, kind, id, 'processing', 'staged', now, { staged_at: now })))
        return;
      await cvMoved(trx, subject, 'staged');
      await deps.matches?.profileBuilt(
        trx,
        { kind, id, accountId: subject.accountId, email: subject.email ?? null },
        document,
      );
      if (subject.sendClaimEmail) {
        await queue.enqueue(trx, 'send-claim-mail', { kind, id }, { key: `send-claim-mail:${kind}:${id}` });
      }
    });
  }

  /** Erases the file, the virtual CV, the personal fields and the mail kept about the subject. */
  async function erase(subject: CvSubject, from: string[]): Promise<boolean> {
    const { kind, id } = subject;
    // The one erasure routine (src/domain/privacy/erasure.ts): the candidate's delete and the
    // staged CV's expiry erase what retention and an erasure request erase.
    const erased = await db
      .transaction()
      .execute((trx) => deps.erasure.eraseIn(trx, kind, id, { at: clock.now(), from, keepClaimedCv: false }));
    for (const key of erased?.files ?? []) await files.delete(key);
    return erased !== null;
  }

  return {
    /** Task: processing → staged (virtual CV built, claim mail queued), or → failed when unreadable. */
    async buildCv(kind: SubjectKind, id: string, attempt: { last: boolean } = { last: true }): Promise<void> {
      const subject = await cvRepository.subject(db, kind, id);
      if (!subject || subject.cvStatus !== 'processing') return;
      const built = await checkAndBuildCv(deps, {
        blobKey: subject.blobKey,
        share: { lane: 'task', key: subject.accountId },
        prior: {
          ...(subject.name ? { name: subject.name } : {}),
          ...(subject.email ? { email: subject.email } : {}),
          locale: localeOf(subject.locale),
        },
        attempt,
      });
      if (built === null) return unreadable(subject);
      await stage(subject, built.document);
    },

    /** Task: the one claim email, keyed so a retry never sends twice. */
    async sendClaimMail(kind: SubjectKind, id: string): Promise<void> {
      const subject = await cvRepository.subject(db, kind, id);
      if (!subject || subject.cvStatus !== 'staged' || !subject.email || !subject.name) return;
      const expiresAt = new Date((subject.stagedAt ?? clock.now()).getTime() + ttlMs);
      const link = await linkFor(subject, expiresAt);
      const context = await cvRepository.context(db, subject.accountId, subject.jobId, clock.now());
      const locale = localeOf(subject.locale);
      const mail = claimMail({
        locale,
        name: subject.name,
        company: context.company,
        role: context.role,
        link,
        expiresAt,
      });
      await mailer.send({
        key: `claim:${kind}:${id}`,
        subjectRef: subjectRef(kind, id),
        to: subject.email,
        locale,
        livemode: context.livemode,
        ...mail,
      });
    },

    /** Task: a person with an account is told an employer holds their details, whatever the import asked. */
    async sendAccountNotice(candidateId: string): Promise<void> {
      const subject = await cvRepository.subject(db, 'candidate', candidateId);
      if (
        !subject ||
        subject.outcome !== 'existing_account' ||
        subject.cvStatus !== 'none' ||
        !subject.email ||
        !subject.name
      )
        return;
      const expiresAt = new Date(subject.createdAt.getTime() + ttlMs);
      const link = await linkFor(subject, expiresAt);
      const context = await cvRepository.context(db, subject.accountId, null, clock.now());
      const locale = localeOf(subject.locale);
      const mail = accountNoticeMail({
        locale,
        name: subject.name,
        company: context.company,
        role: null,
        link,
        expiresAt,
      });
      await mailer.send({
        key: `notice:candidate:${candidateId}`,
        subjectRef: subjectRef('candidate', candidateId),
        to: subject.email,
        locale,
        livemode: context.livemode,
        ...mail,
      });
    },

    /** What the link shows: never anything of another person, and nothing once used or expired. */
    async openLink(token: string): Promise<LinkState> {
      if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return { kind: 'unknown' };
      const link = await cvRepository.link(db, hashToken(token));
      if (!link) return { kind: 'unknown' };
      const locale = localeOf(link.locale);
      if (link.used_at !== null) return { kind: 'gone', locale, why: 'used' };
      if (link.expires_at.getTime() <= clock.now().getTime()) return { kind: 'gone', locale, why: 'expired' };
      const subject = await cvRepository.subject(db, link.subject_kind, link.subject_id);
      // The link keeps working for its lifetime: before the claim, and after it (to see the claimed
      // CV again or delete it). Only a delete uses it up.
      const actionable =
        subject &&
        (subject.cvStatus === 'staged' ||
          subject.cvStatus === 'claimed' ||
          (subject.outcome === 'existing_account' && subject.cvStatus === 'none'));
      if (!actionable) return { kind: 'gone', locale, why: 'used' };
      const context = await cvRepository.context(db, subject.accountId, subject.jobId, clock.now());
      const cv = (await cvRepository.virtualCv(db, subject.kind, subject.id)) ?? null;
      const optedOut =
        subject.email !== null &&
        ((await deps.matches?.isOptedOut(db, subject.accountId, subject.email)) ?? false);
      return {
        kind: 'open',
        subject,
        locale,
        ...context,
        claimed: subject.cvStatus === 'claimed',
        optedOut,
        cv,
      };
    },

    /** The candidate claims: staged → claimed (an account holder shares their own CV: none → claimed). */
    async claim(token: string): Promise<LinkState> {
      const state = await this.openLink(token);
      if (state.kind !== 'open' || state.claimed) return state;
      const { subject } = state;
      const now = clock.now();
      const moved = await db.transaction().execute(async (trx) => {
        const done = await cvRepository.moveStatus(
          trx,
          subject.kind,
          subject.id,
          subject.cvStatus,
          'claimed',
          now,
          {
            claimed_at: now,
          },
        );
        if (done) await cvMoved(trx, subject, 'claimed');
        return done;
      });
      // A racing claim or delete won: answer what the link shows now.
      return moved ? { ...state, claimed: true } : this.openLink(token);
    },

    /**
     * "Don't match me": the person leaves every pool of the account and is never matched in it
     * again (recorded under a keyed digest of the address, so a re-import is recognised). The link
     * stays usable: the person can still claim or delete.
     */
    async optOut(token: string): Promise<LinkState> {
      const state = await this.openLink(token);
      if (state.kind !== 'open' || state.optedOut || !state.subject.email || !deps.matches) return state;
      const { accountId, email } = state.subject;
      const matches = deps.matches;
      await db.transaction().execute((trx) => matches.optOut(trx, accountId, email));
      return { ...state, optedOut: true };
    },

    /** The candidate deletes: the file, the virtual CV and their details are erased. */
    async delete(token: string): Promise<LinkState> {
      const state = await this.openLink(token);
      if (state.kind !== 'open') return state;
      if (!(await cvRepository.useLink(db, hashToken(token), clock.now()))) {
        return { kind: 'gone', locale: state.locale, why: 'used' };
      }
      await erase(state.subject, [state.subject.cvStatus]);
      return state;
    },

    /** The virtual CV of one of the account's applications or imports, as the recruiter reads it. */
    async virtualCvFor(
      accountId: string,
      kind: SubjectKind,
      id: string,
    ): Promise<Record<string, unknown> | null> {
      const subject = await cvRepository.subject(db, kind, id);
      if (!subject || subject.accountId !== accountId) return null;
      return (await cvRepository.virtualCv(db, kind, id)) ?? null;
    },

    /**
     * Test mode (extensions.md §8): an application's CV moved now along api.md's transitions, by
     * the path the real change takes (the build, the unreadable file, the claim, the expiry), so
     * the same events follow. staged and failed from processing; claimed and deleted from staged.
     */
    async moveForTest(accountId: string, applicationId: string, to: TestCvMove): Promise<void> {
      const subject = await cvRepository.subject(db, 'application', applicationId);
      if (!subject || subject.accountId !== accountId) throw notFound('Application');
      const from = TEST_CV_MOVES[to];
      if (subject.cvStatus !== from)
        throw conflict(`A CV moves to ${to} only from ${from}; this one is ${subject.cvStatus}.`);
      if (to === 'staged') return this.buildCv('application', applicationId);
      if (to === 'failed') return unreadable(subject);
      if (to === 'deleted') {
        await erase(subject, ['staged']);
        return;
      }
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        if (
          await cvRepository.moveStatus(trx, 'application', applicationId, 'staged', 'claimed', now, {
            claimed_at: now,
          })
        )
          await cvMoved(trx, subject, 'claimed');
      });
    },

    /** Retention: staged CVs not claimed within their lifetime are deleted. */
    async expireStaged(): Promise<number> {
      const due = await cvRepository.expiredStaged(db, new Date(clock.now().getTime() - ttlMs), 200);
      let erased = 0;
      for (const { kind, id } of due) {
        const subject = await cvRepository.subject(db, kind, id);
        if (subject && (await erase(subject, ['staged']))) erased++;
      }
      return erased;
    },
  };
}

export type CvService = ReturnType<typeof createCvService>;

/** The test helper's CV moves and the status each starts from (api.md, Application cvStatus). */
const TEST_CV_MOVES = {
  staged: 'processing',
  failed: 'processing',
  claimed: 'staged',
  deleted: 'staged',
} as const;
export type TestCvMove = keyof typeof TEST_CV_MOVES;
export const TEST_CV_MOVE_NAMES = Object.keys(TEST_CV_MOVES) as TestCvMove[];
