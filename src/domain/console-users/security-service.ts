import { createHash } from 'node:crypto';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../contract/console-users.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { cursorSealer } from '../../lib/cursor.ts';
import { emailKey } from '../../lib/email.ts';
import { randomToken } from '../../lib/ids.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { passwordResetMail } from '../../mail/templates.ts';
import { accountRepository } from '../accounts/account-repository.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import type { Actor, AuditService } from './audit-service.ts';
import { hashPassword } from './passwords.ts';
import { securityRepository } from './security-repository.ts';
import type { PendingStep, ResetState, SecondStep, TotpSetup } from './security-types.ts';
import { base32Of, codeStep, newTotpSecret, otpauthUri, totpSealer } from './totp.ts';
import { userRepository } from './user-repository.ts';
import type { ConsoleSession } from './user-service.ts';

export type { PendingStep, ResetState, SecondStep, TotpSetup } from './security-types.ts';

/** A reset link works once, for an hour (extensions.md §4). */
export const RESET_TTL_MS = 3_600_000;
/** Five wrong codes at the second step of sign-in, and the password is asked again. */
export const PENDING_MAX_FAILURES = 5;
/** A minted secret waits this long for the page that shows it once. */
export const SHOWN_ONCE_TTL_MS = 10 * 60_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The console's account safety (extensions.md §4): password resets by mail, the TOTP second factor
 * (per user; an account may require it), the half-signed state between password and code, and
 * secrets held for the one page that shows them.
 */
export function createAccountSafetyService(deps: {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  publicBaseUrl: string;
  audit: AuditService;
  /** The server secret the TOTP secrets and the held secrets are sealed under. */
  sealKey: string;
  /** Opens a full session for a user (the user service's). */
  startSession: (trx: Db, userId: string, at: Date) => Promise<{ id: string; csrf: string }>;
  log?: { warn(message: string): void };
}) {
  const { db, clock, mailer, audit } = deps;
  const totpSeal = totpSealer(deps.sealKey);
  const heldSeal = cursorSealer(deps.sealKey, 'console secret shown once');

  async function companyOf(trx: Db, accountId: string): Promise<string> {
    const account = await accountRepository.find(trx, accountId);
    return account?.company_name ?? account?.name ?? 'your company';
  }

  /** A code checked against a secret and taken as used: its step is past the last one used. */
  async function useCode(
    trx: Db,
    userId: string,
    secret: Buffer | null,
    code: string,
  ): Promise<number | null> {
    if (secret === null) return null;
    const step = codeStep(secret, code, clock.now());
    if (step === null) return null;
    return (await securityRepository.useStep(trx, userId, step)) ? step : null;
  }

  async function pendingRow(id: string) {
    if (!TOKEN.test(id)) return null;
    const row = await securityRepository.pending(db, sha256(id));
    if (!row || row.expires_at.getTime() <= clock.now().getTime()) return null;
    return row;
  }

  async function wrongAtPending(idHash: string): Promise<SecondStep> {
    const failures = await securityRepository.countPendingFailure(db, idHash);
    if (failures >= PENDING_MAX_FAILURES) {
      await securityRepository.deletePending(db, idHash);
      return { kind: 'gone' };
    }
    return { kind: 'wrong', left: PENDING_MAX_FAILURES - failures };
  }

  function setupOf(secret: Buffer, email: string, company: string): TotpSetup {
    return { base32: base32Of(secret), uri: otpauthUri(secret, email, company) };
  }

  return {
    /**
     * Mails a reset link to each user of the address that has a password (an address may be a
     * user of several accounts: each gets its own link, naming its company). Nothing tells the
     * caller whether any was sent.
     */
    async requestReset(rawEmail: string): Promise<void> {
      const email = emailKey(rawEmail.slice(0, 254));
      const users = await userRepository.signableByEmail(db, email);
      for (const user of users) {
        const token = randomToken(32);
        const tokenHash = sha256(token);
        const now = clock.now();
        await securityRepository.insertReset(db, {
          token_hash: tokenHash,
          user_id: user.id,
          expires_at: new Date(now.getTime() + RESET_TTL_MS),
          created_at: now,
        });
        const link = `${deps.publicBaseUrl}/console/reset/${token}`;
        try {
          await mailer.send({
            key: `console-reset:${tokenHash}`,
            subjectRef: `console-user:${user.id}`,
            to: user.email,
            locale: 'en',
            ...passwordResetMail(link, await companyOf(db, user.account_id)),
          });
        } catch {
          deps.log?.warn('a password reset mail could not be sent');
        }
      }
    },

    async openReset(token: string): Promise<ResetState> {
      if (!TOKEN.test(token)) return { kind: 'unknown' };
      const reset = await securityRepository.reset(db, sha256(token));
      if (!reset) return { kind: 'unknown' };
      if (reset.used_at !== null || reset.expires_at.getTime() <= clock.now().getTime())
        return { kind: 'gone' };
      return { kind: 'open', email: reset.email };
    },

    /**
     * Sets the new password and uses the link up; every session of the user ends (and every other
     * open link of theirs). False when the link was used or expired meanwhile.
     */
    async completeReset(token: string, password: string): Promise<boolean> {
      if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
        throw badRequest(`The password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long.`, {
          field: 'password',
        });
      }
      if (!TOKEN.test(token)) return false;
      const hash = await hashPassword(password);
      const tokenHash = sha256(token);
      return db.transaction().execute(async (trx) => {
        const reset = await securityRepository.reset(trx, tokenHash);
        const now = clock.now();
        if (!reset || !(await securityRepository.useReset(trx, tokenHash, now))) return false;
        await userRepository.update(trx, reset.user_id, { password_hash: hash, updated_at: now });
        await securityRepository.closeResetsOf(trx, reset.user_id, now);
        await userRepository.deleteSessionsOf(trx, reset.user_id);
        await audit.record(
          trx,
          reset.account_id,
          { kind: 'user', userId: reset.user_id, email: reset.email },
          { action: 'user.password_reset', target: reset.user_id },
        );
        return true;
      });
    },

    async pending(id: string): Promise<{ step: PendingStep; email: string } | null> {
      const row = await pendingRow(id);
      return row && { step: row.step, email: row.email };
    },

    async dropPending(id: string): Promise<void> {
      if (TOKEN.test(id)) await securityRepository.deletePending(db, sha256(id));
    },

    /** The second step: a code of the user's authenticator, good once. */
    async pendingCode(id: string, code: string): Promise<SecondStep> {
      const row = await pendingRow(id);
      if (row?.step !== 'code') return { kind: 'gone' };
      const secret = totpSeal.open(row.user_id, row.totp_secret);
      const session = await db.transaction().execute(async (trx) => {
        if ((await useCode(trx, row.user_id, secret, code)) === null) return null;
        await securityRepository.deletePending(trx, row.id_hash);
        return deps.startSession(trx, row.user_id, clock.now());
      });
      return session === null ? wrongAtPending(row.id_hash) : { kind: 'session', ...session };
    },

    /** Enrolment forced at sign-in: the secret to set up (made once, kept until confirmed). */
    async pendingSetup(id: string): Promise<TotpSetup | null> {
      const row = await pendingRow(id);
      if (row?.step !== 'enrol') return null;
      let secret = totpSeal.open(row.user_id, row.totp_pending_secret);
      if (secret === null) {
        secret = newTotpSecret();
        await securityRepository.setTotp(db, row.user_id, {
          totp_pending_secret: totpSeal.seal(row.user_id, secret),
          updated_at: clock.now(),
        });
      }
      return setupOf(secret, row.email, await companyOf(db, row.account_id));
    },

    /** Enrolment forced at sign-in: the first code turns TOTP on and opens the session. */
    async pendingConfirm(id: string, code: string): Promise<SecondStep> {
      const row = await pendingRow(id);
      if (row?.step !== 'enrol') return { kind: 'gone' };
      const secret = totpSeal.open(row.user_id, row.totp_pending_secret);
      const session = await db.transaction().execute(async (trx) => {
        const step = await useCode(trx, row.user_id, secret, code);
        if (step === null || secret === null) return null;
        await enable(trx, row.user_id, row.account_id, row.email, secret);
        await securityRepository.deletePending(trx, row.id_hash);
        return deps.startSession(trx, row.user_id, clock.now());
      });
      return session === null ? wrongAtPending(row.id_hash) : { kind: 'session', ...session };
    },

    /** The signed-in user's second factor: on or off, the setup in progress, whether the account requires it. */
    async totpStatus(session: ConsoleSession): Promise<{
      enabledAt: string | null;
      setup: TotpSetup | null;
      required: boolean;
    }> {
      const user = await securityRepository.userById(db, session.userId);
      if (!user) throw notFound('User');
      const pending = user.totp_secret === null ? totpSeal.open(user.id, user.totp_pending_secret) : null;
      return {
        enabledAt: user.totp_secret === null ? null : (user.totp_enabled_at?.toISOString() ?? null),
        setup: pending && setupOf(pending, user.email, await companyOf(db, user.account_id)),
        required: await securityRepository.requiresTotp(db, user.account_id),
      };
    },

    /** Starts (or starts again) setting up TOTP: a new secret, shown until a first code confirms it. */
    async startSetup(session: ConsoleSession): Promise<void> {
      const user = await securityRepository.userById(db, session.userId);
      if (!user) throw notFound('User');
      if (user.totp_secret !== null) throw conflict('Two-step sign-in is on already.');
      await securityRepository.setTotp(db, user.id, {
        totp_pending_secret: totpSeal.seal(user.id, newTotpSecret()),
        updated_at: clock.now(),
      });
    },

    /** The first code from the app: TOTP is on from now (audited). */
    async confirmSetup(session: ConsoleSession, code: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const user = await userRepository.find(trx, session.accountId, session.userId, true);
        if (!user) throw notFound('User');
        if (user.totp_secret !== null) throw conflict('Two-step sign-in is on already.');
        const secret = totpSeal.open(user.id, user.totp_pending_secret);
        if (secret === null) throw conflict('Start the set-up again: no secret is waiting for a code.');
        if ((await useCode(trx, user.id, secret, code)) === null) {
          throw badRequest('That code is not right. Enter the 6 digits your app shows now.', {
            field: 'code',
          });
        }
        await enable(trx, user.id, user.account_id, user.email, secret);
      });
    },

    /** Turns TOTP off with a current code; refused while the account requires it. */
    async disable(session: ConsoleSession, code: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const user = await userRepository.find(trx, session.accountId, session.userId, true);
        if (!user) throw notFound('User');
        if (user.totp_secret === null) throw conflict('Two-step sign-in is off already.');
        if (await securityRepository.requiresTotp(trx, user.account_id)) {
          throw conflict('The account requires two-step sign-in: it cannot be turned off.');
        }
        if ((await useCode(trx, user.id, totpSeal.open(user.id, user.totp_secret), code)) === null) {
          throw badRequest('That code is not right. Enter the 6 digits your app shows now.', {
            field: 'code',
          });
        }
        await securityRepository.setTotp(trx, user.id, {
          totp_secret: null,
          totp_pending_secret: null,
          totp_enabled_at: null,
          updated_at: clock.now(),
        });
        await audit.record(trx, user.account_id, actorOfUser(user), {
          action: 'user.totp_disabled',
          target: user.id,
        });
      });
    },

    /** Recovery: an admin takes another user's second factor away (audited); their sessions end. */
    async resetSecondFactor(accountId: string, userId: string, actor: Actor): Promise<{ email: string }> {
      return db.transaction().execute(async (trx) => {
        const user = await userRepository.find(trx, accountId, userId, true);
        if (!user) throw notFound('User');
        if (actor.kind === 'user' && actor.userId === userId) {
          throw conflict('Turn your own two-step sign-in off from Your security.');
        }
        if (user.totp_secret === null) throw conflict(`${user.email} has no two-step sign-in to reset.`);
        await securityRepository.setTotp(trx, user.id, {
          totp_secret: null,
          totp_pending_secret: null,
          totp_enabled_at: null,
          updated_at: clock.now(),
        });
        await userRepository.deleteSessionsOf(trx, user.id);
        await audit.record(trx, accountId, actor, {
          action: 'user.totp_reset',
          target: user.id,
          detail: { email: user.email },
        });
        return { email: user.email };
      });
    },

    /** The account's users with two-step sign-in on (the Users page shows it). */
    async totpUsers(accountId: string): Promise<Set<string>> {
      return new Set(await securityRepository.totpUserIds(db, accountId));
    },

    async requiresTotp(accountId: string): Promise<boolean> {
      return securityRepository.requiresTotp(db, accountId);
    },

    /** Whether the account requires TOTP of every user at sign-in (audited when it changes). */
    async setRequireTotp(accountId: string, require: boolean, actor: Actor): Promise<void> {
      await db.transaction().execute(async (trx) => {
        if (!(await accountRepository.find(trx, accountId))) throw notFound('Account');
        if ((await securityRepository.requiresTotp(trx, accountId)) === require) return;
        await securityRepository.setRequireTotp(trx, accountId, require, clock.now());
        await audit.record(trx, accountId, actor, {
          action: require ? 'account.totp_required' : 'account.totp_optional',
        });
      });
    },

    /** Holds a secret just made for the one page that shows it; the id goes in that page's address. */
    async hold(
      session: ConsoleSession,
      kind: 'key' | 'webhook',
      label: string,
      secret: string,
    ): Promise<string> {
      const id = randomToken(32);
      const now = clock.now();
      await securityRepository.insertShownOnce(db, {
        id_hash: sha256(id),
        user_id: session.userId,
        kind,
        label: label.slice(0, 2048),
        sealed: heldSeal.seal(session.userId, Buffer.from(secret, 'utf8')),
        created_at: now,
        expires_at: new Date(now.getTime() + SHOWN_ONCE_TTL_MS),
      });
      return id;
    },

    /** The held secret, once: the second call (a reload) finds nothing. Only its holder reads it. */
    async take(
      session: ConsoleSession,
      kind: 'key' | 'webhook',
      id: string,
    ): Promise<{ label: string; secret: string } | null> {
      if (!TOKEN.test(id)) return null;
      const row = await securityRepository.takeShownOnce(db, sha256(id), session.userId, kind, clock.now());
      const secret = row ? heldSeal.open(session.userId, row.sealed) : null;
      return row && secret ? { label: row.label, secret: secret.toString('utf8') } : null;
    },

    async sweep(): Promise<number> {
      return securityRepository.sweep(db, clock.now());
    },
  };

  async function enable(trx: Db, userId: string, accountId: string, email: string, secret: Buffer) {
    await securityRepository.setTotp(trx, userId, {
      totp_secret: totpSeal.seal(userId, secret),
      totp_pending_secret: null,
      totp_enabled_at: clock.now(),
      updated_at: clock.now(),
    });
    await audit.record(
      trx,
      accountId,
      { kind: 'user', userId, email },
      { action: 'user.totp_enabled', target: userId },
    );
  }
}

function actorOfUser(user: { id: string; email: string }): Actor {
  return { kind: 'user', userId: user.id, email: user.email };
}

export type AccountSafetyService = ReturnType<typeof createAccountSafetyService>;
